/**
 * The JSON tree of a release, written into the stage: every month's leaderboards and
 * downloads, the company views, meta, changelog and feed, search index, static answers,
 * OpenAPI and host files.
 */
import { join } from 'node:path';
import { searchRankingOf, type SiteInput } from '../../core/views/build-views.ts';
import { companyRecords, identityOf, shapeSite, shapeView } from '../../core/views/companies.ts';
import { viewPaths, type MetaView, type SearchRankingsView } from '../../core/views/layout.ts';
import { atomFeed, changelogBody } from '../../core/views/changelog.ts';
import type { Ledger } from '../../core/schemas/ledger.ts';
import type { DetailsFile } from './details-file.ts';
import type { Dataset } from '../../core/schemas/dataset.ts';
import type { SearchFiles } from '../../core/search/index.ts';
import { encodeSearchRankings } from '../../core/search/rankings.ts';
import { siteUrls } from '../../core/urls.ts';
import { ProfilesGzip, writeDatasetManifest, writeMonthDownloads, type MonthManifest } from './downloads.ts';
import { collectGarbage } from '../workers/gc.ts';
import { currentMonthViewsEntry, storeCurrentMonthViews, writeMonths } from './write-months.ts';
import { RecordShards } from './month-files.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { hostFiles } from './host-config.ts';
import type { LoadedData } from '../read/load-data.ts';
import { CurrentCompanyFiles, writeStaticFiles } from './static-files.ts';
import { FileQueue } from '../workers/file-queue.ts';
import { JsonWriter } from './write-json.ts';

/**
 * The current company views go to the page workers in about COMPANY_BATCHES batches (each costs
 * a listing and a render setup per share); the first is a small one so they start early.
 */
const COMPANY_BATCHES = 10;
const COMPANY_BATCH_MIN = 200;
/** While handing batches over, the views loop yields to the event loop every this many companies. */
const YIELD_EVERY = 50;

export interface SiteParts {
  data: LoadedData;
  input: SiteInput;
  meta: MetaView;
  ledger: Ledger;
  /** month -> slugs ranked that month (the changelog's counts). */
  ranked: Map<string, Set<string>>;
  dataset: Dataset;
  search: SearchFiles;
  cacheDir: string | null;
  /**
   * Write the static `/api` answers (default). Not for a site that will surely be packed:
   * the packing removes them, as the function answers `/api` there.
   */
  staticAnswers?: boolean;
  /** Files not put into the tree (by path and size): a past month's, published as packs linked forward. */
  leaveOut?: (path: string, bytes: number) => boolean;
  /** Per past month, its packed board details from the scoring (read instead of its aggregate). */
  details?: (DetailsFile | undefined)[];
  /** Worker threads for the month jobs (EVI_WORKERS); default min(cores, 4). */
  workers?: number;
  /** Called once meta.json and the current company views are on disk, when the month jobs run on this thread. */
  companiesReady?: () => void;
  /** Called once meta.json, the current company views and leaderboards are on disk. */
  viewsReady?: () => void;
  /** Called with each batch of slugs once its company views and meta.json are on disk (monthly build). */
  companiesWritten?: (slugs: string[]) => void;
  /** Called once what the routes without parameters read is on disk; past months may still be written. */
  staticsReady?: () => void;
  log: (line: string) => void;
}

/**
 * Writes the JSON tree under `json`; returns the files and bytes written. A worker thread
 * (file-queue.ts) writes while this thread makes the next files.
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

  // The current company views, each written as it is made; only what the rest needs of them is kept.
  const slugs: string[] = [];
  const rankings: SearchRankingsView = { month: meta.month, companies: {} };
  const profiles = new ProfilesGzip();
  const store = await currentMonthViewsEntry({ data: parts.data, meta, cacheDir: parts.cacheDir });
  const { tables, records } = companyRecords(input);
  const site = shapeSite(meta, meta.lastUpdated);
  const asPast = store ? new RecordShards(meta, tables) : null;
  const api = new JsonWriter(json, queue);
  const staticAnswers = parts.staticAnswers !== false;
  const current = new CurrentCompanyFiles(views, staticAnswers ? api : null, meta);
  // meta.json first: the profiles' pages read it.
  views.write('meta.json', meta);
  // With `companiesWritten`: each batch's slugs are handed over once the batch is on disk.
  const batchSize = Math.max(COMPANY_BATCH_MIN, Math.ceil(input.registry.companies.length / COMPANY_BATCHES));
  const handed: Promise<void>[] = [];
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
    for (const line of current.add(v)) profiles.add(line);
    slugs.push(v.slug);
    rankings.companies[v.slug] = searchRankingOf(v);
    if (parts.companiesWritten) {
      if (slugs.length - from >= (from === 0 ? COMPANY_BATCH_MIN : batchSize)) handOver();
      // Yield now and then: the file worker's and page workers' messages wait for this loop.
      if (slugs.length % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await queue.drained();
    await profiles.drained();
  }
  if (parts.companiesWritten) handOver();
  log(`  ${slugs.length.toLocaleString('en-US')} current company views and their static answers`);
  const profilesGz = profiles.finish();
  profilesGz.catch(() => {}); // awaited below
  // The current company views and meta.json on disk before the month jobs are planned.
  await queue.flush();
  await Promise.all(handed);
  // Leaderboards and past months' views on worker threads, started only now so that the
  // two memory peaks do not add up.
  const boardsOut = new JsonWriter(json, queue);
  let currentBoards!: () => void;
  const boardsReady = new Promise<void>((resolve) => (currentBoards = resolve));
  // A single month job on this thread (incremental build): the profiles' pages may start
  // first. Not beside month jobs on worker threads, whose memory would add up.
  const planned = (jobs: number, threads: number) => jobs <= 1 && threads === 0 && parts.companiesReady?.();
  const months = writeMonths({ data: parts.data, input, meta, site: boardsOut, views, cacheDir: parts.cacheDir, details: parts.details, workers: parts.workers, leaveOut: parts.leaveOut, currentBoards, planned, log });
  let monthsDone = false;
  months.then(() => (monthsDone = true), () => {});
  // writeMonths calls currentBoards before it returns; an earlier failure rejects `months`.
  await Promise.race([boardsReady, months]);
  await queue.flush();
  // The page workers start now, unless month jobs still run (cold build): then after them.
  let pagesStarted = false;
  const pagesMayStart = () => {
    if (!pagesStarted) parts.viewsReady?.();
    pagesStarted = true;
  };
  if (monthsDone) pagesMayStart();
  // Next month's past-month entry, stored off the page workers' path to their start.
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

  // Answers for static hosts (read from the views just written), OpenAPI, host files.
  await queue.flush();
  api.writeText('feed.xml', atomFeed(changelog, meta.name, urls));
  api.write('api/v1/openapi.json', openApiDocument(meta));
  if (staticAnswers) await writeStaticFiles(api, json, meta);
  for (const [path, text] of hostFiles(meta)) api.writeText(path, text);
  log(`  static answers, OpenAPI and host files: ${api.files.toLocaleString('en-US')} files`);
  // Most of what this thread made is garbage: collect it now, not through the month jobs' peak.
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
