/**
 * The precomputed view store: what the build writes under `dist/views/` and the function reads
 * through its read-only store. Response bodies are shaped from these views by `./shape.ts`, for
 * both the handler and the static emitter.
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
  /** A country's overall board (industry {@link OVERALL}) in binary form, read in place by the API (./board-rows.ts). */
  overallBoardBinary: (month: string, country: string) => `${VIEWS_DIR}/rankings/${month}/${country}/${OVERALL}.bin`,
  company: (slug: string) => `${VIEWS_DIR}/company/${slug}.json`,
  searchIndex: () => `${VIEWS_DIR}/search-index.json`,
  /** The same index in binary form, queried in place by the API (src/core/search/binary.ts). */
  searchIndexBinary: () => `${VIEWS_DIR}/search-index.bin`,
  searchRankings: () => `${VIEWS_DIR}/search-rankings.json`,
  /** The same in binary form, read in place by the API (src/core/search/rankings.ts). */
  searchRankingsBinary: () => `${VIEWS_DIR}/search-rankings.bin`,
  /** A past month's company views, {@link COMPANIES_PER_SHARD} or so per file: `slug -> CompanyView`. */
  companyShard: (month: string, shard: number) => `${VIEWS_DIR}/months/${month}/companies/${shard}.json`,
  /** A past month's search rankings. */
  monthSearchRankings: (month: string) => `${VIEWS_DIR}/months/${month}/search-rankings.json`,
  monthSearchRankingsBinary: (month: string) => `${VIEWS_DIR}/months/${month}/search-rankings.bin`,
  /** The changelog body, as served. */
  changelog: () => `${VIEWS_DIR}/changelog.json`,
};

/** Past months keep their company views in shards: a few thousand files rather than one per company and month. */
export const COMPANIES_PER_SHARD = 32;

/** Number of shards for a registry of `companies` companies. */
export const shardCount = (companies: number): number => Math.max(1, Math.ceil(companies / COMPANIES_PER_SHARD));

/** The shard of a slug: FNV-1a (32-bit) of its characters, modulo the shard count. */
export function shardOf(slug: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < slug.length; i++) {
    h ^= slug.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % shards;
}

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
  /** month -> the date it was first published (release ledger): month-addressed answers keep their bytes across releases. */
  released?: Record<string, string>;
  /**
   * month -> the date of its latest correction (release ledger): its month-addressed answers
   * name it and are cached like current answers, so that caches learn of the correction.
   */
  corrected?: Record<string, string>;
  /** Number of company shards of every past month ({@link shardOf}). */
  companyShards: number;
  /** month -> country code -> industry slugs with a leaderboard in that month (overall exists iff the list is non-empty). */
  boards: Record<string, Record<string, string[]>>;
  /** Real values used to build example URLs. */
  examples: { company: string; industry: string; country: string; search: string; compare: string[] };
  index: IndexResponse;
  health: HealthResponse;
}

/**
 * One leaderboard, in rank order (rank = position + 1), as tuples to keep it small:
 * `[slug, company, industry, visibilityScore, mentionCount, previousRank | null,
 *   combinationsNamed, combinations, scoredAnswers]` (the last three: the score's evidence).
 */
export type BoardRow = [string, string, string, number, number, number | null, number, number, number];

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
  /** The month's profile per country with data; past months' shards leave out `lastUpdated` so they stay the same across releases. */
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
  /** The index's `deployment`, for a deployment without the function. */
  deployment?: IndexResponse['deployment'];
}
