/**
 * `npm run fuzz`: the long run of the seeded request fuzzer against the Node server (or the
 * Worker under workerd) serving an existing `dist/`; exits 1 on a failure. The Worker gets
 * only the requests Cloudflare's edge would hand it.
 * Environment: FUZZ_COUNT, FUZZ_SEED, FUZZ_CONCURRENCY, DIST_DIR (dist), FUZZ_TARGET (node | worker).
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { viewPaths } from '../src/core/views/layout.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { startServer } from '../src/adapters/node/index.ts';
import { fuzzRequests, reachesWorker, runFuzz } from '../test/lib/fuzz.ts';
import { bundleWorker, startWorker } from '../test/lib/workerd.ts';

const count = Number(process.env.FUZZ_COUNT ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? 20261122);
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const dist = resolve(process.env.DIST_DIR ?? 'dist');
if (!existsSync(join(dist, viewPaths.meta()))) {
  console.error(`No built site in ${dist}: run \`npm run build\` first (or set DIST_DIR).`);
  process.exit(2);
}
const meta = JSON.parse(readFileSync(join(dist, viewPaths.meta()), 'utf8')) as MetaView;
const worker = process.env.FUZZ_TARGET === 'worker';
const errors: string[] = [];
const server = worker
  ? await startWorker(await bundleWorker('fuzz'), dist).then(async (mf) => ({ url: (await mf.ready).href, close: () => mf.dispose() }))
  : await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, log: null, logError: (l) => errors.push(l) });
const port = Number(new URL(server.url).port);
const started = performance.now();
let failures = 0;
let sent = 0;
let slowest = 0;
const statuses: Record<string, number> = {};
// In batches, so that only one batch of requests is in memory.
for (let offset = 0; offset < count; offset += 10_000) {
  const size = Math.min(10_000, count - offset);
  // The Worker's batch: the first `size` requests the edge would deliver.
  const batch = worker ? fuzzRequests(seed + offset, size * 2, meta).filter(reachesWorker).slice(0, size) : fuzzRequests(seed + offset, size, meta);
  const report = await runFuzz(port, batch, { concurrency, secrets: [dist, resolve(import.meta.dirname, '..')], normalisePath: worker });
  sent += report.sent;
  slowest = Math.max(slowest, report.slowestMs);
  for (const [status, n] of Object.entries(report.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  for (const failure of report.failures.slice(0, 20)) console.error(`FAIL ${failure}`);
  failures += report.failures.length;
  process.stderr.write(`  ${sent} / ${count}\n`);
}
const seconds = (performance.now() - started) / 1000;
await server.close(100);
console.log(`fuzz (${worker ? 'Worker under workerd' : 'Node server'}): seed ${seed}, ${sent} requests in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)}/s, concurrency ${concurrency}, ${cpus().length} CPUs, Node ${process.version})`);
console.log(`statuses: ${Object.entries(statuses).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
console.log(`slowest exchange: ${slowest.toFixed(0)} ms; failures: ${failures}; handler errors logged: ${errors.length}`);
process.exit(failures === 0 ? 0 : 1);
