/**
 * `npm run serve`: serves an existing `dist/` (site and API) until SIGTERM/SIGINT.
 * Environment: PORT (4321), HOST (127.0.0.1), DIST_DIR (dist),
 * RATE_LIMIT_PER_MINUTE (default RATE_LIMIT_PER_MINUTE of src/core/policy.ts, 60; 0 disables), TRUST_PROXY (number of trusted proxies; `true` = 1).
 * Start it as the `serve` script does, `node --no-memory-reducer --import tsx …`: after V8's
 * idle-time memory reducer the server could spend 40-55% more CPU a request (README, Node server).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startServer } from './index.ts';
import { listenErrorLine } from './listen-error.ts';
import { originWarning } from './origin-warning.ts';
import { RATE_LIMIT_PER_MINUTE } from '../../api/index.ts';

function integer(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) {
    console.error(`${name} must be a non-negative integer; got "${raw}"`);
    process.exit(2);
  }
  return Number(raw);
}

function trustProxy(): number {
  const raw = process.env.TRUST_PROXY?.trim().toLowerCase() ?? '';
  if (raw === '' || raw === 'false' || raw === 'no') return 0;
  if (raw === 'true' || raw === 'yes') return 1;
  return integer('TRUST_PROXY', 0);
}

const distDir = resolve(process.env.DIST_DIR ?? 'dist');
if (!existsSync(join(distDir, 'views', 'meta.json'))) {
  console.error(`No built site in ${distDir} (views/meta.json missing). Run \`npm run build\` first, or \`npm start\`.`);
  process.exit(1);
}

const port = integer('PORT', 4321);
const host = process.env.HOST?.trim() || '127.0.0.1';
const running = await startServer({
  distDir,
  port,
  host,
  rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', RATE_LIMIT_PER_MINUTE),
  trustProxy: trustProxy(),
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
