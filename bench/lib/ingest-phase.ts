/**
 * The build's ingest phase alone (src/build/load-data.ts: registry, hashing, parsing in the
 * parser workers, cache writes), with the CPU time of the whole process (every thread):
 *
 *   node --import tsx bench/lib/ingest-phase.ts DATA_DIR CACHE_DIR|off [WORKERS]
 *
 * CACHE_DIR should be empty for a cold ingest (every month parsed). Prints one JSON object.
 */
import { loadData } from '../../src/build/load-data.ts';

const [dataDir, cacheArg, workersArg] = process.argv.slice(2);
if (!dataDir || !cacheArg) {
  console.error('usage: ingest-phase.ts DATA_DIR CACHE_DIR|off [WORKERS]');
  process.exit(2);
}
const log = process.env.EVI_INGEST_LOG === '1' ? (l: string) => console.error(l) : undefined;
const c0 = process.cpuUsage();
const t0 = performance.now();
const data = await loadData({ dataDir, cacheDir: cacheArg === 'off' ? null : cacheArg, root: dataDir, workers: workersArg ? Number(workersArg) : undefined, log });
const wall = (performance.now() - t0) / 1000;
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ months: data.months.length, cacheHits: data.cacheHits, wall, user: c.user / 1e6, system: c.system / 1e6, cpu: (c.user + c.system) / 1e6 }));
