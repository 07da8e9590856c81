/**
 * The precomputed view store: what the build writes under `dist/views/` and what
 * the thin function reads through its read-only store. Every request is answered
 * from one to five of these files (meta.json is read once per instance).
 * Response bodies are shaped from these views by `./shape.ts` (rankingsBody,
 * leadersBody, methodologyShort): the handler and the static emitter both call it.
 */
import type { CompanyProfile, Methodology, IndexResponse, HealthResponse } from '../schemas/responses.ts';
import type { SiteUrls } from '../urls.ts';

/** Folder of the view store inside `dist/`. */
export const VIEWS_DIR = 'views';

export const OVERALL = 'all';
export const OVERALL_LABEL = 'All industries';

export const viewPaths = {
  meta: () => `${VIEWS_DIR}/meta.json`,
  /** `industry` is an industry slug or {@link OVERALL}. */
  board: (month: string, country: string, industry: string) => `${VIEWS_DIR}/rankings/${month}/${country}/${industry}.json`,
  company: (slug: string) => `${VIEWS_DIR}/company/${slug}.json`,
  searchIndex: () => `${VIEWS_DIR}/search-index.json`,
  searchRankings: () => `${VIEWS_DIR}/search-rankings.json`,
};

export interface CountryRef {
  code: string;
  name: string;
  aliases: string[];
}

export interface IndustryRef {
  name: string;
  slug: string;
}

export interface MetaView {
  name: string;
  apiVersion: 'v1';
  siteUrl: string;
  /** The current (latest) dataset month. */
  month: string;
  lastUpdated: string;
  methodology: Methodology;
  /** Dataset months, oldest first. */
  months: string[];
  industries: IndustryRef[];
  countries: CountryRef[];
  totalCompanies: number;
  /** Candidate-experience themes seen in the data (all months), sorted. */
  themes?: string[];
  /** Answer sources collected for research and never scored, sorted. */
  researchModels?: string[];
  /** month -> country code -> industry slugs with a leaderboard in that month (overall exists iff the list is non-empty). */
  boards: Record<string, Record<string, string[]>>;
  /** Real values used to build example URLs. */
  examples: { company: string; industry: string; country: string; search: string; compare: string[] };
  index: IndexResponse;
  health: HealthResponse;
}

/**
 * One leaderboard, in rank order (rank = position + 1). Entries are tuples to keep
 * the ~3M entries of a reference-scale build small:
 * `[slug, company, industry, visibilityScore, mentionCount, previousRank | null]`.
 */
export type BoardRow = [string, string, string, number, number, number | null];

export interface BoardView {
  /** Display name, or "All industries". */
  industry: string;
  industrySlug: string;
  country: string;
  countryCode: string;
  month: string;
  previousMonth: string | null;
  rows: BoardRow[];
}

export interface CompanyView {
  slug: string;
  company: string;
  website: string;
  /** Registry industries (display names). */
  industries: string[];
  /** Country code of the default country in the current month, null when it has no data this month. */
  defaultCountry: string | null;
  /** Current-month profile body in every country (code) where it has data. */
  profiles: Record<string, CompanyProfile>;
}

/** Registry facts the search index is built from. */
export interface SearchDoc {
  slug: string;
  name: string;
  aliases: string[];
  website: string;
}

/** What a search result needs beside the index: latest ranking per country with data. */
export interface SearchRanking {
  industry: string;
  rank: number;
  industryRank: number;
  totalCompaniesInIndustry: number;
  visibilityScore: number;
}

export interface SearchRankingsView {
  month: string;
  /** slug -> { defaultCountry, industries, rankings: code -> ranking } */
  companies: Record<string, { company: string; website: string; industries: string[]; defaultCountry: string | null; rankings: Record<string, SearchRanking> }>;
}

/**
 * What the index says about the endpoints (service-spec §2.1 `links`, `endpoints`),
 * supplied by the api layer's endpoint table: the core does not import it.
 */
export interface ApiDescription {
  links: (urls: SiteUrls, examples: MetaView['examples'], month: string) => IndexResponse['links'];
  endpoints: () => Record<string, string>;
}
