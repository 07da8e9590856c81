/**
 * Every month's leaderboards and CSV download and every past month's company views
 * (service-spec §4 with `month`). Each is a cached folder entry (caches.ts) linked into the
 * output; what the cache lacks is made by one job per month on the worker pool
 * (month-files.ts). The current month's views are made in write-site.ts and stored here as
 * the next build's past-month entry.
 */
import type { SiteInput } from '../../core/views/build-views.ts';
import type { MetaView } from '../../core/views/layout.ts';
import type { DetailsFile } from './details-file.ts';
import { hasCacheFolder, readCacheFolder, usedCacheFolder, writeCacheFolder } from '../cache/cache-file.ts';
import { boardsEntry, monthViewsEntry, registryHash, type CacheEntryRef } from '../cache/caches.ts';
import type { CsvFacts } from './downloads.ts';
import type { LoadedData } from '../read/load-data.ts';
import { runMonthJob, shareResults, type BoardsInfo, type RecordShards, type MonthContext, type MonthJob, type MonthJobResult, type Target, type Written } from './month-files.ts';
import { rememberDigestOf } from '../release/known-digests.ts';
import { collectGarbage } from '../workers/gc.ts';
import { WorkerPool, defaultWorkers } from '../workers/worker-pool.ts';
import type { JsonWriter } from './write-json.ts';

/** The cache entry of month `i`'s views as a past month, null without a cache. */
function viewsEntry(data: LoadedData, meta: MetaView, cacheDir: string | null, regHash: string, i: number): CacheEntryRef | null {
  const keys = data.contentKey.slice(0, i + 1);
  return cacheDir && keys.every((k) => k !== null)
    ? monthViewsEntry(cacheDir, data.months[i]!.month, { regHash, shards: meta.companyShards, contentKeys: keys as string[] })
    : null;
}

/** The cache entry of month `i`'s leaderboards and CSV, null without a cache. */
function boardsRef(data: LoadedData, cacheDir: string | null, regHash: string, i: number): CacheEntryRef | null {
  const keys = data.contentKey;
  const month = data.months[i]!.month;
  const known = keys[i] && (i === 0 || keys[i - 1]);
  return cacheDir && known ? boardsEntry(cacheDir, month, { regHash, contentKey: keys[i]!, previous: i > 0 ? { month: data.months[i - 1]!.month, contentKey: keys[i - 1]! } : null }) : null;
}

/** A worker's young generation: the jobs allocate many short-lived objects, which a larger one collects less often. */
const YOUNG_GENERATION_MB = 96;
/** A worker's old generation cap: a job holds one month's aggregate, its views' text and the results. */
const WORKER_HEAP_MB = 1536;

export interface MonthsWritten {
  /** Each month's CSV facts, oldest first. */
  csv: CsvFacts[];
  boards: number;
  boardsFromCache: number;
  pastMonths: number;
  viewsFromCache: number;
}

/**
 * Puts every month's leaderboards (under `site`) and every past month's company views (under
 * `views`) into the output; `currentBoards` is called once the current month's leaderboards are in.
 */
export async function writeMonths(opts: {
  data: LoadedData;
  input: SiteInput;
  meta: MetaView;
  site: JsonWriter;
  views: JsonWriter;
  cacheDir: string | null;
  /** Per past month, its packed board details from the scoring, read instead of its aggregate. */
  details?: (DetailsFile | undefined)[];
  workers?: number;
  /**
   * Files of a cache hit not put into the output (by path under the site and size): a past
   * month's, published as packs linked forward. The files of a month made again are all put.
   */
  leaveOut?: (path: string, bytes: number) => boolean;
  currentBoards?: () => void;
  /** Called once the jobs are known: how many, and the worker threads they run on (0: this thread). */
  planned?: (jobs: number, threads: number) => void;
  log: (line: string) => void;
}): Promise<MonthsWritten> {
  const { data, input, meta, site, views, cacheDir, log } = opts;
  const kept = (prefix: string) => (f: { path: string; bytes: number }) => !opts.leaveOut?.(prefix + f.path, f.bytes);
  const n = input.results.length;
  const regHash = cacheDir ? registryHash(data.registry) : '';
  const boardsInfo: (BoardsInfo | null)[] = Array.from({ length: n }, () => null);
  const links: (() => void)[] = [];
  const boardJobs: { job: MonthJob; made: { boards?: CacheEntryRef | null; views?: CacheEntryRef | null } }[] = [];
  const viewJobs: typeof boardJobs = [];
  let boardsFromCache = 0;
  let viewsFromCache = 0;
  const target = (ref: CacheEntryRef | null, root: JsonWriter): Target => (ref ? { cache: ref } : { out: root.root });
  for (let i = 0; i < n; i++) {
    const bRef = boardsRef(data, cacheDir, regHash, i);
    const bCached = bRef ? await readCacheFolder(bRef.path, bRef.key, log) : null;
    if (bCached) {
      boardsFromCache++;
      boardsInfo[i] = bCached.info as BoardsInfo;
      links.push(() => bCached.files.filter(kept('')).forEach((f) => site.linkFrom(f.path, f.file, f.bytes)));
    } else boardJobs.push({ job: { i, boards: target(bRef, site) }, made: { boards: bRef } });
    if (i < n - 1) {
      const vRef = viewsEntry(data, meta, cacheDir, regHash, i);
      const vCached = vRef ? await readCacheFolder(vRef.path, vRef.key, log) : null;
      if (vCached) {
        viewsFromCache++;
        links.push(() => vCached.files.filter(kept('views/')).forEach((f) => views.linkFrom(f.path, f.file, f.bytes)));
      } else {
        const details = opts.details?.[i];
        const source = details ? { scored: { result: input.results[i]!, details } } : { aggregate: data.aggregateSource(i) };
        viewJobs.push({ job: { i, views: { ...target(vRef, views), ...source } }, made: { views: vRef } });
      }
    }
  }
  // Leaderboards first, newest first (the static answers read the current one); then the
  // views, oldest first, so that each thread extends its last records' histories (HistoryLists).
  const all = [...boardJobs.reverse(), ...viewJobs];
  const jobs = all.map((j) => j.job);
  const targets = all.map((j) => j.made);

  const results: MonthJobResult[] = [];
  const place = (j: number) => {
    const job = jobs[j]!;
    const r = results[j]!;
    const t = targets[j]!;
    if (r.boards) {
      boardsInfo[job.i] = r.boards.info;
      placeFiles(site, t.boards ?? null, r.boards.files);
      if (job.i === n - 1) opts.currentBoards?.();
    }
    if (r.views) placeFiles(views, t.views ?? null, r.views.files);
  };
  const order = jobs.map((_, j) => j);
  const ctx: MonthContext = { input, meta };
  const size = Math.min(jobs.length, opts.workers ?? defaultWorkers());
  opts.planned?.(jobs.length, size > 1 ? size : 0);
  // The workers' heaps come on top of this one's: their copies of the results share the
  // arrays, and the current views' garbage is collected now. Not when the single job runs on
  // this thread: the page workers wait for it.
  if (size > 1) {
    shareResults(input.results);
    collectGarbage();
  }
  const pool = size > 1 ? new WorkerPool<MonthJob, MonthJobResult>(size, WORKER_HEAP_MB, './month-worker.ts', { workerData: ctx, youngGenerationMb: YOUNG_GENERATION_MB }) : null;
  try {
    const running = pool ? Promise.all(order.map(async (j) => place(((results[j] = await pool.run(jobs[j]!)), j)))) : null;
    for (const link of links) link();
    if (boardsInfo[n - 1]) opts.currentBoards?.();
    if (running) await running;
    else for (const j of order) place(((results[j] = await runMonthJob(ctx, jobs[j]!, log)), j));
  } finally {
    await pool?.close();
  }
  return {
    csv: boardsInfo.map((b) => ({ rows: b!.rows, bytes: b!.bytes, sha256: b!.sha256 })),
    boards: boardsInfo.reduce((s, b) => s + b!.boards, 0),
    boardsFromCache,
    pastMonths: n - 1,
    viewsFromCache,
  };
}

/** A job's files: linked from the cache entry they were written to, or just counted. */
function placeFiles(out: JsonWriter, ref: CacheEntryRef | null, files: Written['files']): void {
  if (ref) usedCacheFolder(ref.path);
  for (const { path, bytes, sha256, stat } of files) {
    if (!ref) out.count(bytes);
    else {
      out.linkFrom(path, `${ref.path}/${path}`, bytes);
      if (sha256 && stat) rememberDigestOf(stat, sha256);
    }
  }
}

/**
 * The entry under which the current month's views are stored for the next build, which links
 * them instead of scoring this month again. Null without a cache or when it is there already.
 */
export async function currentMonthViewsEntry(opts: { data: LoadedData; meta: MetaView; cacheDir: string | null }): Promise<CacheEntryRef | null> {
  const { data, meta, cacheDir } = opts;
  const ref = viewsEntry(data, meta, cacheDir, cacheDir ? registryHash(data.registry) : '', data.months.length - 1);
  return ref && !(await hasCacheFolder(ref.path, ref.key)) ? ref : null;
}

/** Stores the current month's views as a past month's entry. */
export async function storeCurrentMonthViews(ref: CacheEntryRef, files: RecordShards): Promise<void> {
  await writeCacheFolder(ref.path, ref.key, files.files());
}
