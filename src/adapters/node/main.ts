/**
 * `npm run serve`: serves an existing `dist/` (site and API) until SIGTERM/SIGINT.
 * Environment: PORT (4321), HOST (127.0.0.1), DIST_DIR (dist), RATE_LIMIT_PER_MINUTE (see
 * src/core/policy.ts; 0 disables), TRUST_PROXY (number of trusted proxies; `true` = 1).
 * Started with `--no-memory-reducer`: V8's idle-time memory reducer makes later requests cost more CPU.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startServer } from './index.ts';
import { listenErrorLine } from './listen-error.ts';
import { integerFromEnv, rateLimitFromEnv, trustProxyFromEnv } from './env.ts';
import { originWarning } from './origin-warning.ts';

const distDir = resolve(process.env.DIST_DIR ?? 'dist');
if (!existsSync(join(distDir, 'views', 'meta.json'))) {
  console.error(`No built site in ${distDir} (views/meta.json missing). Run \`npm run build\` first, or \`npm start\`.`);
  process.exit(1);
}

const port = integerFromEnv('PORT', 4321);
const host = process.env.HOST?.trim() || '127.0.0.1';
const running = await startServer({
  distDir,
  port,
  host,
  rateLimitPerMinute: rateLimitFromEnv(),
  trustProxy: trustProxyFromEnv(),
}).catch((error: NodeJS.ErrnoException) => {
  // One line the operator can act on, no stack trace.
  console.error(listenErrorLine(error, host, port, 'serve'));
  process.exit(1);
});
console.log(`Serving ${distDir} at ${running.url} (API at ${running.url}/api/v1)`);
const { siteUrl } = JSON.parse(readFileSync(join(distDir, 'views', 'meta.json'), 'utf8')) as { siteUrl: string };
const warning = originWarning(siteUrl, running.url);
if (warning) console.warn(warning);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    void running.close().then(() => process.exit(0));
  });
}
