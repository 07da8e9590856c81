/**
 * bench:build — the build at reference scale (issue "Build benchmark"): 10,000 companies,
 * 24 months of ~1.2M mention rows, cold and incremental (one new month), beside DuckDB
 * doing the same per-context aggregation over the same files. Run: `npm run bench:build`.
 * Prints a summary and rewrites the "build" section of docs/performance.md (its targets).
 *
 * Environment:
 *   EVI_BENCH_DATA   folder for the generated data; reused by later runs when it holds a
 *                    matching data set (default: a temporary folder, removed at the end)
 *   EVI_BENCH_PAGES  auto (default: with the Astro pages, falling back to EVI_PAGES=0 when
 *                    they take longer than EVI_BENCH_PAGES_LIMIT seconds, default 900) | 1 | 0
 *   EVI_WORKERS      passed to the build; DuckDB gets the same number of threads
 *   EVI_BENCH_DUCKDB_T1_MONTHS  months for DuckDB's one-thread aggregate run (default 4; 0 skips it)
 *   EVI_BENCH_ONLY=ingest  the ingest comparison alone: the cold build and the
 *                    one-worker build are stopped once their log reaches "Scoring and ranking"
 *                    (the ingest phase is all they are measured for), no incremental builds;
 *                    DuckDB's runs as usual. Prints only
 *                    (docs/performance.md is left alone).
 *   EVI_BENCH_INGEST_PAIRS=N  the ingest ratio from N pairs (default 1): after the first, N - 1
 *                    more pairs of a cold ingest (a fresh cache, stopped at "Scoring and
 *                    ranking") and DuckDB's same aggregation, one right after the other; the
 *                    target row gives the median of the pairs' ratios (a ratio from one pair
 *                    carries the machine's drift between its two runs)
 *   EVI_BENCH_INC_RUNS=N  the incremental build (with pages) N times (default 3), each from
 *                    a hard-linked snapshot of the cold build's cache and output, so that each
 *                    starts where the first did; the table gives the run of the median wall,
 *                    the targets the median wall and the highest peak RSS of the N
 *   EVI_BENCH_STEADY=0  skips the incremental build in an operator's steady state (default:
 *                    one run, after the others, from another snapshot with a release behind the
 *                    live one, its rewritten files with inodes of their own, which the build
 *                    removes while it runs, as from an operator's second month on)
 *   EVI_BENCH_MONTHS, EVI_BENCH_ROWS, EVI_BENCH_COMPANIES  smaller data sets for trying the
 *                    bench out; docs/performance.md is only written at the reference scale
 *                    (or with EVI_BENCH_WRITE=1)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { BUILD_NODE_ARGS } from '../src/pipeline/workers/build-command.ts';
import { LEDGER_FILE } from '../src/pipeline/release/ledger.ts';
import { releasesDir } from '../src/pipeline/release/release.ts';
import { writeBenchSection } from '../scripts/lib/perf-doc.ts';
import { prepareBenchData, REFERENCE, subsetDir, type BenchDataParams } from './lib/bench-data.ts';
import { asLeftByItsBuild, linkTree } from './lib/link-tree.ts';
import { olderRelease } from './lib/older-release.ts';
import { measure, runningGroups, type Measured } from './lib/measure.ts';

const repo = resolve(import.meta.dirname, '..');
const env = process.env;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const params: BenchDataParams = {
  ...REFERENCE,
  months: num(env.EVI_BENCH_MONTHS) ?? REFERENCE.months,
  rowsPerMonth: num(env.EVI_BENCH_ROWS) ?? REFERENCE.rowsPerMonth,
  companies: num(env.EVI_BENCH_COMPANIES) ?? REFERENCE.companies,
};
const reference = JSON.stringify(params) === JSON.stringify(REFERENCE);
const workers = num(env.EVI_WORKERS) ?? Math.max(1, Math.min(availableParallelism(), 4));
const pagesMode = env.EVI_BENCH_PAGES ?? 'auto';
const pagesLimit = num(env.EVI_BENCH_PAGES_LIMIT) ?? 900;
const t1Months = num(env.EVI_BENCH_DUCKDB_T1_MONTHS) ?? 4;
const ingestOnly = env.EVI_BENCH_ONLY === 'ingest';
const ingestPairs = Math.max(1, num(env.EVI_BENCH_INGEST_PAIRS) ?? 1);
const incRuns = Math.max(1, Math.floor(num(env.EVI_BENCH_INC_RUNS) ?? 3));
const steadyRun = env.EVI_BENCH_STEADY !== '0';
if (env.EVI_BENCH_ONLY !== undefined && !ingestOnly) throw new Error(`EVI_BENCH_ONLY must be "ingest", got "${env.EVI_BENCH_ONLY}"`);
const EPOCH = '1793491200'; // 2026-11-01: lastUpdated fixed, as in CI
/** DuckDB's same checks and aggregation over the reference data on the machine where the targets were set. */
const ISSUE_DUCKDB_SECONDS = 32;

const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const mib = (kib: number) => `${fmt(kib / 1024)} MiB`;
/** The median of `xs` (the mean of the two middle values of an even count). */
function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
}
const secs = (s: number) => (s >= 100 ? `${fmt(s)} s` : `${fmt(s, 1)} s`);
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const stamp = () => new Date().toISOString().slice(11, 19);
const say = (l: string) => console.error(`[${stamp()}] ${l}`);
const started = new Date();
const loads: { at: string; load: string }[] = [];
const noteLoad = (at: string) => {
  loads.push({ at, load: load() });
  say(`load average (1/5/15 min): ${load()} — ${at}`);
};
// The 1-minute load average every 2 s, to say how busy the machine was during each run.
const loadSamples: { t: number; l: number }[] = [];
setInterval(() => loadSamples.push({ t: performance.now(), l: loadavg()[0]! }), 2000).unref();
const meanLoad = (from: number, to: number) => {
  const xs = loadSamples.filter((s) => s.t >= from && s.t <= to).map((s) => s.l);
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : loadavg()[0]!;
};

// ---------------------------------------------------------------- the machine
const cpuModel = (() => {
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpus()[0]?.model ?? '?';
  } catch {
    return cpus()[0]?.model ?? '?';
  }
})();
const machine = {
  nproc: (() => {
    try {
      return execFileSync('nproc', { encoding: 'utf8' }).trim();
    } catch {
      return String(availableParallelism());
    }
  })(),
  cpu: cpuModel,
  ramGiB: totalmem() / 2 ** 30,
  node: process.version,
};
// The code measured: other engineers commit while this runs, so HEAD is read at both ends.
const gitState = () => {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'scripts'], { cwd: repo, encoding: 'utf8' }).trim() !== '';
    return { head, dirty };
  } catch {
    return { head: '?', dirty: false };
  }
};
const gitStart = gitState();
say(`machine: ${machine.nproc} CPUs (${machine.cpu}), ${machine.ramGiB.toFixed(1)} GiB RAM, Node ${machine.node}; build workers ${workers}`);
noteLoad('start');

// ---------------------------------------------------------------- data
const dataRoot = env.EVI_BENCH_DATA ? resolve(env.EVI_BENCH_DATA) : mkdtempSync(join(tmpdir(), 'evi-bench-data-'));
mkdirSync(dataRoot, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'evi-bench-build-'));
const cleanup = () => {
  rmSync(work, { recursive: true, force: true });
  if (!env.EVI_BENCH_DATA) rmSync(dataRoot, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  // The children run in their own process groups (so that a stuck pages step can be stopped): stop them too.
  for (const pgid of runningGroups) {
    try {
      process.kill(-pgid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  cleanup();
  process.exit(130);
});

try {
  const data = await prepareBenchData(dataRoot, params, say);

  // ---------------------------------------------------------------- builds
  interface BuildRun {
    label: string;
    pages: boolean;
    m: Measured;
    phases: { name: string; seconds: number }[];
    parsedRows: number;
    parsedMonths: number;
    cacheHits: number;
    ingestSeconds: number;
    rowsTotal: number;
    files: number;
    bytes: number;
    contexts: number;
    buildSeconds: number;
    pagesKilled: boolean;
    /** The first error line when the pages step failed. */
    pagesFailed: string | null;
    load: number;
  }
  const PHASES: [RegExp, string][] = [
    [/^Reading /, 'ingest'],
    [/^Scoring and ranking/, 'scoring'],
    [/^Writing views/, 'views'],
    [/^Building pages/, 'pages'],
    [/^Built /, 'done'],
  ];
  // Progress lines may start with the build's own elapsed time ("  12.3 s  Reading …").
  const bare = (l: string) => l.replace(/^\s*\d+(\.\d+)? s {2}/, '');
  const phaseOf = (l: string) => PHASES.find(([re]) => re.test(bare(l)))?.[1] ?? null;
  const int = (s: string | undefined) => (s === undefined ? 0 : Number(s.replace(/,/g, '')));
  /** `sync`: the page cache's dirty pages written out, where the command exists. */
  const syncDisk = () => {
    try {
      execFileSync('sync', { stdio: 'ignore' });
    } catch {
      // no sync command: the build starts as it is
    }
  };

  async function build(
    label: string,
    dataDir: string,
    cacheDir: string,
    outDir: string,
    pages: boolean,
    limitPages = false,
    extraEnv: NodeJS.ProcessEnv = {},
    stopAfterIngest = false,
  ): Promise<BuildRun> {
    // Each build starts with the disk's write-back done, as an operator's monthly build does:
    // the run before (a cold build's ~2 GB) leaves gigabytes of dirty pages,
    // whose write-back would otherwise throttle this build's own writes.
    syncDisk();
    noteLoad(`before the ${label} build`);
    say(`${label} build: ${dataDir} (${pages ? 'with pages' : 'EVI_PAGES=0'}), cache ${cacheDir}`);
    const childEnv: NodeJS.ProcessEnv = { ...env, ...extraEnv, EVI_DATA_DIR: dataDir, EVI_OUT_DIR: outDir, EVI_CACHE_DIR: cacheDir, SOURCE_DATE_EPOCH: EPOCH };
    if (pages) delete childEnv.EVI_PAGES;
    else childEnv.EVI_PAGES = '0';
    let pagesTimer: NodeJS.Timeout | undefined;
    let pagesKilled = false;
    const from = performance.now();
    const m = await measure(process.execPath, [...BUILD_NODE_ARGS], {
      cwd: repo,
      env: childEnv,
      phaseOf,
      firstPhase: 'startup',
      onLine: (line, kill) => {
        console.error(`  [${line.t.toFixed(1).padStart(6)} s] ${line.text}`);
        if (stopAfterIngest && phaseOf(line.text) === 'scoring') kill('the ingest phase is over (EVI_BENCH_ONLY=ingest)');
        if (limitPages && /^Building pages/.test(line.text))
          pagesTimer = setTimeout(() => {
            pagesKilled = true;
            kill(`pages still building after ${pagesLimit} s`);
          }, pagesLimit * 1000);
      },
    });
    clearTimeout(pagesTimer);
    let failed: string | null = null;
    if (m.code !== 0 && !pagesKilled && !(stopAfterIngest && m.killed)) {
      const why = `${label} build failed (exit ${m.code}, signal ${m.signal}) after ${secs(m.wall)}, peak RSS ${mib(m.peakRssKiB)}`;
      // A failure in the pages step still leaves the ingest figures; the caller retries with EVI_PAGES=0.
      if (!pages || !m.lines.some((l) => phaseOf(l.text) === 'pages')) throw new Error(`${why}:\n${m.lines.slice(-30).map((l) => l.text).join('\n')}`);
      failed = m.lines.find((l) => /Error|ERROR/.test(l.text))?.text ?? why;
      say(`${why} in the pages step: ${failed}`);
    }
    const at = (name: string) => {
      const i = m.lines.findIndex((l) => phaseOf(l.text) === name);
      return i < 0 ? null : m.lines[i]!.t;
    };
    const marks = [['startup', 0] as const, ...PHASES.map(([, n]) => [n, at(n)] as const)].filter((x): x is readonly [string, number] => x[1] !== null);
    const phases = marks.map(([name, t], i) => ({ name, seconds: (marks[i + 1]?.[1] ?? m.wall) - t }));
    let parsedRows = 0;
    let parsedMonths = 0;
    for (const l of m.lines) {
      const r = /^\s+\d{4}-\d{2}: ([\d,]+) rows read in/.exec(bare(l.text));
      if (r) {
        parsedRows += int(r[1]);
        parsedMonths++;
      }
    }
    const text = m.lines.map((l) => l.text).join('\n');
    const ingestSeconds = (at('scoring') ?? m.wall) - (at('ingest') ?? 0);
    const run: BuildRun = {
      label,
      pages,
      m,
      phases,
      parsedRows,
      parsedMonths,
      cacheHits: int(/; (\d+) month\(s\) from the cache/.exec(text)?.[1]),
      ingestSeconds,
      rowsTotal: int(/^\s+rows: ([\d,]+)/m.exec(text)?.[1]),
      files: int(/written: ([\d,]+) files/.exec(text)?.[1]),
      bytes: int(/written: [\d,]+ files, ([\d,]+) bytes/.exec(text)?.[1]),
      contexts: int(/contexts: ([\d,]+) leaderboards/.exec(text)?.[1]),
      buildSeconds: Number(/ in ([\d.]+) s; \d+ month\(s\) from the cache/.exec(text)?.[1] ?? NaN),
      pagesKilled,
      pagesFailed: failed,
      load: meanLoad(from, performance.now()),
    };
    say(
      `${label}: wall ${secs(m.wall)}, peak RSS ${mib(m.peakRssKiB)}, ingest ${fmt(parsedRows)} rows in ${secs(ingestSeconds)} = ${fmt(parsedRows / ingestSeconds)} rows/s, ${fmt(run.files)} files, ${fmt(run.bytes)} bytes`,
    );
    return run;
  }

  const cacheDir = join(work, 'cache');
  const outDir = join(work, 'dist');
  let pages = pagesMode !== '0' && !ingestOnly;
  let cold = await build('cold', data.coldDir, cacheDir, outDir, pages, pagesMode === 'auto' && !ingestOnly, {}, ingestOnly);
  let killedPages: BuildRun | null = null;
  if (cold.pagesKilled || cold.pagesFailed) {
    killedPages = cold;
    pages = false;
    rmSync(cacheDir, { recursive: true, force: true });
    say(`${cold.pagesKilled ? `pages took longer than ${pagesLimit} s` : 'the pages step failed'}: cold build again with EVI_PAGES=0 and a fresh cache`);
    cold = await build('cold', data.coldDir, cacheDir, outDir, false);
  }
  const incrementals: BuildRun[] = [];
  /** Every run of the incremental build with pages (EVI_BENCH_INC_RUNS), in the order run. */
  const incAll: BuildRun[] = [];
  /** The incremental build with the release before the live one to remove (EVI_BENCH_STEADY), and that release's counts. */
  let steady: (BuildRun & { older: { files: number; own: number } }) | null = null;
  if (!ingestOnly) {
    // The cold build's cache, kept so that each incremental run starts from it: hard links,
    // not a copy of its ~2 GB, as the cache never writes a file in place (lib/link-tree.ts).
    const coldCache = join(work, 'cache-cold');
    linkTree(cacheDir, coldCache);
    // Its release too, for the repeats: each one's output starts as the cold build left
    // `dist` (a link to that release, which the build reads as the previous one).
    const coldRelease = realpathSync(outDir);
    const releaseCopy = join(work, 'release-cold');
    if (incRuns > 1 || steadyRun) linkTree(coldRelease, releaseCopy);
    // The data folder's ledger as the cold build left it, as an operator's monthly build finds
    // it (the first run records the new month in it; each repeat starts from it again).
    const ledgerFile = join(data.incDir, LEDGER_FILE);
    const coldLedger = join(data.coldDir, LEDGER_FILE);
    const ledgerBefore = existsSync(coldLedger) ? readFileSync(coldLedger) : null;
    const restoreLedger = () => (ledgerBefore ? writeFileSync(ledgerFile, ledgerBefore) : rmSync(ledgerFile, { force: true }));
    restoreLedger();
    asLeftByItsBuild(cacheDir);
    incAll.push(await build('incremental', data.incDir, cacheDir, outDir, pages));
    // The release the first run made: which files a monthly build rewrites (for the steady state below).
    const nextRelease = realpathSync(outDir);
    /** Where one more monthly run starts as the first did: the ledger as it found it, and hard-linked snapshots of the cold build's cache and release (`dist` a link to it). */
    const snapshot = (name: string) => {
      restoreLedger();
      const c = join(work, `cache-${name}`);
      const o = join(work, `dist-${name}`);
      linkTree(coldCache, c);
      linkTree(releaseCopy, join(releasesDir(o), basename(coldRelease)));
      symlinkSync(join(basename(releasesDir(o)), basename(coldRelease)), o);
      return { c, o };
    };
    for (let k = 2; k <= incRuns; k++) {
      const { c, o } = snapshot(`inc-${k}`);
      asLeftByItsBuild(c);
      incAll.push(await build('incremental', data.incDir, c, o, pages));
    }
    // The run of the median wall stands for them all in the table (the targets take the median wall and the highest peak).
    incrementals.push([...incAll].sort((a, b) => a.m.wall - b.m.wall)[(incAll.length - 1) >> 1]!);
    // An operator's second month and after: the release before the live one is still there
    // (kept for requests in flight during the last swap), with the files its build rewrote as
    // its own, and the build removes it while it runs. The runs above start from a cold
    // build's output, which has none behind it.
    if (steadyRun) {
      const { c, o } = snapshot('steady');
      // Named as a build's release; its process (one that has exited) is not running, so the build removes it.
      const olderDir = join(releasesDir(o), `0000000000-${spawnSync(process.execPath, ['-e', '']).pid}`);
      const older = olderRelease(releaseCopy, nextRelease, olderDir);
      say(`the release behind the live one: ${fmt(older.files)} files, ${fmt(older.own)} of them its own (rewritten by a monthly build), the others links shared with the live one`);
      asLeftByItsBuild(c);
      steady = { ...(await build('incremental (steady state)', data.incDir, c, o, pages)), older };
      if (existsSync(olderDir)) throw new Error(`the steady-state build left the release behind the live one in place (${olderDir})`);
    }
    // Astro rebuilds every page each time: the views-and-JSON-only figure is the incremental cost of the data.
    if (pages) {
      const cache2 = join(work, 'cache-2');
      linkTree(coldCache, cache2);
      asLeftByItsBuild(cache2);
      incrementals.push(await build('incremental', data.incDir, cache2, join(work, 'dist-2'), false));
    }
  }

  // Ours with one worker (in-process, months one at a time) over the first months, for the one-thread comparison.
  let one: BuildRun | null = null;
  if (t1Months > 0) {
    const dir = subsetDir(dataRoot, data, Math.min(t1Months, params.months));
    one = await build(`1-worker (${Math.min(t1Months, params.months)} months, no cache)`, dir, 'off', join(work, 'dist-1'), false, false, { EVI_WORKERS: '1' }, ingestOnly);
  }

  // ---------------------------------------------------------------- DuckDB
  interface Duck {
    mode: string;
    threads: number;
    seconds: number;
    rows: number;
    files: number;
    timings: Record<string, number>;
    m: Measured;
    load: number;
    [k: string]: unknown;
  }
  async function duck(threads: number, mode: 'ingest' | 'aggregate', files: string[] = []): Promise<Duck> {
    noteLoad(`before DuckDB ${mode}, ${threads} thread(s)`);
    const from = performance.now();
    const m = await measure(process.execPath, ['--import', 'tsx', 'bench/lib/duckdb-aggregate.ts', data.coldDir, String(threads), mode, String(2 * threads), ...files], {
      cwd: repo,
      env,
      onLine: (l) => console.error(`  ${l.text}`),
    });
    if (m.code !== 0) throw new Error(`DuckDB ${mode} failed: ${m.lines.map((l) => l.text).join('\n')}`);
    const r = JSON.parse(m.stdout.trim().split('\n').pop()!) as Duck;
    r.m = m;
    r.load = meanLoad(from, performance.now());
    say(`DuckDB ${mode}, ${threads} thread(s): ${fmt(r.rows)} rows in ${secs(r.seconds)} = ${fmt(r.rows / r.seconds)} rows/s, peak RSS ${mib(m.peakRssKiB)}`);
    return r;
  }
  const duckAgg = await duck(workers, 'aggregate');
  // More pairs for the ingest ratio (EVI_BENCH_INGEST_PAIRS): ours, then DuckDB's, each pair in the same minutes.
  const pairs: { ours: number; duck: number }[] = [{ ours: cold.parsedRows / cold.ingestSeconds, duck: duckAgg.rows / duckAgg.seconds }];
  // Every run of DuckDB's same aggregation (2 threads): their median is this machine's speed for the scaled targets.
  const duckAggSeconds = [duckAgg.seconds];
  for (let k = 2; k <= ingestPairs; k++) {
    const c = join(work, `cache-ingest-${k}`);
    const o = join(work, `dist-ingest-${k}`);
    const run = await build(`cold ingest (pair ${k} of ${ingestPairs})`, data.coldDir, c, o, false, false, {}, true);
    rmSync(c, { recursive: true, force: true });
    rmSync(o, { recursive: true, force: true });
    const d = await duck(workers, 'aggregate');
    pairs.push({ ours: run.parsedRows / run.ingestSeconds, duck: d.rows / d.seconds });
    duckAggSeconds.push(d.seconds);
  }
  const ratios = pairs.map((p) => p.ours / p.duck);
  const medianRatio = median(ratios);
  const duckIngest = await duck(workers, 'ingest');
  const firstFiles = data.coldMonths.slice(0, Math.min(t1Months, params.months)).map((mo) => join(data.coldDir, 'mentions', `${mo}.csv.gz`));
  const duckIngest1 = workers !== 1 ? await duck(1, 'ingest') : null;
  const duckAgg1 = t1Months > 0 && workers !== 1 ? await duck(1, 'aggregate', firstFiles) : null;

  noteLoad('end');

  // ---------------------------------------------------------------- report
  const ours = cold.parsedRows / cold.ingestSeconds;
  const pairsLine = `The ingest ratio from ${pairs.length} pairs (EVI_BENCH_INGEST_PAIRS=${pairs.length}; the first: the cold build above and DuckDB's same aggregation below it, not adjacent; the others: a cold ingest with a fresh cache, stopped at "Scoring and ranking", then DuckDB's same aggregation right after it): ${pairs.map((p, i) => `${fmt(p.ours)} against ${fmt(p.duck)} rows/s (${ratios[i]!.toFixed(2)}×)`).join('; ')}; median **${medianRatio.toFixed(2)}×**.`;
  const duckAggRate = duckAgg.rows / duckAgg.seconds;
  const duckIngestRate = duckIngest.rows / duckIngest.seconds;
  const GiB = 1024 * 1024;
  // The targets of the performance issue (reference scale): incremental with pages ≤ 12 s and
  // ≤ 1 GiB, cold ≤ 40 s and ≤ 1.5 GiB, ingest ≥ 1.5× DuckDB doing the same checks.
  type Target = { what: string; value: string; met: boolean | null };
  const incPeak = Math.max(...incAll.map((r) => r.m.peakRssKiB));
  const targets: Target[] = [
    ...incrementals.flatMap((r): Target[] =>
      r.pages
        ? [
            { what: `incremental build with pages: wall ≤ 12 s${incAll.length > 1 ? `, the median of ${incAll.length} runs` : ''}`, value: `${secs(r.m.wall)}${incAll.length > 1 ? ` (runs: ${incAll.map((x) => secs(x.m.wall)).join(', ')})` : ''}`, met: r.m.wall <= 12 },
            { what: `incremental build with pages: peak RSS ≤ 1 GiB${incAll.length > 1 ? `, the highest of ${incAll.length} runs` : ''}`, value: mib(incPeak), met: incPeak <= GiB },
          ]
        : [
            { what: 'incremental build, EVI_PAGES=0: wall (no target; the data side alone)', value: secs(r.m.wall), met: null },
            { what: 'incremental build, EVI_PAGES=0: peak RSS (no target)', value: mib(r.m.peakRssKiB), met: null },
          ],
    ),
    ...(steady
      ? [
          {
            what: `incremental build${steady.pages ? ' with pages' : ', EVI_PAGES=0'} in an operator's steady state (the release before the live one removed while it runs): wall ≤ 12 s, one run`,
            value: secs(steady.m.wall),
            met: steady.m.wall <= 12,
          },
          { what: 'the same: peak RSS ≤ 1 GiB', value: mib(steady.m.peakRssKiB), met: steady.m.peakRssKiB <= GiB },
        ]
      : []),
    { what: `cold build${cold.pages ? ' with pages' : ', EVI_PAGES=0'}: wall ≤ 40 s`, value: secs(cold.m.wall), met: cold.m.wall <= 40 },
    { what: `cold build${cold.pages ? ' with pages' : ', EVI_PAGES=0'}: peak RSS ≤ 1.5 GiB`, value: mib(cold.m.peakRssKiB), met: cold.m.peakRssKiB <= 1.5 * GiB },
    pairs.length > 1
      ? {
          what: `cold ingest ≥ 1.5× DuckDB's rows/s doing the same checks (bench/lib/duckdb-aggregate.ts), the median of ${pairs.length} pairs`,
          value: `${medianRatio.toFixed(2)}× (pairs: ${ratios.map((r) => `${r.toFixed(2)}×`).join(', ')})`,
          met: medianRatio >= 1.5,
        }
      : { what: "cold ingest ≥ 1.5× DuckDB's rows/s doing the same checks (bench/lib/duckdb-aggregate.ts)", value: `${(ours / duckAggRate).toFixed(2)}×`, met: ours / duckAggRate >= 1.5 },
    { what: "cold ingest vs DuckDB's plain read (max() of every column, no checks; no target)", value: `${(ours / duckIngestRate).toFixed(2)}×`, met: null },
  ];
  // The wall targets were set on the issue's machine, where DuckDB's same aggregation took
  // ISSUE_DUCKDB_SECONDS; this machine's speed against that one, by the same reference run
  // here, gives what they are on this machine (these machines have measured 2-3 times apart
  // from one session to the next): rows beside the targets, not in their place.
  // With several runs of DuckDB's same aggregation (EVI_BENCH_INGEST_PAIRS), their median: one
  // run alone has been 18% slower than the four after it in the same minutes (13:28 UTC, 2026-11-28).
  const duckSeconds = median(duckAggSeconds);
  const duckWhat = duckAggSeconds.length > 1 ? `the median of its ${duckAggSeconds.length} runs in this run, ${secs(duckSeconds)} (${duckAggSeconds.map((x) => secs(x)).join(', ')})` : `${secs(duckSeconds)} in this run`;
  const speed = duckSeconds / ISSUE_DUCKDB_SECONDS;
  const scaled = (r: BuildRun, target: number, what: string): Target => ({
    what: `${what}: wall ≤ ${target} s at the issue's machine speed, ${secs(target * speed)} here (DuckDB's same aggregation: ${duckWhat}; ${ISSUE_DUCKDB_SECONDS} s in the issue's)`,
    value: secs(r.m.wall),
    met: r.m.wall <= target * speed,
  });
  const pagesRun = incrementals.find((r) => r.pages);
  if (pagesRun) targets.push(scaled(pagesRun, 12, 'incremental build with pages'));
  if (steady?.pages) targets.push(scaled(steady, 12, "incremental build with pages in an operator's steady state"));
  targets.push(scaled(cold, 40, `cold build${cold.pages ? ' with pages' : ', EVI_PAGES=0'}`));

  const runName = (r: BuildRun) => `${r.label}${r.pages ? ' with pages' : ', EVI_PAGES=0'}`;
  const phaseCell = (r: BuildRun) => r.phases.map((p) => `${p.name} ${secs(p.seconds)}`).join(', ');
  const peakCell = (r: BuildRun) =>
    [...r.m.phasePeaks]
      .filter(([n]) => n !== 'done')
      .map(([n, k]) => `${n} ${mib(k)}`)
      .join(', ');
  const cpuCell = (m: Measured) => (m.userCpu === null ? '–' : `${fmt(m.userCpu + (m.sysCpu ?? 0))} s CPU (${fmt((100 * (m.userCpu + (m.sysCpu ?? 0))) / m.wall)}%)`);
  const date = started.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const gitEnd = gitState();
  // Which commits moved under the run, and whether any of them touched the code measured (tests aside).
  const codeChanges = (() => {
    if (gitEnd.head === gitStart.head) return [];
    try {
      const out = execFileSync('git', ['diff', '--name-only', gitStart.head, gitEnd.head, '--', 'src', 'scripts', 'bench/lib', 'package.json', 'astro.config.mjs'], { cwd: repo, encoding: 'utf8' });
      return out.split('\n').filter((f) => f && !/\.test\.ts$/.test(f));
    } catch {
      return ['?'];
    }
  })();
  const code =
    `commit ${gitStart.head}${gitStart.dirty ? ' with uncommitted changes under src/ or scripts/' : ''}` +
    (gitEnd.head !== gitStart.head
      ? codeChanges.length
        ? ` (**the code changed during the run**: ${gitEnd.head} at the end changes ${codeChanges.slice(0, 5).join(', ')}${codeChanges.length > 5 ? ', …' : ''})`
        : ` (HEAD moved to ${gitEnd.head} during the run: tests only, not the code measured)`
      : '') +
    (gitEnd.dirty && !gitStart.dirty ? ' (uncommitted changes under src/ or scripts/ appeared during the run)' : '');
  // The builds themselves load every core: more than that means other jobs ran beside them.
  const busy = Math.max(...loads.map((l) => Number(l.load.split(' ')[0]))) > Number(machine.nproc) + 0.5;
  const md: string[] = [
    '## Build (bench:build)',
    '',
    `Command: \`npm run bench:build\` (\`tsx bench/build.ts\`; \`EVI_BENCH_DATA=DIR\` keeps and reuses the generated data). Run ${date}, ${code}.`,
    '',
    `Machine: ${machine.nproc} CPUs (\`nproc\`), ${machine.cpu}, ${machine.ramGiB.toFixed(1)} GiB RAM, Node ${machine.node}. ${busy ? 'The 1-minute load went above the CPU count during the runs: a build keeps two or three threads busy itself, and other jobs, if any ran, are not told apart from them; ' : 'Nothing else ran on the machine during the run (the load below is the builds\' own); '}load average (1/5/15 min) ${loads[0]!.load} at the start, ${loads[loads.length - 1]!.load} at the end; the table gives the mean 1-minute load during each run.${busy ? ' With a load above the CPU count, a wall time includes time spent waiting for a core.' : ''}`,
    '',
    `Data: \`scripts/lib/mentions-gen.ts\` at the reference preset's parameters (${fmt(params.companies)} companies, 32 industries × 23 countries, ${fmt(params.rowsPerMonth)} rows/month, seed ${params.seed}), generated for ${params.months + 1} months from ${params.firstMonth}: the cold build reads the first ${params.months} (${data.coldMonths[0]}…${data.coldMonths[data.coldMonths.length - 1]}, ${fmt(cold.rowsTotal)} rows, ${fmt(data.coldBytes / 2 ** 20, 1)} MiB of .csv.gz), the incremental build adds ${data.nextMonth}, from the cold build's cache and output: ${incAll.length > 1 ? `the one with pages ${incAll.length} times (EVI_BENCH_INC_RUNS), the first from the cold build's own, the others each from a hard-linked snapshot of both, taken before the first; the table gives the run of the median wall` : 'the one with pages once (EVI_BENCH_INC_RUNS=1)'}; the one with EVI_PAGES=0 from another snapshot of the cache, into a new output${steady ? `; the steady state (an operator's second month and after) from another snapshot of both, with a release behind the live one for the build to remove: ${fmt(steady.older.files)} files, the ${fmt(steady.older.own)} that the first incremental run rewrote with inodes of their own, the others links shared with the live release` : ''}. Generation: ${secs(data.generationSeconds)}${data.reused ? ' (an earlier run; reused)' : ''}. Builds run as \`node ${BUILD_NODE_ARGS.join(' ')}\` child processes (as \`npm run build\`) with ${workers} parser workers (the default min(cores, 4)), SOURCE_DATE_EPOCH set, each started after \`sync\` (the disk's write-back of the run before done, as before an operator's monthly build); peak RSS from \`${cold.m.rssSource}\` (worker threads included), rows/s = rows parsed / ingest phase (from "Reading" to "Scoring and ranking" in the build's log: hashing, parsing, cache writes).`,
    '',
    '| run | wall | peak RSS | ingest | written | CPU | load |',
    '|---|---|---|---|---|---|---|',
    ...[...(killedPages ? [killedPages] : []), cold, ...incrementals, ...(steady ? [steady] : []), ...(one ? [one] : [])].map(
      (r) =>
        `| ${runName(r).replace(r.label, `${r.label} build`)}${r.pagesKilled ? ' (**stopped**: pages over the limit)' : ''}${r.pagesFailed ? ` (**failed in the pages step**: ${r.pagesFailed.replace(/\|/g, '\\|')})` : ''} | ${secs(r.m.wall)} | ${mib(r.m.peakRssKiB)} | ${fmt(r.parsedRows)} rows (${r.parsedMonths} month${r.parsedMonths === 1 ? '' : 's'}${r.cacheHits ? `, ${r.cacheHits} from the cache` : ''}) in ${secs(r.ingestSeconds)}: **${fmt(r.parsedRows / r.ingestSeconds)} rows/s** | ${r.pagesKilled || r.pagesFailed ? '–' : `${fmt(r.files)} files, ${fmt(r.bytes / 2 ** 20, 1)} MiB`} | ${cpuCell(r.m)} | ${r.load.toFixed(1)} |`,
    ),
    ...[
      [duckAgg, `DuckDB, same aggregation, ${duckAgg.threads} threads`, true],
      [duckIngest, `DuckDB, parsing only (max() of every column), ${duckIngest.threads} threads`, true],
      [duckAgg1, `DuckDB, same aggregation, 1 thread, first ${duckAgg1?.files} months`, false],
      [duckIngest1, 'DuckDB, parsing only, 1 thread', false],
    ]
      .filter((x): x is [Duck, string, boolean] => x[0] !== null)
      .map(([d, label, bold]) => {
        const rate = `${fmt(d.rows / d.seconds)} rows/s`;
        return `| ${label} | ${secs(d.m.wall)} (SQL ${secs(d.seconds)}) | ${mib(d.m.peakRssKiB)} | ${fmt(d.rows)} rows (${d.files} months): ${bold ? `**${rate}**` : rate} | – | ${cpuCell(d.m)} | ${d.load.toFixed(1)} |`;
      }),
    '',
    ...(incAll.length > 1
      ? [
          `The ${incAll.length} runs of the incremental build${incAll[0]!.pages ? ' with pages' : ', EVI_PAGES=0'}, in the order run: ${incAll.map((r) => `${secs(r.m.wall)}, ${mib(r.m.peakRssKiB)}, ${cpuCell(r.m)}, load ${r.load.toFixed(1)}`).join('; ')}. Median wall **${secs(incrementals[0]!.m.wall)}**, highest peak RSS ${mib(incPeak)}.`,
          '',
        ]
      : []),
    ...(pairs.length > 1 ? [pairsLine, ''] : []),
    `Ingest ratio, ours / DuckDB (${workers} workers vs ${workers} threads): **${(ours / duckAggRate).toFixed(2)}×** against DuckDB doing the same aggregation, ${(ours / duckIngestRate).toFixed(2)}× against DuckDB only parsing.${one && duckAgg1 ? ` One thread each (first ${duckAgg1.files} months): ${(one.parsedRows / one.ingestSeconds / (duckAgg1.rows / duckAgg1.seconds)).toFixed(2)}× (same aggregation)${duckIngest1 ? `, ${(one.parsedRows / one.ingestSeconds / (duckIngest1.rows / duckIngest1.seconds)).toFixed(2)}× (parsing only)` : ''}.` : ''}`,
    '',
    'Phases (from the build log): ' + [cold, ...incrementals].map((r) => `${runName(r)}: ${phaseCell(r)}`).join('; ') + '.',
    '',
    'Peak RSS by phase (VmRSS sampled every 200 ms): ' + [cold, ...incrementals].map((r) => `${runName(r)}: ${peakCell(r)}`).join('; ') + '.',
    '',
    `DuckDB's same aggregation (\`bench/lib/duckdb-aggregate.ts\`, ${duckAgg.files} files, ${2 * workers} at a time so that its memory stays bounded): country/industry spellings resolved through the registry's codes, names, aliases and slugs; empty fields, dates and unknown values counted; every answer's rows checked to agree; per (month, industry, country) the distinct (scored model, theme) pairs and scored answers; per (month, industry, country, folded company name) the distinct answers naming it; research-model counts; latest dates. Its row counts match the build's (${fmt(duckAgg.scoredRows as number)} scored, ${fmt(duckAgg.researchRows as number)} research, ${fmt(duckAgg.contexts as number)} contexts). Time by step: ${Object.entries(duckAgg.timings).map(([k, v]) => `${k} ${secs(v)}`).join(', ')}.`,
    '',
    '| target | measured | met |',
    '|---|---|---|',
    ...targets.map((t) => `| ${t.what} | ${t.value} | ${t.met === null ? '–' : t.met ? 'yes' : '**no**'} |`),
    '',
  ];
  // The ingest comparison alone (EVI_BENCH_ONLY=ingest): its own section.
  const ingestMd: string[] = [
    '## Build: ingest',
    '',
    `Command: \`EVI_BENCH_ONLY=ingest npm run bench:build\` (\`EVI_BENCH_DATA=DIR\` keeps and reuses the generated data). Run ${date}, ${code}. Machine: ${machine.nproc} CPUs, ${machine.cpu}, Node ${machine.node}, **shared**: load average (1/5/15 min) ${loads[0]!.load} at the start, ${loads[loads.length - 1]!.load} at the end; the table gives the mean 1-minute load during each run. Our builds run as \`node ${BUILD_NODE_ARGS.join(' ')}\` (EVI_PAGES=0, SOURCE_DATE_EPOCH set, each started after \`sync\`), stopped once their log reaches "Scoring and ranking"; rows/s = rows parsed / the ingest phase ("Reading" to "Scoring and ranking": hashing, parsing, cache writes). DuckDB: \`node --import tsx bench/lib/duckdb-aggregate.ts DATA_DIR THREADS aggregate|ingest BATCH [FILES]\`, rows/s over its SQL time.`,
    '',
    '| run | rows | seconds | rows/s | load |',
    '|---|---|---|---|---|',
    `| ours, cold build, ${workers} parser workers, ${cold.parsedMonths} months | ${fmt(cold.parsedRows)} | ${secs(cold.ingestSeconds)} | **${fmt(ours)}** | ${cold.load.toFixed(1)} |`,
    `| DuckDB, same checks and aggregation, ${duckAgg.threads} threads | ${fmt(duckAgg.rows)} | ${secs(duckAgg.seconds)} | **${fmt(duckAggRate)}** | ${duckAgg.load.toFixed(1)} |`,
    `| DuckDB, plain read (max() of every column), ${duckIngest.threads} threads | ${fmt(duckIngest.rows)} | ${secs(duckIngest.seconds)} | ${fmt(duckIngestRate)} | ${duckIngest.load.toFixed(1)} |`,
    ...(one ? [`| ours, 1 worker (in-process), no cache, ${one.parsedMonths} months | ${fmt(one.parsedRows)} | ${secs(one.ingestSeconds)} | **${fmt(one.parsedRows / one.ingestSeconds)}** | ${one.load.toFixed(1)} |`] : []),
    ...(duckAgg1 ? [`| DuckDB, same checks and aggregation, 1 thread, ${duckAgg1.files} months | ${fmt(duckAgg1.rows)} | ${secs(duckAgg1.seconds)} | **${fmt(duckAgg1.rows / duckAgg1.seconds)}** | ${duckAgg1.load.toFixed(1)} |`] : []),
    ...(duckIngest1 ? [`| DuckDB, plain read, 1 thread, ${duckIngest1.files} months | ${fmt(duckIngest1.rows)} | ${secs(duckIngest1.seconds)} | ${fmt(duckIngest1.rows / duckIngest1.seconds)} | ${duckIngest1.load.toFixed(1)} |`] : []),
    '',
    ...(pairs.length > 1 ? [pairsLine, ''] : []),
    `Ours / DuckDB, ${workers} workers vs ${workers} threads: **${(ours / duckAggRate).toFixed(2)}×** DuckDB doing the same checks (target ≥ 1.5×: ${ours / duckAggRate >= 1.5 ? 'met' : '**not met**'}), ${(ours / duckIngestRate).toFixed(2)}× DuckDB's plain read.` +
      (one && duckAgg1 ? ` One thread each: ${(one.parsedRows / one.ingestSeconds / (duckAgg1.rows / duckAgg1.seconds)).toFixed(2)}× (same checks)${duckIngest1 ? `, ${(one.parsedRows / one.ingestSeconds / (duckIngest1.rows / duckIngest1.seconds)).toFixed(2)}× (plain read)` : ''}.` : ''),
    '',
  ];
  const section = (ingestOnly ? ingestMd : md).join('\n');
  console.log('\n' + section);

  if (ingestOnly) say('the ingest comparison alone: docs/performance.md left alone');
  else if (reference || env.EVI_BENCH_WRITE === '1') writeBenchSection('build', docTable());
  else say('not the reference scale: docs/performance.md left alone (EVI_BENCH_WRITE=1 writes it anyway)');

  /** The targets as one table for docs/performance.md; the full report is the one printed above. */
  function docTable(): string {
    const cpu = (m: Measured) => (m.userCpu === null ? '–' : secs(m.userCpu + (m.sysCpu ?? 0)));
    const verdict = (written: boolean, scaledOk: boolean) => (written ? 'yes' : scaledOk ? 'scaled only' : '**no**');
    const row = (what: string, r: BuildRun, peak: number, wallTarget: number | null, peakGiB: number | null) => {
      const target = wallTarget === null ? '–' : `≤ ${wallTarget} s (${secs(wallTarget * speed)} scaled), ≤ ${peakGiB} GiB`;
      const met = wallTarget === null ? '–' : verdict(r.m.wall <= wallTarget && peak <= peakGiB! * GiB, r.m.wall <= wallTarget * speed && peak <= peakGiB! * GiB);
      return `| ${what} | ${secs(r.m.wall)} | ${mib(peak)} | ${cpu(r.m)} | ${target} | ${met} |`;
    };
    const incName = (r: BuildRun) => `monthly build${r.pages ? ' with pages' : ' without pages'}`;
    return [
      '| run | wall | peak RSS | CPU | target | met |',
      '|---|---:|---:|---:|---|---|',
      ...incrementals.map((r) =>
        r.pages && incAll.length > 1 ? row(`${incName(r)} (median of ${incAll.length})`, r, incPeak, 12, 1) : row(incName(r), r, r.m.peakRssKiB, r.pages ? 12 : null, 1),
      ),
      ...(steady ? [row(`${incName(steady)}, steady state`, steady, steady.m.peakRssKiB, steady.pages ? 12 : null, 1)] : []),
      row(`cold build${cold.pages ? ' with pages' : ' without pages'} (${params.months} months)`, cold, cold.m.peakRssKiB, cold.pages ? 40 : null, 1.5),
      `| cold ingest against DuckDB's same aggregation${pairs.length > 1 ? ` (median of ${pairs.length} pairs)` : ''} | ${medianRatio.toFixed(2)}× | – | – | ≥ 1.5× | ${medianRatio >= 1.5 ? 'yes' : '**no**'} |`,
      '',
      `Data: ${fmt(params.companies)} companies, ${params.months} months of ${fmt(params.rowsPerMonth)} rows for the cold build, one more month for the monthly builds. ` +
        `"Scaled": the target at this machine's speed, by DuckDB's same aggregation over the same files (${secs(duckSeconds)} here, ${ISSUE_DUCKDB_SECONDS} s where the targets were set).`,
    ].join('\n');
  }
} finally {
  cleanup();
}
