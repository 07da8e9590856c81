/**
 * `npm run build`: data folder -> a complete `dist/`, or nothing at all. The steps, each
 * in its own module: read (load-data.ts: registry, months through the parse cache and the
 * worker pool), score (score-months.ts) into the report (report.ts), the publish gate
 * (gate.ts) and the ledger (ledger.ts), the JSON tree (write-site.ts), the pages
 * (build-pages.ts), then the swap (stage.ts, release.ts). Everything is written into a
 * stage folder beside the output; only a finished build replaces the output
 * (data-and-rules §1.5).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { universes, type MonthResult, type PackedDetails } from '../core/score.ts';
import type { Registry } from '../core/registry.ts';
import { metaView, METHODOLOGY_VERSION, searchDocs, type SiteInput } from '../core/views/build-views.ts';
import { buildSearchFiles, type SearchFiles } from '../core/search/index.ts';
import { apiDescriptionFor } from '../api/endpoints.ts';
import { DEFAULT_DEPLOY, type DeployTarget } from '../core/policy.ts';
import { loadData } from './load-data.ts';
import { scoreMonths } from './score-months.ts';
import { publishGate } from './gate.ts';
import { checkLedger, checkPublishedFiles, writeLedger } from './ledger.ts';
import { checkNotOlder, lockOutput } from './output-lock.ts';
import type { MonthRecord } from '../core/ledger.ts';
import { loadDataset } from './downloads.ts';
import type { ReleaseStep } from './release.ts';
import { ReportBuilder, reportPath, type BuildResult } from './report.ts';
import { collectGarbage } from './gc.ts';
import { Stage } from './stage.ts';
import { writeSite } from './write-site.ts';
import { JsonWriter } from './write-json.ts';

export type { BuildReport, BuildResult } from './report.ts';

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
  /** Replace a live release of a later month (EVI_ALLOW_OLDER_MONTH=1); otherwise such a build stops. */
  allowOlder?: boolean;
  /** Called between the steps of the release swap (tests inject crashes there). */
  releaseStep?: (step: ReleaseStep) => void;
}

/**
 * The slugs of the companies on any overall leaderboard of a month (the changelog's added
 * and removed lists, which only ask `has` and sort): marked by index, then named once
 * each, instead of a slug per board entry into the set (~10 ms a month at reference scale).
 */
function rankedSlugs(reg: Registry, r: MonthResult): Set<string> {
  const seen = new Uint8Array(reg.companies.length);
  for (const o of r.overall.values()) for (let p = 0; p < o.order.length; p++) seen[o.order[p]!] = 1;
  const out = new Set<string>();
  for (let idx = 0; idx < seen.length; idx++) if (seen[idx]) out.add(reg.companies[idx]!.slug);
  return out;
}

export async function runBuild(opts: BuildOptions): Promise<BuildResult> {
  const outDir = resolve(opts.outDir);
  // One build at a time per output, from before the stage opens until the ledger is written.
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
  // The pages step opens at once: on a cache hit of the compiled pages their files are
  // restored while the months are read (build-pages.ts).
  const opening = opts.pages !== false ? import('./build-pages.ts').then(({ openPages }) => openPages({ root: opts.root, outDir: stage.site, viewsDir: join(stage.json, 'views'), jsonDir: stage.json, siteUrl: opts.siteUrl, cacheDir: opts.cacheDir, log })) : null;
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
  // The past months' board details, packed by the scoring for their records jobs (none from the cache).
  const details: (PackedDetails | undefined)[] = [];
  // Made as each month comes (the cached months' while the new month is parsed): its ledger digests and ranked slugs.
  const records: MonthRecord[] = [];
  const ranked = new Map<string, Set<string>>();
  /** The search index's files, made while the newest month is read (below; with one month, before the views step). */
  let search: SearchFiles | undefined;

  // At most one month parsed (an operator's monthly build, whose month jobs are the new
  // month's leaderboards, on this thread): the page worker thread starts and loads the
  // compiled pages (~1 s of CPU at reference scale) once the past months are scored, while
  // this thread waits for the new month's parse on its worker (or scores it), instead of
  // beside the current company views. Not in a cold build, where its memory would add up
  // with the month jobs'.
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
      details.push(packed);
      if (cached) scoredFromCache++;
      builder.add(result, stats);
      records.push(record);
      ranked.set(result.month, rankedSlugs(reg, result));
      if (results.length === data.months.length - 1) {
        prepareEarly();
        // The search index reads the registry only: made now, while the newest month is
        // still parsed on its worker (a monthly build's thread waits for it here), not on
        // the views step's path to the pages; after one turn of the microtasks, in which the
        // page worker thread starts when the pages step is open (prepareEarly).
        await null;
        search = buildSearchFiles(searchDocs(reg));
        log('  the search index made, before the newest month is scored');
      }
    }
    log(`Scored ${results.length} months (${scoredFromCache} from the cache)`);
    const lastUpdated = builder.finish(opts.sourceDateEpoch);

    checkNotOlder(outDir, report.dataset.currentMonth, opts.allowOlder ?? false);
    const release = await publishGate(opts.dataDir, builder.facts, log);
    const plan = await checkLedger({
      dataDir: opts.dataDir,
      registry: reg,
      results,
      // The current month is published today; a past month recorded for the first time
      // (a ledger started late) gets the last day its data was collected.
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
    // The page worker thread started above once the past months were scored (a one-month
    // data folder has none: it starts now, beside the current views).
    if (pages?.hit && monthly) pages.prepare();
    // On a cache hit of the compiled pages the page worker starts on the profiles once
    // their views are written, and takes the leaderboards once the new month's are.
    let started = false;
    const pagesMayStart = (what: 'profiles' | 'all') => {
      if (!pages?.hit) return;
      if (!started) log(`Page workers started beside the views step${what === 'profiles' ? ' (the profiles; the leaderboards once written)' : ''}`);
      else if (what === 'all') log('  the leaderboards handed to the page workers');
      started = true;
      if (what === 'profiles') pages.companiesReady();
      else pages.viewsReady();
    };
    // A monthly build (every month but the newest from the cache): the profiles are handed
    // to the page worker batch by batch as their views are written, beside this thread's
    // current views (the other core is otherwise busy only with the file writes and the
    // profiles' compression). Not in a cold build, where the month jobs' memory would add
    // up with a page worker's.
    const companiesWritten = (slugs: string[]) => {
      if (!started) log('Page workers started beside the current company views (the profiles as their views are written)');
      started = true;
      pages!.companiesWritten(slugs);
    };
    // Without the compiled pages in the cache, Astro compiles them (on a thread of its own)
    // once what the pages without parameters read is written (`staticsReady`), beside the
    // rest of the views step.
    const hooks = pages ? { companiesReady: () => pagesMayStart('profiles'), viewsReady: () => pagesMayStart('all'), ...(pages.hit ? {} : { staticsReady: () => pages.compileEarly() }), ...(pages.hit && monthly ? { companiesWritten } : {}) } : {};
    report.output = await writeSite(stage.json, { data, input, meta, ledger, ranked, search: search ?? buildSearchFiles(searchDocs(reg)), dataset: input.dataset!, cacheDir: opts.cacheDir, details, workers: opts.workers, ...hooks, log });
    // Everything the pages need is on disk now: let the month results go before the pages
    // are rendered (and compiled, when the compile did not start beside the views step).
    results.length = 0;
    details.length = 0;

    if (pages) {
      // On a cache hit a page worker renders already (beside the views step's tail), else
      // the page workers render once Astro's compile (on its own thread) has answered;
      // either way this thread's heap, at its largest after the views step and now mostly
      // garbage, is collected at once before the page workers' heaps grow, instead of whenever
      // V8's growth heuristics (set by that largest heap) call for it: so that the heaps'
      // peaks do not add up (a cold reference build's pages phase: BENCHMARKS).
      collectGarbage();
      log('Building pages');
      const written = await pages.finish();
      report.output.files += written.files;
      report.output.bytes += written.bytes;
    } else await stage.jsonIsSite();

    // Every byte each past month publishes, against the ledger, before anything goes live.
    const recorded = checkPublishedFiles(plan, { site: stage.site, live: existsSync(join(outDir, 'views')) ? outDir : null, months, companyShards: meta.companyShards, origin: meta.siteUrl, log });
    log('Publishing the release');
    // The swap: one rename of a symbolic link, once the new build is complete.
    await stage.publish(opts.releaseStep);
    // The ledger only with a release that went live.
    await writeLedger(opts.dataDir, plan.before, recorded, log);
    new JsonWriter(dirname(outDir)).write(basename(reportPath(outDir)), report);
  } catch (e) {
    await fail(e);
  }
  return { report, seconds: (performance.now() - t0) / 1000, cacheHits: data.cacheHits };
}
