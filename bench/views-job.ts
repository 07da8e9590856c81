/**
 * One or more past months' views jobs (src/build/month-files.ts, runMonthJob: the month's
 * company records and search rankings) run in this
 * thread on data a build has already cached, each timed by CPU, and (optionally) their
 * files compared byte for byte with a finished build's output. With EVI_BENCH_BOARDS=1,
 * the months' leaderboards jobs instead (the boards' JSON and binary files and the CSV
 * download, from the months' whole results, as a month worker runs them before its views
 * jobs; any month of the data). For profiling a job without a whole build:
 *
 *   EVI_DATA_DIR=<data> EVI_CACHE_DIR=<cache of a finished build of that data> \
 *   EVI_BENCH_REF=<that build's output folder> \
 *   node --max-semi-space-size=32 --import tsx bench/views-job.ts 2026-08 2026-09
 *
 * (add --cpu-prof to profile). Each month's files go to a temporary folder, removed at the
 * end. The build's meta view is read from EVI_BENCH_REF/views/meta.json (the jobs need its
 * site origin and shard count); the months' results come from the cache, as in a build.
 * The months run in the order given, in one thread, as a month worker runs its jobs. Each
 * job reads its month's aggregate and scores it again with board details, as a build's
 * job does when the scored month came from the cache; in a cold build the job gets the
 * details its scoring packed instead (score-months.ts), so this times more than that.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { universes, type MonthResult } from '../src/core/score.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { loadData } from '../src/build/load-data.ts';
import { historyOnly, keptHistory, runMonthJob } from '../src/build/month-files.ts';
import { scoreMonths } from '../src/build/score-months.ts';
import { keepCsvBuffer } from '../src/build/downloads.ts';

const env = process.env;
const dataDir = env.EVI_DATA_DIR, cacheDir = env.EVI_CACHE_DIR, ref = env.EVI_BENCH_REF;
if (!dataDir || !cacheDir || !ref) throw new Error('EVI_DATA_DIR, EVI_CACHE_DIR and EVI_BENCH_REF are needed');
const months = process.argv.slice(2);
const say = (l: string) => console.error(l);

const data = await loadData({ dataDir, cacheDir, root: resolve('.'), workers: 1 });
const results: MonthResult[] = [];
for await (const { result } of scoreMonths(data, universes(data.registry), cacheDir, say, 1)) results.push(result);
const meta = JSON.parse(readFileSync(join(ref, 'views', 'meta.json'), 'utf8')) as MetaView;
const boards = env.EVI_BENCH_BOARDS === '1';
// a month worker keeps its CSV buffer from one leaderboards job to the next (month-worker.ts)
keepCsvBuffer(boards);
// What a month worker holds at its leaderboards jobs (every month's whole result), or at its views jobs (month-worker.ts).
const ctx = { input: { registry: data.registry, results: boards ? results : results.map(historyOnly) }, meta } as Parameters<typeof runMonthJob>[0];

const tmp = mkdtempSync(join(tmpdir(), 'evi-views-job-'));
let differ = 0;
try {
  for (const month of months) {
    const i = results.findIndex((r) => r.month === month);
    if (i < 0 || (!boards && i === results.length - 1)) throw new Error(`${month} is not a ${boards ? '' : 'past '}month of the data`);
    const out = join(tmp, month);
    const c0 = process.cpuUsage(), t0 = performance.now();
    const r = await runMonthJob(ctx, boards ? { i, boards: { out } } : { i, views: { out, aggregate: data.aggregateSource(i) } }, say);
    const c = process.cpuUsage(c0), wall = performance.now() - t0;
    const files = (boards ? r.boards : r.views)!.files;
    // a views job's paths are under views/, a leaderboards job's under the site's root
    const refRoot = boards ? ref : join(ref, 'views');
    const bytes = files.reduce((s, f) => s + f.bytes, 0);
    let same = 0;
    for (const f of files) {
      const a = readFileSync(join(out, f.path)), b = readFileSync(join(refRoot, f.path));
      if (a.equals(b)) same++;
      else (differ++, say(`  differs: ${f.path}`));
    }
    if (!boards) {
      const refFiles = readdirSync(join(ref, 'views', 'months', month), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;
      if (refFiles !== files.length) (differ++, say(`  ${files.length} files, the reference has ${refFiles}`));
    }
    say(`${month}: ${((c.user + c.system) / 1e6).toFixed(2)} s CPU (user ${(c.user / 1e6).toFixed(2)}, sys ${(c.system / 1e6).toFixed(2)}), ${(wall / 1000).toFixed(2)} s wall, ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB, ${same} identical to the reference${boards ? '' : `; history numbers kept ${(keptHistory(ctx) / 1e6).toFixed(2)} million`}`);
    rmSync(out, { recursive: true, force: true });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (differ) process.exit(1);
