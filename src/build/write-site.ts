/**
 * The JSON tree of a release, written into the stage (README "Output layout"): every
 * month's leaderboards and their downloads, the current company views and every past
 * month's, the meta view, the changelog and feed, the search index, the static default
 * answers, OpenAPI and the host files.
 */
import { join } from 'node:path';
import { searchRankingOf, type SiteInput } from '../core/views/build-views.ts';
import { companyRecords, identityOf, shapeSite, shapeView } from '../core/views/companies.ts';
import { viewPaths, type MetaView, type SearchRankingsView } from '../core/views/layout.ts';
import { atomFeed, changelogBody } from '../core/views/changelog.ts';
import type { Ledger } from '../core/ledger.ts';
import type { PackedDetails } from '../core/score.ts';
import type { Dataset } from '../core/schemas/dataset.ts';
import type { SearchFiles } from '../core/search/index.ts';
import { encodeSearchRankings } from '../core/search/rankings.ts';
import { siteUrls } from '../core/urls.ts';
import { ProfilesGzip, writeDatasetManifest, writeMonthDownloads, type MonthManifest } from './downloads.ts';
import { collectGarbage } from './gc.ts';
import { currentMonthViewsEntry, storeCurrentMonthViews, writeMonths } from './write-months.ts';
import { RecordShards } from './month-files.ts';
import { openApiDocument } from './openapi.ts';
import { hostFiles } from './host-config.ts';
import type { LoadedData } from './load-data.ts';
import { CurrentCompanyFiles, writeStaticFiles } from './static-files.ts';
import { FileQueue } from './file-queue.ts';
import { JsonWriter } from './write-json.ts';

/**
 * The current company views are handed to the page workers (`companiesWritten`) in about
 * this many batches, of at least COMPANY_BATCH_MIN companies (each batch costs the page
 * workers one listing of the views and one page-level render setup per share). The first
 * batch is COMPANY_BATCH_MIN companies: the page worker, loaded and waiting for it while
 * the other core is idle, starts ~0.25 s sooner at reference scale than on a tenth.
 */
const COMPANY_BATCHES = 10;
const COMPANY_BATCH_MIN = 200;
/** While handing batches over, the views loop gives the event loop a turn every this many companies. */
const YIELD_EVERY = 50;

export interface SiteParts {
  data: LoadedData;
  input: SiteInput;
  meta: MetaView;
  ledger: Ledger;
  /** month -> slugs ranked that month (the changelog's counts). */
  ranked: Map<string, Set<string>>;
  dataset: Dataset;
  /** The search index's files (made from `input.registry` by the caller, while the newest month is read). */
  search: SearchFiles;
  cacheDir: string | null;
  /** Per past month, its board details when the scoring packed them (score-months.ts): what its records job reads instead of its aggregate. */
  details?: (PackedDetails | undefined)[];
  /** Worker threads for the month jobs (EVI_WORKERS); default min(cores, 4). */
  workers?: number;
  /**
   * Called once meta.json and the current month's company views are on disk (what the
   * profiles read), when the month jobs do not run on worker threads (an incremental
   * build: the new month's leaderboards job runs on this thread).
   */
  companiesReady?: () => void;
  /** Called once meta.json, the current month's company views and its leaderboards are on disk (what the page workers read). */
  viewsReady?: () => void;
  /**
   * Called as the current month's company views are written, a batch at a time, with the
   * slugs of each batch once it and meta.json are on disk; every company once, all of them
   * before `companiesReady` (a monthly build: the profiles' pages start beside these views).
   */
  companiesWritten?: (slugs: string[]) => void;
  /**
   * Called once meta.json, the current month's views, leaderboards, changelog, search index
   * and static answers are on disk, while the past months' files may still be written by
   * the month jobs: what the pages' routes without parameters read.
   */
  staticsReady?: () => void;
  log: (line: string) => void;
}

/**
 * Writes the JSON tree under `json`; returns the files and bytes written. The files are
 * written and the cached ones linked on a worker thread (file-queue.ts) while this thread
 * makes the next ones; all are on disk when it returns.
 */
export async function writeSite(json: string, parts: SiteParts): Promise<{ files: number; bytes: number }> {
  const queue = new FileQueue();
  try {
    const written = await writeTree(json, parts, queue);
    await queue.flush();
    return written;
  } finally {
    await queue.close();
  }
}

async function writeTree(json: string, parts: SiteParts, queue: FileQueue): Promise<{ files: number; bytes: number }> {
  const { input, meta, dataset, log } = parts;
  const results = input.results;
  const last = results.length - 1;
  const views = new JsonWriter(join(json, 'views'), queue);
  const downloads = new JsonWriter(json, queue);
  const urls = siteUrls(meta.siteUrl);

  // Company views: the current month's, each written as it is made; what the rest needs
  // of them is kept (slugs, search rankings, the profiles download's lines, their text
  // as next month's past-month entry), not the views themselves.
  const slugs: string[] = [];
  const rankings: SearchRankingsView = { month: meta.month, companies: {} };
  // Compressed on the thread pool as the lines come.
  const profiles = new ProfilesGzip();
  const store = await currentMonthViewsEntry({ data: parts.data, meta, cacheDir: parts.cacheDir });
  // The month's records (each view is shaped from its company's), and next month's
  // past-month entry made of them.
  const { tables, records } = companyRecords(input);
  const site = shapeSite(meta, meta.lastUpdated);
  const asPast = store ? new RecordShards(meta, tables) : null;
  // The static answers: the company family's from each view as it is made, the rest below.
  const api = new JsonWriter(json, queue);
  const current = new CurrentCompanyFiles(views, api, meta);
  // meta.json first: the profiles' pages read it and their company's view.
  views.write('meta.json', meta);
  // With `companiesWritten`: the slugs of each batch handed over once the batch is on disk
  // (the page worker renders their profiles while this thread makes the next views); the
  // first batch a small one.
  const batchSize = Math.max(COMPANY_BATCH_MIN, Math.ceil(input.registry.companies.length / COMPANY_BATCHES));
  const handed: Promise<void>[] = [];
  // The batch is `slugs` from this index on (the views made since the last hand-over).
  let from = 0;
  const handOver = () => {
    if (from === slugs.length) return;
    const batch = slugs.slice(from);
    from = slugs.length;
    const done = queue.written().then(() => parts.companiesWritten!(batch));
    done.catch(() => {}); // a failed write is reported by the flush below
    handed.push(done);
  };
  for (const { company, record } of records) {
    const identity = identityOf(company);
    const v = shapeView(identity, record, tables, site);
    asPast?.add(identity, record);
    // The view, its static answers and its lines of the profiles download.
    for (const line of current.add(v)) profiles.add(line);
    slugs.push(v.slug);
    rankings.companies[v.slug] = searchRankingOf(v);
    if (parts.companiesWritten) {
      if (slugs.length - from >= (from === 0 ? COMPANY_BATCH_MIN : batchSize)) handOver();
      // The event loop's turn now and then (not only when the queue's backlog makes this
      // thread wait): the file worker's answers that resolve `written`, and the page
      // workers' asking for their next share, are messages this loop would hold back.
      if (slugs.length % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await queue.drained();
  }
  if (parts.companiesWritten) handOver();
  log(`  ${slugs.length.toLocaleString('en-US')} current company views and their static answers`);
  const profilesGz = profiles.finish();
  profilesGz.catch(() => {}); // awaited below
  // The current company views and meta.json on disk before the month jobs are planned:
  // the profiles' pages may start then (companiesReady), every batch handed over.
  await queue.flush();
  await Promise.all(handed);
  // Leaderboards of every month (each month's also as one CSV download) and every past
  // month's company views: on the worker threads while this thread writes the rest. Started
  // once the current month's views are written, so that the two memory peaks do not add up.
  const boardsOut = new JsonWriter(json, queue);
  let currentBoards!: () => void;
  const boardsReady = new Promise<void>((resolve) => (currentBoards = resolve));
  // At most one month job, on this thread (an incremental build: the new month's
  // leaderboards): the profiles' page worker starts before it runs. Not beside month jobs
  // on worker threads, nor beside many on this thread (a cold build), whose memory would
  // add up with a page worker's.
  const planned = (jobs: number, threads: number) => jobs <= 1 && threads === 0 && parts.companiesReady?.();
  const months = writeMonths({ data: parts.data, input, meta, site: boardsOut, views, cacheDir: parts.cacheDir, details: parts.details, workers: parts.workers, currentBoards, planned, log });
  // Not awaited yet: a failure is reported by the awaits below.
  let monthsDone = false;
  months.then(() => (monthsDone = true), () => {});
  // (writeMonths calls currentBoards before it returns; a failure before that rejects here.)
  await Promise.race([boardsReady, months]);
  await queue.flush();
  // What the page workers read (meta.json, the current views and leaderboards) is on disk:
  // they start beside the rest of this step, unless month jobs still run on the worker
  // threads (a cold build), whose memory would add up with theirs: then after those.
  let pagesStarted = false;
  const pagesMayStart = () => {
    if (!pagesStarted) parts.viewsReady?.();
    pagesStarted = true;
  };
  if (monthsDone) pagesMayStart();
  // Next month's past-month entry: stored once the page workers may start (not on the
  // path to their start); its bytes (~17 MB at reference scale) let go here.
  if (store && asPast) {
    await storeCurrentMonthViews(store, asPast);
    log(`  ${meta.month}'s views stored in the cache for the next build`);
  }

  const changelog = changelogBody({ ledger: parts.ledger, ranked: parts.ranked, month: meta.month, lastUpdated: meta.lastUpdated, urls });
  views.write(viewPaths.changelog().slice('views/'.length), changelog);
  const { search } = parts;
  views.write('search-index.json', search.json);
  views.writeBytes(viewPaths.searchIndexBinary().slice('views/'.length), search.binary);
  views.write('search-rankings.json', rankings);
  views.writeBytes(viewPaths.searchRankingsBinary().slice('views/'.length), encodeSearchRankings(rankings));
  log('  the changelog and the search index');

  // Answers for static hosts (the handler's own, read from the views just written: the
  // current month's leaderboards among them), OpenAPI, host files.
  await queue.flush();
  api.writeText('feed.xml', atomFeed(changelog, meta.name, urls));
  api.write('api/v1/openapi.json', openApiDocument(meta));
  await writeStaticFiles(api, json, meta);
  for (const [path, text] of hostFiles(meta)) api.writeText(path, text);
  log(`  static answers, OpenAPI and host files: ${api.files.toLocaleString('en-US')} files`);
  // What this thread made until now is garbage but for ~75 MiB (reference scale: ~270 MiB
  // of heap and ~135 MiB of buffers before, ~110 and ~45 after): collected now, while the
  // month jobs (a cold build's views) still run beside, instead of kept through their peak.
  if (!monthsDone) collectGarbage();
  if (parts.staticsReady) {
    await queue.flush();
    parts.staticsReady();
  }
  const done = await months;
  pagesMayStart();
  log(`  ${done.boards.toLocaleString('en-US')} leaderboards and ${results.length} CSV downloads, ${(boardsOut.bytes / 1048576).toFixed(1)} MiB (${done.boardsFromCache} of ${results.length} months from the cache)`);
  log(`  ${done.pastMonths} past months' company views (${done.viewsFromCache} from the cache)`);
  const manifests: MonthManifest[] = [];
  for (let i = 0; i < last; i++) manifests.push(writeMonthDownloads(downloads, { name: meta.name, month: results[i]!.month, leaderboards: done.csv[i]!, profiles: null, dataset, urls }));
  manifests.push(writeMonthDownloads(downloads, { name: meta.name, month: meta.month, leaderboards: done.csv[last]!, profiles: await profilesGz, dataset, urls }));
  writeDatasetManifest(downloads, { name: meta.name, current: meta.month, months: manifests, dataset, urls });
  log(`  downloads: ${downloads.files} files, ${(downloads.bytes / 1048576).toFixed(1)} MiB`);
  const all = [boardsOut, views, downloads, api];
  return { files: all.reduce((n, w) => n + w.files, 0), bytes: all.reduce((n, w) => n + w.bytes, 0) };
}
