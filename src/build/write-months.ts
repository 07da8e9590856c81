/**
 * Every month's leaderboards and CSV download (`views/rankings/{month}/…`,
 * `downloads/{month}/leaderboards.csv.gz`) and every past month's company views
 * (`views/months/{month}/…`, service-spec §4 with `month`). Each is a cached folder
 * entry (caches.ts) linked into the output; what the cache lacks is made by one job per
 * month's leaderboards and one per past month's views (month-files.ts) on the worker
 * pool, both cores at once, each job writing its files once (into the cache entry, or
 * into the output without a cache): all the leaderboards first, then the views.
 *
 * A month's leaderboards depend on its own and the previous month's results and the
 * registry; a past month's views (its profiles' records, which the API shapes) on the
 * months up to it and the registry, and on its board details: the ones its scoring packed
 * when it scored the month (score-months.ts), sent with the job, or else the job scores
 * its aggregate again. The current month's views are made in this thread
 * (write-site.ts), and its records stored as that month's past-month entry for the next
 * build (storeCurrentMonthViews).
 */
import type { SiteInput } from '../core/views/build-views.ts';
import type { MetaView } from '../core/views/layout.ts';
import type { PackedDetails } from '../core/score.ts';
import { hasCacheFolder, readCacheFolder, writeCacheFolder } from './cache-file.ts';
import { boardsEntry, monthViewsEntry, registryHash, type CacheEntryRef } from './caches.ts';
import type { CsvFacts } from './downloads.ts';
import type { LoadedData } from './load-data.ts';
import { jobTransfer, runMonthJob, type BoardsInfo, type RecordShards, type MonthContext, type MonthJob, type MonthJobResult, type Target } from './month-files.ts';
import { collectGarbage } from './gc.ts';
import { WorkerPool, defaultWorkers } from './worker-pool.ts';
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

/**
 * A worker's young generation (V8 makes it three semi-spaces): a job allocates a few
 * hundred MB of short-lived objects; with 32 MiB semi-spaces instead of V8's 16 MiB, one
 * reference month's views job took 2.35 s of CPU instead of 3.11 s, for 12 MiB more peak
 * RSS (node --max-semi-space-size, same job, same machine).
 */
const YOUNG_GENERATION_MB = 96;
/** A worker's old generation cap: a job holds one month's aggregate, its views' text and the months' results. */
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
 * Puts every month's leaderboards (under `site`, the site root) and every past month's
 * company views (under `views`) into the output. Returns once all are there; the caller
 * may work meanwhile (the jobs run on worker threads), and on what needs the current
 * month's leaderboards once `currentBoards` is called.
 */
export async function writeMonths(opts: {
  data: LoadedData;
  input: SiteInput;
  meta: MetaView;
  site: JsonWriter;
  views: JsonWriter;
  cacheDir: string | null;
  /** Per past month, its board details when the scoring packed them: its records job reads them instead of its aggregate. */
  details?: (PackedDetails | undefined)[];
  workers?: number;
  /** Called once the current month's leaderboards are in the output. */
  currentBoards?: () => void;
  /** Called once the jobs are known, before any runs: how many, and the worker threads they run on (0: on this thread). */
  planned?: (jobs: number, threads: number) => void;
  log: (line: string) => void;
}): Promise<MonthsWritten> {
  const { data, input, meta, site, views, cacheDir, log } = opts;
  const n = input.results.length;
  const regHash = cacheDir ? registryHash(data.registry) : '';
  const boardsInfo: (BoardsInfo | null)[] = Array.from({ length: n }, () => null);
  const links: (() => void)[] = [];
  // One job per month's leaderboards, one per past month's views (the heavy ones in memory
  // and CPU), each with where its files go.
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
      links.push(() => bCached.files.forEach((f) => site.linkFrom(f.path, f.file, f.bytes)));
    } else boardJobs.push({ job: { i, boards: target(bRef, site) }, made: { boards: bRef } });
    if (i < n - 1) {
      const vRef = viewsEntry(data, meta, cacheDir, regHash, i);
      const vCached = vRef ? await readCacheFolder(vRef.path, vRef.key, log) : null;
      if (vCached) {
        viewsFromCache++;
        links.push(() => vCached.files.forEach((f) => views.linkFrom(f.path, f.file, f.bytes)));
      } else {
        const details = opts.details?.[i];
        const source = details ? { scored: { result: input.results[i]!, details } } : { aggregate: data.aggregateSource(i) };
        viewJobs.push({ job: { i, views: { ...target(vRef, views), ...source } }, made: { views: vRef } });
      }
    }
  }
  // The leaderboards first, newest first: the current month's (which the static answers
  // read) at once, and the light jobs while this thread makes the static answers (its own
  // memory peak); then the views, oldest first: each thread keeps its last records'
  // histories and appends the months since (HistoryLists); the jobs with the
  // longest histories now run last.
  const all = [...boardJobs.reverse(), ...viewJobs];
  const jobs = all.map((j) => j.job);
  const targets = all.map((j) => j.made);

  // A job's files go into the output as soon as it is done.
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
  // The worker threads' heaps come on top of this one's: collected now (the current
  // month's views, made just before, are garbage) instead of whenever V8's growth heuristics
  // call for it. Not when the jobs run on this thread (a monthly build's one job, the new
  // month's leaderboards): no heap comes on top, and the collection (~0.1 s at reference
  // scale) would hold up the job that the page workers wait for.
  if (size > 1) collectGarbage();
  const pool = size > 1 ? new WorkerPool<MonthJob, MonthJobResult>(size, WORKER_HEAP_MB, './month-worker.ts', { workerData: ctx, youngGenerationMb: YOUNG_GENERATION_MB }) : null;
  try {
    const running = pool ? Promise.all(order.map(async (j) => place(((results[j] = await pool.run(jobs[j]!, jobTransfer(jobs[j]!))), j)))) : null;
    // What the cache had is linked while the jobs run.
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

/** A job's files: linked from the cache entry they were written to, or counted where the job wrote them. */
function placeFiles(out: JsonWriter, ref: CacheEntryRef | null, files: { path: string; bytes: number }[]): void {
  for (const { path, bytes } of files) {
    if (ref) out.linkFrom(path, `${ref.path}/${path}`, bytes);
    else out.count(bytes);
  }
}

/**
 * The cache entry under which the current month's views are stored as that month's
 * past-month entry, which the next build (one month more) links instead of scoring this
 * month again: they are the same views, made from the same months, registry and origin.
 * Null when there is no cache or the entry is there already.
 */
export async function currentMonthViewsEntry(opts: { data: LoadedData; meta: MetaView; cacheDir: string | null }): Promise<CacheEntryRef | null> {
  const { data, meta, cacheDir } = opts;
  const ref = viewsEntry(data, meta, cacheDir, cacheDir ? registryHash(data.registry) : '', data.months.length - 1);
  return ref && !(await hasCacheFolder(ref.path, ref.key)) ? ref : null;
}

/** Stores the current month's views (as a past month's, {@link currentMonthViewsEntry}). */
export async function storeCurrentMonthViews(ref: CacheEntryRef, files: RecordShards): Promise<void> {
  await writeCacheFolder(ref.path, ref.key, files.files());
}
