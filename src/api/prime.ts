/**
 * Runs the handler once per endpoint over a tiny in-memory store, for a runtime's
 * startup (a Worker's global scope, which Cloudflare limits separately, 1 s, rather
 * than as a request's CPU time). V8 compiles a function on its first call and keeps
 * no type feedback before it: without this, a fresh instance's first request pays
 * for running every layer's code for the first time (Hono's router and context, the
 * parameter schemas, the view cache, the shapers, the ETag, the answer cache), about
 * 4.5 ms of CPU that every endpoint paid (bench:worker).
 *
 * The store is made here from three synthetic companies by the same core functions
 * the build calls for the search files; the other views are typed by the layout's
 * interfaces. The primed handler is a separate instance: nothing it reads or keeps
 * is shared with the real one (its caches are its own; module-level state is the
 * per-request WeakMaps only), so no answer depends on it (src/api/prime.test.ts).
 *
 * No I/O, no timers, no randomness: allowed at a Worker's global scope. workerd does
 * not allow a `Response` with a body there either: each request then stops where the
 * route makes its Response (the layers below it have run) and ends as the handler's
 * 500 answer, which is discarded; under Node every request runs to the end.
 */
import type { CompanyProfile, HealthResponse, IndexResponse, Methodology } from '../core/schemas/responses.ts';
import { buildSearchFiles } from '../core/search/index.ts';
import { encodeSearchRankings } from '../core/search/rankings.ts';
import { OVERALL, OVERALL_LABEL, shardOf, viewPaths } from '../core/views/layout.ts';
import type { BoardRow, BoardView, CompanyView, MetaView } from '../core/views/layout.ts';
import { searchRankings } from '../core/views/search-views.ts';
import type { CompanyRecord, RecordShard } from '../core/views/companies.ts';
import { OPENAPI_PATH } from './app.ts';
import { createApi } from './service.ts';
import { MemoryStore } from './store.ts';

const SITE = 'https://prime.invalid';
const MONTH = '2000-02';
const PAST = '2000-01';
const DATE = '2000-02-29';
const methodology: Methodology = { version: '1.0', url: `${SITE}/api-docs/#methodology`, models: ['ChatGPT'], description: 'Primer.' };
const short = { version: methodology.version, url: methodology.url, models: methodology.models };
const countries = [
  { code: 'us', name: 'United States', aliases: ['USA'] },
  { code: 'gb', name: 'United Kingdom', aliases: ['UK'] },
];
const industries = [
  { name: 'Aerospace', slug: 'aerospace' },
  { name: 'Retail', slug: 'retail' },
];
const docs = [
  { slug: 'kestrel-aerospace-group', name: 'Kestrel Aerospace Group', aliases: ['Kestrel Aero'], website: 'kestrelaero.example', industry: 'Aerospace' },
  { slug: 'quill-works', name: 'Quill Works, Inc.', aliases: ['Quillworks'], website: 'careers.quillworks.example', industry: 'Retail' },
  { slug: 'societe-generale', name: 'Société Générale', aliases: ['SocGen'], website: 'sg.example', industry: 'Retail' },
];

function profile(d: (typeof docs)[number], month: string, rank: number): CompanyProfile {
  return {
    company: d.name,
    slug: d.slug,
    website: d.website,
    industry: d.industry,
    country: 'United States',
    month,
    visibilityScore: 50 / rank,
    overallRank: rank,
    totalCompaniesInCountry: docs.length,
    industryRank: 1,
    totalCompaniesInIndustry: 1,
    mentionCount: 4 - rank,
    evidence: { combinationsNamed: 2, combinations: 4, scoredAnswers: 12 },
    modelScores: { chatgpt: 50, googleAi: null, perplexity: 25 },
    themes: { Leadership: { rank: 1, score: 50 } },
    otherIndustries: [],
    history: [{ month, rank: 1, visibilityScore: 50 / rank }],
    countries: ['United States'],
    summary: `${d.name} ranks #${rank}.`,
    lastUpdated: DATE,
    profileUrl: `${SITE}/company/${d.slug}/`,
    apiUrl: `${SITE}/api/v1/company/${d.slug}`,
    methodology: short,
  };
}

const views = (month: string): CompanyView[] =>
  docs.map((d, i) => ({ slug: d.slug, company: d.name, website: d.website, industries: [d.industry], defaultCountry: 'us', profiles: { us: profile(d, month, i + 1) } }));

/** The past month's records (every company in its shard: one shard). */
const pastShard = (): RecordShard => ({
  months: [PAST],
  themes: { 0: ['Leadership'] },
  countries: { us: 'United States' },
  companies: Object.fromEntries(docs.map((d, i) => [d.slug, ['us', [['us', d.industry, i + 1, docs.length, 1, 1, 3 - i, 2, 4, 12, [50, null, 25], 0, [1, 50], [], [0, 1, 50]]]] satisfies CompanyRecord])),
});

const board = (month: string, industry: { name: string; slug: string }, rows: BoardRow[]): BoardView => ({
  industry: industry.name,
  industrySlug: industry.slug,
  country: 'United States',
  countryCode: 'us',
  month,
  previousMonth: month === MONTH ? PAST : null,
  rows,
});
const rows = (month: string): BoardRow[] => docs.map((d, i) => [d.slug, d.name, d.industry, 50 / (i + 1), 4 - i, month === MONTH ? 3 - i : null, 2, 4, 12]);

const links = { self: `${SITE}/api/v1`, health: `${SITE}/api/v1/health`, company: `${SITE}/api/v1/company/quill-works`, rankings: `${SITE}/api/v1/rankings`, leaders: `${SITE}/api/v1/rankings/retail/us`, openapi: `${SITE}/api/v1/openapi.json` };
const dataset = { totalCompanies: docs.length, industries: industries.map((i) => i.name), countries: countries.map((c) => c.name), months: [PAST, MONTH] };
const index: IndexResponse = { name: 'Primer', apiVersion: 'v1', datasetVersion: MONTH, month: MONTH, lastUpdated: DATE, description: 'Primer.', links, methodology, dataset };
const health: HealthResponse = { status: 'ok', apiVersion: 'v1', datasetVersion: MONTH, month: MONTH, lastUpdated: DATE, companies: docs.length, industries: industries.length };

const meta: MetaView = {
  name: 'Primer',
  apiVersion: 'v1',
  siteUrl: SITE,
  month: MONTH,
  lastUpdated: DATE,
  methodology,
  months: [PAST, MONTH],
  industries,
  countries,
  totalCompanies: docs.length,
  released: { [PAST]: '2000-01-31', [MONTH]: DATE },
  companyShards: 1,
  boards: { [PAST]: { us: ['aerospace', 'retail'] }, [MONTH]: { us: ['aerospace', 'retail'] } },
  examples: { company: 'quill-works', industry: 'retail', country: 'us', search: 'quill', compare: ['quill-works', 'kestrel-aerospace-group'] },
  index,
  health,
};

/** The tiny store: every file the handler reads, for two months. */
function primeFiles(): Record<string, unknown> {
  const search = buildSearchFiles(docs.map(({ slug, name, aliases, website }) => ({ slug, name, aliases, website })));
  const files: Record<string, unknown> = {
    [viewPaths.meta()]: meta,
    [viewPaths.searchIndexBinary()]: search.binary,
    [viewPaths.searchRankingsBinary()]: encodeSearchRankings(searchRankings(meta, views(MONTH))),
    [viewPaths.monthSearchRankingsBinary(PAST)]: encodeSearchRankings(searchRankings({ ...meta, month: PAST }, views(PAST))),
    [viewPaths.changelog()]: { month: MONTH, lastUpdated: DATE, feed: `${SITE}/feed.xml`, releases: [] },
    [OPENAPI_PATH]: { openapi: '3.1.0', info: { title: 'Primer', version: '1' }, paths: {} },
    [viewPaths.companyShard(PAST, shardOf(docs[0]!.slug, 1))]: pastShard(),
  };
  for (const month of [PAST, MONTH]) {
    files[viewPaths.board(month, 'us', OVERALL)] = board(month, { name: OVERALL_LABEL, slug: OVERALL }, rows(month));
    for (const industry of industries) files[viewPaths.board(month, 'us', industry.slug)] = board(month, industry, rows(month).filter((r) => r[2] === industry.name));
  }
  for (const view of views(MONTH)) files[viewPaths.company(view.slug)] = view;
  return files;
}

/** One request per endpoint and form, then the error answers, 304s, codings and a preflight. */
const TARGETS = [
  '/api/v1',
  '/api/v1/health',
  '/api/v1/search?q=quill%20works',
  '/api/v1/search?q=kestrl%20aero&country=us',
  `/api/v1/search?q=societe%20generale&month=${PAST}`,
  '/api/v1/company/quill-works',
  '/api/v1/company/quill-works?country=gb',
  `/api/v1/months/${PAST}/company/kestrel-aerospace-group`,
  '/api/v1/company/quill-worksx',
  '/api/v1/rankings',
  '/api/v1/rankings?industry=retail&country=us&sort=change&page=2',
  '/api/v1/rankings?sort=name',
  '/api/v1/rankings?sort=mentions&limit=2',
  '/api/v1/rankings/retail/us',
  '/api/v1/rankings/all/us?limit=2',
  '/api/v1/compare?companies=quill-works,kestrel-aerospace-group',
  '/api/v1/changelog',
  '/api/v1/openapi.json',
  '/api/v1/rankings?country=zz',
  '/api/v1/rankings/nothing/us',
  '/api/v1/search',
  '/api/v1/nothing',
  '/search?q=quill',
];

/** A compressed answer, then a revalidation. */
const VARIANTS: Record<string, string>[] = [{ 'accept-encoding': 'gzip, br' }, { 'if-none-match': '"primer"' }];

/**
 * Primes the handler's code (see the module comment). Resolves when every request
 * has been answered, by microtasks only; returns the bytes it saw, so that nothing
 * is optimised away.
 */
export async function primeApi(): Promise<number> {
  const handle = primeHandler();
  let bytes = 0;
  for (const target of TARGETS) {
    for (const headers of VARIANTS) {
      try {
        bytes += (await (await handle(new Request(`${SITE}${target}`, { headers }))).arrayBuffer()).byteLength;
      } catch {
        // workerd: no Response with a body at global scope (see the module comment)
      }
    }
  }
  return bytes;
}

/**
 * A handler of its own over the same tiny store, for priming what runs on top of the
 * handler (the MCP tools: src/mcp/prime.ts). Nothing it keeps is shared with a real handler.
 */
export function primeHandler(): (request: Request) => Promise<Response> {
  const api = createApi(new MemoryStore(primeFiles()), { log: () => {} });
  return (request) => api.fetch(request);
}
