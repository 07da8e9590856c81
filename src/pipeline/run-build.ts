/**
 * `npm run build`: data folder -> a complete `dist/`, or nothing at all. Read, score, gate,
 * ledger, JSON tree, pages, then the swap; all into a stage folder beside the output, which
 * only a finished build replaces (data-and-rules §1.5).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { universes, type MonthResult } from '../core/score.ts';
import type { Registry } from '../core/registry.ts';
import { metaView, METHODOLOGY_VERSION, searchDocs, type SiteInput } from '../core/views/build-views.ts';
import { buildSearchFiles, type SearchFiles } from '../core/search/index.ts';
import { apiDescriptionFor } from '../api/endpoints.ts';
import { DEFAULT_DEPLOY, MAX_FILES, type DeployTarget } from '../core/policy.ts';
import { frozenLinks, MAX_FILE_BYTES, packSite, type FrozenLink } from './write/pack-site.ts';
import { packedGroup } from '../core/views/packs.ts';
import { loadData } from './read/load-data.ts';
import { scoreMonths } from './score/score-months.ts';
import { publishGate } from './release/gate.ts';
import { checkLedger, checkPublishedFiles, writeLedger } from './release/ledger.ts';
import { checkNotOlder, lockOutput } from './release/output-lock.ts';
import type { Ledger, MonthRecord } from '../core/schemas/ledger.ts';
import { sha256Hex } from './release/published-files.ts';
import { loadDataset } from './write/downloads.ts';
import type { ReleaseStep } from './release/release.ts';
import { ReportBuilder, reportPath, type BuildResult } from './write/report.ts';
import { collectGarbage } from './workers/gc.ts';
import { recordOwnChanges } from './cache/cache-file.ts';
import { Stage } from './release/stage.ts';
import { writeSite } from './write/write-site.ts';
import { JsonWriter } from './write/write-json.ts';
import { spillDetails, type DetailsFile } from './write/details-file.ts';

export type { BuildReport, BuildResult } from './write/report.ts';

export interface BuildOptions {
  root: string;
  dataDir: string;
  outDir: string;
  /** null disables the incremental cache. */
  cacheDir: string | null;
  siteUrl: string;
  /** Where the output is deployed (EVI_DEPLOY): `static` advertises only what files answer. Default `node`. */
  deploy?: DeployTarget;
  /** Seconds since the epoch (SOURCE_DATE_EPOCH): fixes `lastUpdated`. */
  sourceDateEpoch?: number;
  /** Build the Astro pages too (the docs, profiles and llms.txt). */
  pages?: boolean;
  workers?: number;
  log?: (line: string) => void;
  /** A site for a deployment that runs the function is packed above this many files (EVI_MAX_FILES). */
  maxFiles?: number;
  /** Replace a live release of a later month (EVI_ALLOW_OLDER_MONTH=1); otherwise such a build stops. */
  allowOlder?: boolean;
  /** Called between the steps of the release swap (tests inject crashes there). */
  releaseStep?: (step: ReleaseStep) => void;
}

/** The slugs of the companies on any overall leaderboard of a month (the changelog's added and removed lists). */
function rankedSlugs(reg: Registry, r: MonthResult): Set<string> {
  const seen = new Uint8Array(reg.companies.length);
  for (const o of r.overall.values()) for (let p = 0; p < o.order.length; p++) seen[o.order[p]!] = 1;
  const out = new Set<string>();
  for (let idx = 0; idx < seen.length; idx++) if (seen[idx]) out.add(reg.companies[idx]!.slug);
  return out;
}

/**
 * Each past month's pack groups -> a digest of the ledger's digests of their folders, as this
 * build computed them: the packs of a group whose digest is unchanged are linked forward.
 */
function frozenGroupKeys(ledger: Ledger, past: string[], origin: string): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const entry of ledger.months) {
    if (!entry.files || !past.includes(entry.month)) continue;
    for (const group of [`views/months/${entry.month}`, `views/rankings/${entry.month}`]) {
      const lines = Object.entries(entry.files).filter(([folder]) => folder === group || folder.startsWith(`${group}/`));
      if (lines.length) keys[group] = sha256Hex(JSON.stringify([origin, lines.sort()]));
    }
  }
  return keys;
}

export async function runBuild(opts: BuildOptions): Promise<BuildResult> {
  const outDir = resolve(opts.outDir);
  // One build at a time per output, until the ledger is written.
  const unlock = await lockOutput(outDir);
  try {
    return await buildLocked(opts, outDir);
  } finally {
    await unlock().catch(() => {});
  }
}

async function buildLocked(opts: BuildOptions, outDir: string): Promise<BuildResult> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  // Opened first: the releases behind the live one are removed while the months are read.
  const stage = await Stage.open(outDir);
  // Opened at once: on a cache hit the compiled pages are restored while the months are read.
  const opening = opts.pages !== false ? import('./pages/build-pages.ts').then(({ openPages }) => openPages({ root: opts.root, outDir: stage.site, viewsDir: join(stage.json, 'views'), jsonDir: stage.json, siteUrl: opts.siteUrl, cacheDir: opts.cacheDir, log })) : null;
  opening?.catch(() => {}); // awaited below
  const fail = async (e: unknown): Promise<never> => {
    await opening?.then((p) => p.abort(), () => {});
    await stage.discard();
    throw e;
  };
  log(`Reading ${opts.dataDir}`);
  const data = await loadData({ dataDir: opts.dataDir, cacheDir: opts.cacheDir, root: opts.root, workers: opts.workers, log }).catch(fail);
  const reg = data.registry;
  const pools = universes(reg);
  const builder = new ReportBuilder(reg, data.months.map((m) => m.month));
  const report = builder.report;
  const results: MonthResult[] = [];
  // Past months' board details wait on disk for their views jobs, not all in memory.
  const details: (DetailsFile | undefined)[] = [];
  // Per month as it comes: its ledger digests and ranked slugs.
  const records: MonthRecord[] = [];
  const ranked = new Map<string, Set<string>>();
  let search: SearchFiles | undefined;

  // A monthly build (at most one month parsed) starts the page worker once the past months
  // are scored, while the new month is parsed; not a cold build, whose memory would add up.
  const monthly = data.cacheHits >= data.months.length - 1;
  const prepareEarly = () => {
    opening?.then(
      (p) => {
        if (!monthly || !p.hit) return;
        log('  page worker thread started: loading the compiled pages');
        p.prepare();
      },
      () => {},
    );
  };

  try {
    log('Scoring and ranking');
    let scoredFromCache = 0;
    for await (const { result, stats, cached, record, details: packed } of scoreMonths(data, pools, opts.cacheDir, log, opts.workers)) {
      results.push(result);
      details.push(packed && spillDetails(join(stage.dir, 'details'), result.month, packed));
      if (cached) scoredFromCache++;
      builder.add(result, stats);
      records.push(record);
      ranked.set(result.month, rankedSlugs(reg, result));
      if (results.length === data.months.length - 1) {
        prepareEarly();
        // The search index reads only the registry: made while the newest month is parsed,
        // after one microtask turn so that the page worker starts first.
        await null;
        search = buildSearchFiles(searchDocs(reg));
        log('  the search index made, before the newest month is scored');
      }
    }
    await data.ready;
    log(`Scored ${results.length} months (${scoredFromCache} from the cache)`);
    const lastUpdated = builder.finish(opts.sourceDateEpoch);

    checkNotOlder(outDir, report.dataset.currentMonth, opts.allowOlder ?? false);
    const release = await publishGate(opts.dataDir, builder.facts, log);
    const plan = await checkLedger({
      dataDir: opts.dataDir,
      registry: reg,
      results,
      // A past month recorded for the first time gets the last day its data was collected.
      date: (month) => (month === report.dataset.currentMonth ? lastUpdated : (builder.latestByMonth.get(month) ?? `${month}-01`)),
      methodologyVersion: METHODOLOGY_VERSION,
      previousOut: existsSync(join(outDir, 'views')) ? outDir : null,
      log,
      records,
    });
    const { ledger } = plan;
    const months = results.map((r) => r.month);
    report.gate = release.gate;
    const input: SiteInput = {
      dataset: await loadDataset(opts.dataDir),
      registry: reg,
      results,
      siteUrl: opts.siteUrl,
      lastUpdated,
      themes: report.themes,
      researchModels: Object.keys(report.researchModels),
      release: release.health,
      released: Object.fromEntries(ledger.months.map((e) => [e.month, e.published])),
      corrected: Object.fromEntries(ledger.months.filter((e) => e.corrections.length).map((e) => [e.month, e.corrections[e.corrections.length - 1]!.date])),
    };
    const meta = metaView(input, apiDescriptionFor(opts.deploy ?? DEFAULT_DEPLOY));

    const pages = opening ? await opening : null;
    log('Writing views');
    // A one-month data folder has no past months: the page worker starts now.
    if (pages?.hit && monthly) pages.prepare();
    // On a cache hit the page workers take the profiles, then the leaderboards, once written.
    let started = false;
    const pagesMayStart = (what: 'profiles' | 'all') => {
      if (!pages?.hit) return;
      if (!started) log(`Page workers started beside the views step${what === 'profiles' ? ' (the profiles; the leaderboards once written)' : ''}`);
      else if (what === 'all') log('  the leaderboards handed to the page workers');
      started = true;
      if (what === 'profiles') pages.companiesReady();
      else pages.viewsReady();
    };
    // A monthly build hands the profiles to the page worker batch by batch as written.
    const companiesWritten = (slugs: string[]) => {
      if (!started) log('Page workers started beside the current company views (the profiles as their views are written)');
      started = true;
      pages!.companiesWritten(slugs);
    };
    // On a cache miss Astro compiles the pages once the views they read are written.
    const hooks = pages ? { companiesReady: () => pagesMayStart('profiles'), viewsReady: () => pagesMayStart('all'), ...(pages.hit ? {} : { staticsReady: () => pages.compileEarly() }), ...(pages.hit && monthly ? { companiesWritten } : {}) } : {};
    const deploy = opts.deploy ?? DEFAULT_DEPLOY;
    const maxFiles = opts.maxFiles ?? MAX_FILES;
    const maxFileBytes = deploy === 'worker' || deploy === 'pages' ? MAX_FILE_BYTES : null;
    const live = existsSync(join(outDir, 'views')) ? outDir : null;
    // A view (and a profile page) per company and each month's CSV download and its manifest
    // already pass the limit: the site will be packed.
    const surelyPacked = deploy !== 'static' && reg.companies.length * (pages ? 2 : 1) + 2 * months.length > maxFiles;
    // Its profile pages go into spools, read by the packing: no folder and file per company.
    const spools = surelyPacked && pages ? join(stage.dir, 'spools') : undefined;
    if (spools) pages!.spoolInto(spools, { maxFileBytes });
    // Past months whose packs the live release has for the same files are linked forward; a
    // site surely packed leaves out their files that come from the cache as they were (a month
    // made again is checked against the ledger as ever). Not a month whose files may change now
    // (a correction, or its profiles cut into another number of shards).
    const steady = months.slice(0, -1).filter((m) => !plan.correctedNow.has(m) && !plan.pending.has(m) && ledger.months.find((e) => e.month === m)?.companyShards === meta.companyShards);
    const linked = deploy !== 'static' ? frozenLinks(live, frozenGroupKeys(ledger, steady, meta.siteUrl), { maxFileBytes }) : new Map<string, FrozenLink>();
    const leftOut = new Set<string>();
    // A file is left out where its group's packs are linked: pack-site would put it in them.
    const leaveOut = (path: string, bytes: number) => {
      const group = surelyPacked ? packedGroup(path, bytes, { maxFileBytes }) : null;
      const out = group !== null && linked.has(group);
      if (out) leftOut.add(group);
      return out;
    };
    report.output = await writeSite(stage.json, { data, input, meta, ledger, ranked, staticAnswers: !surelyPacked, leaveOut, search: search ?? buildSearchFiles(searchDocs(reg)), dataset: input.dataset!, cacheDir: opts.cacheDir, details, workers: opts.workers, ...hooks, log });
    // Everything the pages need is on disk: let the month results go before rendering.
    results.length = 0;
    details.length = 0;
    ranked.clear();

    if (pages) {
      // Collect this thread's garbage now, so its peak does not add up with the page workers'.
      collectGarbage();
      log('Building pages');
      const written = await pages.finish();
      report.output.files += written.files;
      report.output.bytes += written.bytes;
    } else await stage.jsonIsSite();

    // Every byte each past month publishes is checked against the ledger before going live.
    const recorded = checkPublishedFiles(plan, { site: stage.site, live, months, companyShards: meta.companyShards, origin: meta.siteUrl, linked: leftOut, log });
    if (deploy !== 'static') {
      const keys = frozenGroupKeys(recorded, months.slice(0, -1), meta.siteUrl);
      report.output.files = packSite(stage.site, { maxFiles, maxFileBytes, keys, linked, spools, log }).files;
    }
    log('Publishing the release');
    await stage.publish(opts.releaseStep);
    // The ledger only with a release that went live.
    await writeLedger(opts.dataDir, plan.before, recorded, log);
    new JsonWriter(dirname(outDir)).write(basename(reportPath(outDir)), report);
  } catch (e) {
    await fail(e);
  }
  // Not recorded: the next build only hashes the cache's files again.
  await recordOwnChanges().catch((e: unknown) => log(`warning: the cache's file identities not recorded: ${(e as Error).message}`));
  return { report, seconds: (performance.now() - t0) / 1000, cacheHits: data.cacheHits };
}
