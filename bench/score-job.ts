/**
 * Past months scored in this thread as a scoring worker scores them (score-months.ts,
 * scorePastMonth: the month's aggregate read from its parsed-month cache entry, scored with
 * its board details, its scored entry written), each timed by CPU, on data a build has
 * already cached. For profiling the scoring without a whole build:
 *
 *   EVI_DATA_DIR=<data> EVI_CACHE_DIR=<cache of a finished build of that data> \
 *   node --import tsx bench/score-job.ts 2025-01 2025-02 …
 *
 * (add --cpu-prof to profile). The scored entries go to a temporary folder, removed at the
 * end; the build's cache is only read. Prints per month its wall and CPU seconds and the
 * digest of its leaderboards (ledger.ts), which two checkouts must agree on; then the CPU
 * of all the months.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { universes } from '../src/core/score.ts';
import { loadData } from '../src/build/load-data.ts';
import { scorePastMonth } from '../src/build/score-months.ts';

const env = process.env;
const dataDir = env.EVI_DATA_DIR, cacheDir = env.EVI_CACHE_DIR;
if (!dataDir || !cacheDir) throw new Error('EVI_DATA_DIR and EVI_CACHE_DIR are needed');
const say = (l: string) => console.error(l);
const data = await loadData({ dataDir, cacheDir, root: resolve('.'), workers: 1 });
if (data.cacheHits < data.months.length) say(`only ${data.cacheHits} of ${data.months.length} months were in the cache`);
const reg = data.registry;
const pools = universes(reg);
const tmp = mkdtempSync(join(tmpdir(), 'evi-score-job-'));
try {
  const all = process.cpuUsage();
  for (const month of process.argv.slice(2)) {
    const i = data.months.findIndex((f) => f.month === month);
    if (i < 0 || i === data.months.length - 1) throw new Error(`${month} is not a past month of the data`);
    const cpu = process.cpuUsage();
    const t = performance.now();
    const scored = await scorePastMonth(reg, pools, { entry: { path: join(tmp, `${month}.json`), key: month }, source: data.aggregateSource(i) }, say);
    const used = process.cpuUsage(cpu);
    console.log(`${month} ${((performance.now() - t) / 1000).toFixed(3)} s, CPU ${((used.user + used.system) / 1e6).toFixed(3)} s, ${scored.result.boards.size} boards, digest ${scored.record.digest}`);
  }
  const used = process.cpuUsage(all);
  console.log(`CPU of the months ${((used.user + used.system) / 1e6).toFixed(2)} s`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
