/**
 * The Worker under workerd for the tests: bundled as wrangler does it (ESM, workerd
 * conditions) and run by Miniflare with the options wrangler.toml gives, its static
 * assets pointing at a built site.
 */
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from 'wrangler';

process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
process.env.WRANGLER_SEND_METRICS = 'false';

const root = resolve(import.meta.dirname, '../..');

/** Bundles src/adapters/cloudflare/index.ts into `.cache/<name>/index.js` (one folder per test file, so runs in parallel do not collide). */
export async function bundleWorker(name: string): Promise<string> {
  const outfile = join(root, '.cache', name, 'index.js');
  await build({
    entryPoints: [join(root, 'src/adapters/cloudflare/index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  return outfile;
}

/** Miniflare's worker options from wrangler.toml, with `assets` pointing at `directory`. */
export function configured(directory: string) {
  const config = unstable_readConfig({ config: join(root, 'wrangler.toml') }, { hideWarnings: true });
  if (!config.assets) throw new Error('wrangler.toml has no [assets]');
  config.assets = { ...config.assets, directory };
  return unstable_getMiniflareWorkerOptions(config).workerOptions;
}

/**
 * A ready Miniflare running `script` over the site in `directory`. With `rateLimits`, the
 * Rate Limiting binding of wrangler.toml too (off by default: the suites send hundreds of
 * requests a minute from one address).
 */
export async function startWorker(script: string, directory: string, { rateLimits = false } = {}): Promise<Miniflare> {
  const workerOptions = configured(directory);
  const mf = new Miniflare({
    modules: true,
    scriptPath: script,
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags,
    assets: { ...workerOptions.assets!, directory },
    ...(rateLimits ? { ratelimits: workerOptions.ratelimits } : {}),
    cf: false,
  });
  await mf.ready;
  return mf;
}
