/**
 * `npm run build`: data folder -> a complete `dist/`, or nothing at all.
 * Everything is written into a stage folder beside the output; only a finished
 * build replaces the output (data-and-rules §1.5).
 */
import { rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { universes, type MonthResult } from '../core/score.ts';
import { compareKeys } from '../core/text.ts';
import { boardViews, companyViews, metaView, searchDocs, searchRankings, type SiteInput } from '../core/views/build-views.ts';
import { viewPaths, type CompanyView } from '../core/views/layout.ts';
import { apiDescriptionFor } from '../api/endpoints.ts';
import { DEFAULT_DEPLOY, type DeployTarget } from '../core/policy.ts';
import { writeStaticFiles } from './static-files.ts';
import { buildSearchIndex } from '../core/search/index.ts';
import { openApiDocument } from './openapi.ts';
import { loadData } from './load-data.ts';
import { scoreMonths } from './score-months.ts';
import { monthFacts, publishGate } from './gate.ts';
import { checkLedger } from './ledger.ts';
import { LeaderboardCsv, loadDataset, writeDatasetManifest, writeMonthDownloads, type MonthManifest } from './downloads.ts';
import { atomFeed, changelogBody } from '../core/views/changelog.ts';
import { siteUrls } from '../core/urls.ts';
import { METHODOLOGY_VERSION } from '../core/views/build-views.ts';
import { existsSync } from 'node:fs';
import type { MonthFacts } from '../core/gate.ts';
import { writeMonthViews } from './month-profiles.ts';
import { hostFiles } from './host-config.ts';
import { moveDir } from './move-dir.ts';
import { publish, removeStaleStages, type ReleaseStep } from './release.ts';
import { JsonWriter } from './write-json.ts';

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
  /** Called between the steps of the release swap (tests inject crashes there). */
  releaseStep?: (step: ReleaseStep) => void;
}

export interface BuildReport {
  dataset: { months: string[]; currentMonth: string; lastUpdated: string; companies: number; industries: number; countries: number };
  rows: { total: number; scored: number; research: number; emptyCompany: number; byMonth: Record<string, number> };
  researchModels: Record<string, number>;
  contexts: { total: number; currentMonth: number };
  themes: string[];
  unresolvedNames: { total: number; distinct: number; top: { name: string; count: number }[] };
  outOfUniverseMentions: number;
  output: { files: number; bytes: number };
  /** The publish gate's findings on the current month, and the accepted reason when there were some. */
  gate?: { findings: string[]; acceptedBecause: string | null };
}

export interface BuildResult {
  report: BuildReport;
  seconds: number;
  cacheHits: number;
}

export async function runBuild(opts: BuildOptions): Promise<BuildResult> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const outDir = resolve(opts.outDir);
  log(`Reading ${opts.dataDir}`);
  const data = await loadData({ dataDir: opts.dataDir, cacheDir: opts.cacheDir, root: opts.root, workers: opts.workers, log });
  const reg = data.registry;
  const pools = universes(reg);

  const stage = join(dirname(outDir), `.${basename(outDir)}.stage-${process.pid}`);
  await removeStaleStages(outDir);
  const json = join(stage, 'json');
  const views = new JsonWriter(join(json, 'views'));
  const last = data.months.length - 1;
  const results: MonthResult[] = [];
  const report: BuildReport = {
    dataset: { months: data.months.map((m) => m.month), currentMonth: data.months[last]!.month, lastUpdated: '', companies: reg.companies.length, industries: reg.industries.length, countries: reg.countries.length },
    rows: { total: 0, scored: 0, research: 0, emptyCompany: 0, byMonth: {} },
    researchModels: {},
    contexts: { total: 0, currentMonth: 0 },
    themes: [],
    unresolvedNames: { total: 0, distinct: 0, top: [] },
    outOfUniverseMentions: 0,
    output: { files: 0, bytes: 0 },
  };
  const unresolved = new Map<string, number>();
  const themes = new Set<string>();
  let latestDate: string | null = null;
  const facts: MonthFacts[] = [];
  const latestByMonth = new Map<string, string>();

  try {
    log('Scoring and ranking');
    let scoredFromCache = 0;
    for await (const { result: r, stats: st, cached } of scoreMonths(data, pools, opts.cacheDir, log)) {
      results.push(r);
      if (cached) scoredFromCache++;
      report.rows.total += st.rows;
      report.rows.scored += st.scoredRows;
      report.rows.research += st.researchRows;
      report.rows.emptyCompany += st.emptyCompanyRows;
      report.rows.byMonth[st.month] = st.rows;
      for (const [m, n] of Object.entries(st.researchModels)) report.researchModels[m] = (report.researchModels[m] ?? 0) + n;
      report.contexts.total += r.boards.size;
      if (results.length === last + 1) {
        report.contexts.currentMonth = r.boards.size;
        latestDate = st.latestDate;
      }
      facts.push(monthFacts(r, st.scoredRows));
      if (st.latestDate) latestByMonth.set(st.month, st.latestDate);
      for (const t of st.themes) themes.add(t);
      for (const [n, c] of r.unresolved) unresolved.set(n, (unresolved.get(n) ?? 0) + c);
      report.outOfUniverseMentions += r.outOfUniverse;
    }
    log(`Scored ${results.length} months (${scoredFromCache} from the cache)`);
    const lastUpdated =
      opts.sourceDateEpoch !== undefined ? new Date(opts.sourceDateEpoch * 1000).toISOString().slice(0, 10) : (latestDate ?? `${report.dataset.currentMonth}-01`);
    report.dataset.lastUpdated = lastUpdated;
    report.themes = [...themes].sort(compareKeys);
    report.researchModels = Object.fromEntries(Object.entries(report.researchModels).sort(([a], [b]) => compareKeys(a, b)));
    const top = [...unresolved].sort((a, b) => b[1] - a[1] || compareKeys(a[0], b[0]));
    report.unresolvedNames = { total: top.reduce((s, [, n]) => s + n, 0), distinct: top.length, top: top.slice(0, 20).map(([name, count]) => ({ name, count })) };

    const release = await publishGate(opts.dataDir, facts, log);
    const { ledger } = await checkLedger({
      dataDir: opts.dataDir,
      registry: reg,
      results,
      // The current month is published today; a past month recorded for the first time
      // (a ledger started late) gets the last day its data was collected.
      date: (month) => (month === report.dataset.currentMonth ? lastUpdated : (latestByMonth.get(month) ?? `${month}-01`)),
      methodologyVersion: METHODOLOGY_VERSION,
      previousOut: existsSync(join(outDir, 'views')) ? outDir : null,
      log,
    });
    const ranked = new Map(results.map((r) => [r.month, new Set([...r.overall.values()].flatMap((o) => [...o.order].map((idx) => reg.companies[idx]!.slug)))]));
    report.gate = release.gate;
    const dataset = await loadDataset(opts.dataDir);
    const input: SiteInput = {
      dataset,
      registry: reg,
      results,
      siteUrl: opts.siteUrl,
      lastUpdated,
      themes: report.themes,
      researchModels: Object.keys(report.researchModels),
      release: release.health,
      released: Object.fromEntries(ledger.months.map((e) => [e.month, e.published])),
    };
    const deploy = opts.deploy ?? DEFAULT_DEPLOY;
    const meta = metaView(input, apiDescriptionFor(deploy));

    log('Writing views');
    const downloads = new JsonWriter(json);
    const urls = siteUrls(opts.siteUrl);
    const manifests: MonthManifest[] = [];
    let currentCsv = new LeaderboardCsv();
    for (let i = 0; i <= last; i++) {
      const csv = new LeaderboardCsv();
      for (const { country, industry, view } of boardViews(input, i)) {
        views.write(viewPaths.board(view.month, country, industry).slice('views/'.length), view);
        csv.add(view);
      }
      if (i < last) manifests.push(writeMonthDownloads(downloads, { name: meta.name, month: results[i]!.month, csv, profiles: null, dataset, urls }));
      else currentCsv = csv;
    }
    log(`  ${views.files.toLocaleString('en-US')} leaderboards, ${(views.bytes / 1048576).toFixed(1)} MiB`);
    const companies: CompanyView[] = [];
    for (const v of companyViews(input, meta)) {
      views.write(viewPaths.company(v.slug).slice('views/'.length), v);
      companies.push(v);
    }
    const past = await writeMonthViews({ data, pools, input, meta, views, cacheDir: opts.cacheDir, log });
    log(`  ${past.months} past months' company views (${past.fromCache} from the cache)`);
    views.write('meta.json', meta);
    // Each line is the body of GET /api/v1/company/{slug}?country={code}, its permanent URL included.
    const profiles = companies.flatMap((v) =>
      Object.keys(v.profiles)
        .sort(compareKeys)
        .map((code) => ({ ...v.profiles[code]!, permalink: urls.api(`/months/${meta.month}/company/${v.slug}`, { country: code }) })),
    );
    manifests.push(writeMonthDownloads(downloads, { name: meta.name, month: meta.month, csv: currentCsv, profiles, dataset, urls }));
    writeDatasetManifest(downloads, { name: meta.name, current: meta.month, months: manifests, dataset, urls });
    log(`  downloads: ${downloads.files} files, ${(downloads.bytes / 1048576).toFixed(1)} MiB`);
    const changelog = changelogBody({ ledger, ranked, month: meta.month, lastUpdated, urls });
    views.write(viewPaths.changelog().slice('views/'.length), changelog);
    views.write('search-index.json', buildSearchIndex(searchDocs(reg)));
    views.write('search-rankings.json', searchRankings(meta, companies));
    log(`  ${companies.length.toLocaleString('en-US')} companies and the search index`);

    const api = new JsonWriter(json);
    api.writeText('feed.xml', atomFeed(changelog, meta.name, urls));
    api.write('api/v1/openapi.json', openApiDocument(meta));
    await writeStaticFiles(api, json, meta, companies.map((c) => c.slug));
    for (const [path, text] of hostFiles(meta)) api.writeText(path, text);
    report.output = { files: views.files + api.files + downloads.files, bytes: views.bytes + api.bytes + downloads.bytes };
    // Everything the pages need is on disk now: let the month results go before Astro's
    // own memory peak (hundreds of MiB at reference scale).
    results.length = 0;
    companies.length = 0;

    const site = join(stage, 'site');
    if (opts.pages !== false) {
      log('Building pages');
      const { buildPages } = await import('./build-pages.ts');
      const pages = await buildPages({ root: opts.root, outDir: site, viewsDir: join(json, 'views'), jsonDir: json, siteUrl: opts.siteUrl });
      report.output.files += pages.files;
      report.output.bytes += pages.bytes;
    } else await moveDir(json, site);
    const rep = new JsonWriter(site);
    rep.write('build-report.json', report);

    log('Publishing the release');
    // The swap: one rename of a symbolic link, once the new build is complete.
    await publish(site, outDir, opts.releaseStep);
    await rm(stage, { recursive: true, force: true });
  } catch (e) {
    await rm(stage, { recursive: true, force: true });
    throw e;
  }
  return { report, seconds: (performance.now() - t0) / 1000, cacheHits: data.cacheHits };
}
