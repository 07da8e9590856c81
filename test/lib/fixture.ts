/**
 * A small, hand-made view store that follows src/core/views/layout.ts, for the
 * handler's unit tests. Two months, four countries (one without data), four
 * industries (one without a leaderboard), a 30-row board for paging and sorting.
 */
import type { CompanyProfile, HealthResponse, IndexResponse, Methodology } from '../../src/core/schemas/responses.ts';
import { buildSearchIndex } from '../../src/core/search/index.ts';
import { viewPaths } from '../../src/core/views/layout.ts';
import type { BoardRow, BoardView, CompanyView, MetaView, SearchDoc, SearchRankingsView } from '../../src/core/views/layout.ts';
import { MemoryStore } from '../../src/api/store.ts';

export const SITE = 'https://evi.example';
export const MONTH = '2026-04';
export const PREVIOUS = '2026-03';
const LAST_UPDATED = '2026-04-30';

const methodology: Methodology = {
  version: '1.0',
  url: `${SITE}/api-docs/#methodology`,
  models: ['ChatGPT', 'Google Gemini', 'Perplexity'],
  description: 'Share of (model x theme) combinations in which the company was named.',
};
const short = { version: methodology.version, url: methodology.url, models: methodology.models };

const countries = [
  { code: 'fr', name: 'France', aliases: [] },
  { code: 'de', name: 'Germany', aliases: ['Deutschland'] },
  { code: 'gb', name: 'United Kingdom', aliases: ['UK', 'Great Britain'] },
  { code: 'us', name: 'United States', aliases: ['USA', 'US', 'America'] },
];
const countryName = (code: string) => countries.find((c) => c.code === code)?.name ?? code;
const industries = [
  { name: 'Aerospace', slug: 'aerospace' },
  { name: 'Airline', slug: 'airline' },
  { name: 'Oil & Gas', slug: 'oil-gas' },
  { name: 'Retail', slug: 'retail' },
];

interface Company {
  slug: string;
  name: string;
  website: string;
  aliases: string[];
  industries: string[];
}

const named: Company[] = [
  { slug: 'kestrel-aerospace-group', name: 'Kestrel Aerospace Group', website: 'kestrelaero.example', aliases: ['Kestrel Aero', 'KAG'], industries: ['Aerospace', 'Airline'] },
  { slug: 'orbital-works', name: 'Orbital Works', website: 'orbital.example', aliases: [], industries: ['Aerospace'] },
  { slug: 'skyline-air', name: 'Skyline Air', website: 'skyline.example', aliases: ['Skyline'], industries: ['Airline'] },
  { slug: 'northwind', name: 'Northwind Traders, Inc.', website: 'northwind.example', aliases: ['Northwind'], industries: ['Retail'] },
  { slug: 'dormant-co', name: 'Dormant Co', website: 'dormant.example', aliases: [], industries: ['Retail'] },
];
/** 30 retailers with varied mentions and rank changes (some new this month). */
const retailers: Company[] = Array.from({ length: 30 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return { slug: `retailer-${n}`, name: `Retailer ${n}`, website: `retailer${n}.example`, aliases: [], industries: ['Retail'] };
});

const row = (c: Company, industry: string, score: number, mentions: number, previousRank: number | null): BoardRow => [
  c.slug,
  c.name,
  industry,
  score,
  mentions,
  previousRank,
  // Evidence consistent with the score: score/100 of 20 combinations, in 60 scored answers.
  Math.round(score / 5),
  20,
  60,
];
const board = (month: string, code: string, slug: string, industry: string, rows: BoardRow[]): BoardView => ({
  industry,
  industrySlug: slug,
  country: countryName(code),
  countryCode: code,
  month,
  previousMonth: month === MONTH ? PREVIOUS : null,
  rows,
});
const [kestrel, orbital, skyline, northwind] = named as [Company, Company, Company, Company, Company];

const retailRows: BoardRow[] = [
  row(northwind, 'Retail', 90, 40, 2),
  ...retailers.map((r, i) => row(r, 'Retail', 80 - i * 2, (i * 7) % 11, i % 4 === 0 ? null : ((i * 5) % 30) + 1)),
];

export const boards: BoardView[] = [
  board(MONTH, 'us', 'aerospace', 'Aerospace', [row(kestrel, 'Aerospace', 66.7, 12, 2), row(orbital, 'Aerospace', 33.3, 5, 1)]),
  board(MONTH, 'us', 'airline', 'Airline', [row(kestrel, 'Airline', 50, 7, null)]),
  board(MONTH, 'us', 'retail', 'Retail', retailRows),
  board(MONTH, 'us', 'all', 'All industries', [
    row(northwind, 'Retail', 90, 40, 1),
    ...retailRows.slice(1, 6),
    row(kestrel, 'Aerospace', 66.7, 12, 3),
    row(orbital, 'Aerospace', 33.3, 5, 2),
  ]),
  board(MONTH, 'gb', 'aerospace', 'Aerospace', [row(kestrel, 'Aerospace', 40, 4, null)]),
  board(MONTH, 'gb', 'airline', 'Airline', [row(skyline, 'Airline', 75, 9, null), row(kestrel, 'Airline', 25, 2, null)]),
  board(MONTH, 'gb', 'all', 'All industries', [row(skyline, 'Airline', 75, 9, null), row(kestrel, 'Aerospace', 40, 4, null)]),
  board(MONTH, 'fr', 'airline', 'Airline', [row(skyline, 'Airline', 60, 3, null)]),
  board(MONTH, 'fr', 'all', 'All industries', [row(skyline, 'Airline', 60, 3, null)]),
  board(PREVIOUS, 'us', 'aerospace', 'Aerospace', [row(orbital, 'Aerospace', 50, 8, null), row(kestrel, 'Aerospace', 40, 6, null)]),
  board(PREVIOUS, 'us', 'retail', 'Retail', [row(northwind, 'Retail', 70, 20, null)]),
  board(PREVIOUS, 'us', 'all', 'All industries', [row(northwind, 'Retail', 70, 20, null), row(orbital, 'Aerospace', 50, 8, null)]),
];

function profile(c: Company, code: string, industry: string, score: number, overallRank: number, industryRank: number, totalInIndustry: number, codes: string[]): CompanyProfile {
  return {
    company: c.name,
    slug: c.slug,
    website: c.website,
    industry,
    country: countryName(code),
    month: MONTH,
    visibilityScore: score,
    overallRank,
    totalCompaniesInCountry: 8,
    industryRank,
    totalCompaniesInIndustry: totalInIndustry,
    mentionCount: 4,
    evidence: { combinationsNamed: Math.round(score / 5), combinations: 20, scoredAnswers: 60 },
    modelScores: { chatgpt: score, googleAi: null, perplexity: 10 },
    themes: { Leadership: { rank: 1, score: 50 }, Inclusion: { rank: 2, score: 25 } },
    otherIndustries: [],
    history: [{ month: MONTH, rank: industryRank, visibilityScore: score }],
    countries: codes.map(countryName).sort(),
    summary: `${c.name} ranks #${industryRank} in ${industry} in ${countryName(code)}.`,
    lastUpdated: LAST_UPDATED,
    profileUrl: `${SITE}/company/${c.slug}/`,
    apiUrl: `${SITE}/api/v1/company/${c.slug}${code === 'us' ? '' : `?country=${code}`}`,
    methodology: short,
  };
}

export const companies: CompanyView[] = [
  {
    slug: kestrel.slug,
    company: kestrel.name,
    website: kestrel.website,
    industries: kestrel.industries,
    defaultCountry: 'us',
    profiles: {
      us: profile(kestrel, 'us', 'Aerospace', 66.7, 7, 1, 2, ['us', 'gb']),
      gb: profile(kestrel, 'gb', 'Aerospace', 40, 2, 1, 1, ['us', 'gb']),
    },
  },
  { slug: orbital.slug, company: orbital.name, website: orbital.website, industries: orbital.industries, defaultCountry: 'us', profiles: { us: profile(orbital, 'us', 'Aerospace', 33.3, 8, 2, 2, ['us']) } },
  {
    slug: skyline.slug,
    company: skyline.name,
    website: skyline.website,
    industries: skyline.industries,
    defaultCountry: 'gb',
    profiles: { gb: profile(skyline, 'gb', 'Airline', 75, 1, 1, 2, ['gb', 'fr']), fr: profile(skyline, 'fr', 'Airline', 60, 1, 1, 1, ['gb', 'fr']) },
  },
  { slug: northwind.slug, company: northwind.name, website: northwind.website, industries: northwind.industries, defaultCountry: 'us', profiles: { us: profile(northwind, 'us', 'Retail', 90, 1, 1, 31, ['us']) } },
  { slug: 'dormant-co', company: 'Dormant Co', website: 'dormant.example', industries: ['Retail'], defaultCountry: null, profiles: {} },
];

const searchRankings: SearchRankingsView = {
  month: MONTH,
  companies: Object.fromEntries(
    companies.map((view) => [
      view.slug,
      {
        company: view.company,
        website: view.website,
        industries: view.industries,
        defaultCountry: view.defaultCountry,
        rankings: Object.fromEntries(
          Object.entries(view.profiles).map(([code, p]) => [
            code,
            { industry: p.industry, rank: p.overallRank, industryRank: p.industryRank, totalCompaniesInIndustry: p.totalCompaniesInIndustry, visibilityScore: p.visibilityScore },
          ]),
        ),
      },
    ]),
  ),
};

const docs: SearchDoc[] = [...named, ...retailers].map((c) => ({ slug: c.slug, name: c.name, aliases: c.aliases, website: c.website }));

const boardIndex: Record<string, Record<string, string[]>> = {};
for (const b of boards) {
  if (b.industrySlug === 'all') continue;
  ((boardIndex[b.month] ??= {})[b.countryCode] ??= []).push(b.industrySlug);
}

const index: IndexResponse = {
  name: 'Employer Visibility Index',
  apiVersion: 'v1',
  datasetVersion: MONTH,
  month: MONTH,
  lastUpdated: LAST_UPDATED,
  description: 'Rankings of companies by employer visibility in AI answers.',
  links: {
    self: `${SITE}/api/v1`,
    health: `${SITE}/api/v1/health`,
    search: `${SITE}/api/v1/search?q=kestrel`,
    company: `${SITE}/api/v1/company/kestrel-aerospace-group`,
    rankings: `${SITE}/api/v1/rankings?industry=aerospace&country=us`,
    leaders: `${SITE}/api/v1/rankings/aerospace/us`,
    compare: `${SITE}/api/v1/compare?companies=kestrel-aerospace-group,orbital-works`,
    openapi: `${SITE}/api/v1/openapi.json`,
  },
  methodology,
  dataset: { totalCompanies: docs.length, industries: industries.map((i) => i.name), countries: countries.map((c) => c.name), months: [PREVIOUS, MONTH] },
};
const health: HealthResponse = {
  status: 'ok',
  apiVersion: 'v1',
  datasetVersion: MONTH,
  month: MONTH,
  lastUpdated: LAST_UPDATED,
  companies: docs.length,
  industries: industries.length,
};

export const meta: MetaView = {
  name: index.name,
  apiVersion: 'v1',
  siteUrl: SITE,
  month: MONTH,
  lastUpdated: LAST_UPDATED,
  methodology,
  months: [PREVIOUS, MONTH],
  industries,
  countries,
  totalCompanies: docs.length,
  companyShards: 1,
  boards: boardIndex,
  examples: { company: kestrel.slug, industry: 'aerospace', country: 'us', search: 'kestrel', compare: [kestrel.slug, orbital.slug] },
  index,
  health,
};

/** Every view of the fixture, by its path under `dist/`. */
export function fixtureFiles(): Record<string, unknown> {
  const files: Record<string, unknown> = {
    [viewPaths.meta()]: meta,
    [viewPaths.searchIndex()]: buildSearchIndex(docs),
    [viewPaths.searchRankings()]: searchRankings,
    'api/v1/openapi.json': { openapi: '3.1.0', info: { title: 'fixture', version: '1' }, paths: {} },
    [viewPaths.changelog()]: {
      month: MONTH,
      lastUpdated: LAST_UPDATED,
      feed: `${SITE}/feed.xml`,
      releases: [MONTH, PREVIOUS].map((month) => ({
        month,
        published: `${month}-28`,
        methodologyVersion: '1.0',
        leaderboards: boards.filter((b) => b.month === month && b.industrySlug !== 'all').length,
        rankedCompanies: 4,
        companiesAdded: [],
        companiesRemoved: [],
        corrections: [],
      })),
    },
  };
  for (const b of boards) files[viewPaths.board(b.month, b.countryCode, b.industrySlug)] = b;
  for (const c of companies) files[viewPaths.company(c.slug)] = c;
  return files;
}

export function fixtureStore(): MemoryStore {
  return new MemoryStore(fixtureFiles());
}
