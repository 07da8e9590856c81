/**
 * The one module that turns stored views into response bodies (service-spec §2, §4):
 * the handler calls it for every answer, and the static default files are the
 * handler's answers, so a static file and the function's answer are the same bytes.
 */
import type { BoardRow, BoardView, CompanyView, MetaView } from './layout.ts';
import type { SearchRankings } from '../search/rankings.ts';
import type {
  CompanyProfile,
  CompareResponse,
  LeaderboardEntry,
  LeadersResponse,
  MethodologyShort,
  RankingsResponse,
  SearchResponse,
  SearchResult,
  Sort,
} from '../schemas/responses.ts';
import { LIMITS } from '../policy.ts';
import { jsonBoard, type BoardRows } from './board-rows.ts';
import { siteUrls } from '../urls.ts';

export const RANKINGS_DEFAULTS: { sort: Sort; page: number; limit: number } = { sort: 'rank', page: LIMITS.page.default, limit: LIMITS.rankings.default };
export const LEADERS_DEFAULT_LIMIT = LIMITS.leaders.default;

export function methodologyShort(meta: MetaView): MethodologyShort {
  const { version, url, models } = meta.methodology;
  return { version, url, models };
}

export function profileUrl(meta: MetaView, slug: string): string {
  return siteUrls(meta.siteUrl).profile(slug);
}

function toEntry(meta: MetaView, row: BoardRow, index: number): LeaderboardEntry {
  const [slug, company, industry, visibilityScore, mentionCount, previousRank, combinationsNamed, combinations, scoredAnswers] = row;
  const rank = index + 1;
  return {
    rank,
    company,
    slug,
    industry,
    visibilityScore,
    mentionCount,
    evidence: { combinationsNamed, combinations, scoredAnswers },
    previousRank,
    rankChange: previousRank === null ? null : previousRank - rank,
    profileUrl: profileUrl(meta, slug),
  };
}

/** A board's rows and their orders, from either form. */
const rowsOf = (board: BoardView | BoardRows): BoardRows => ('rows' in board ? jsonBoard(board) : board);

export function rankingsBody(
  meta: MetaView,
  view: BoardView | BoardRows,
  opts: { sort: Sort; page: number; limit: number } = RANKINGS_DEFAULTS,
): RankingsResponse {
  const board = rowsOf(view);
  const total = board.length;
  const start = (opts.page - 1) * opts.limit;
  const end = Math.min(total, start + opts.limit);
  const order = start < total ? board.order(opts.sort) : null;
  const page: LeaderboardEntry[] = [];
  for (let k = start; k < end; k++) {
    const i = order ? (order[k] as number) : k;
    page.push(toEntry(meta, board.row(i), i));
  }
  const { facts } = board;
  return {
    industry: facts.industry,
    country: facts.country,
    month: facts.month,
    previousMonth: facts.previousMonth,
    lastUpdated: meta.lastUpdated,
    sort: opts.sort,
    page: opts.page,
    limit: opts.limit,
    totalCompanies: total,
    totalPages: Math.ceil(total / opts.limit),
    methodology: methodologyShort(meta),
    rankings: page,
  };
}

export function leadersBody(meta: MetaView, view: BoardView | BoardRows, limit: number = LEADERS_DEFAULT_LIMIT): LeadersResponse {
  const board = rowsOf(view);
  const topCompanies: LeadersResponse['topCompanies'] = [];
  for (let i = 0; i < Math.min(limit, board.length); i++) {
    const [slug, company, , score] = board.row(i);
    topCompanies.push({ rank: i + 1, company, score, slug });
  }
  const { facts } = board;
  return {
    industry: facts.industry,
    country: facts.country,
    month: facts.month,
    lastUpdated: meta.lastUpdated,
    totalCompanies: board.length,
    methodology: methodologyShort(meta),
    topCompanies,
  };
}

/**
 * service-spec §4.3: one result per hit that has a ranking in the asked country, or
 * else in the company's default country; hits without one are left out.
 */
export function searchBody(
  meta: MetaView,
  query: string,
  hits: Iterable<{ slug: string; score: number; matchedOn: string }>,
  rankings: SearchRankings,
  country: { code: string } | null,
  elsewhere: { slug: string; score: number; matchedOn: string } | null = null,
): SearchResponse {
  const urls = siteUrls(meta.siteUrl);
  const countryName = new Map(meta.countries.map((c) => [c.code, c.name]));
  const results: SearchResult[] = [];
  for (const hit of hits) {
    const entry = rankings.company(hit.slug);
    const code = country?.code ?? entry?.defaultCountry;
    const ranking = code ? entry?.rankings[code] : undefined;
    if (!entry || !code || !ranking) continue;
    const { rank, industryRank, totalCompaniesInIndustry, visibilityScore } = ranking;
    results.push({
      company: entry.company,
      slug: hit.slug,
      website: entry.website,
      industry: ranking.industry,
      industries: entry.industries,
      country: countryName.get(code) ?? code,
      latestRanking: { rank, industryRank, totalCompaniesInIndustry, visibilityScore, month: rankings.month },
      profileUrl: urls.profile(hit.slug),
      apiUrl: urls.company(hit.slug, code === entry.defaultCountry ? null : code),
      matchedOn: hit.matchedOn as SearchResult['matchedOn'],
      confidence: hit.score,
    });
  }
  const other = elsewhere ? rankings.company(elsewhere.slug) : undefined;
  if (elsewhere && other && other.defaultCountry && (results[0]?.confidence ?? 0) < elsewhere.score && !results.some((r) => r.slug === elsewhere.slug)) {
    const body: SearchResponse = { query, month: rankings.month, lastUpdated: meta.lastUpdated, methodology: methodologyShort(meta), results };
    body.betterMatchElsewhere = {
      company: other.company,
      slug: elsewhere.slug,
      country: countryName.get(other.defaultCountry) ?? other.defaultCountry,
      matchedOn: elsewhere.matchedOn,
      confidence: elsewhere.score,
      apiUrl: urls.company(elsewhere.slug),
    };
    return body;
  }
  return { query, month: rankings.month, lastUpdated: meta.lastUpdated, methodology: methodologyShort(meta), results };
}

/** Which companies a search may return: those with a ranking in the country, or in their default country. */
export function searchFilter(rankings: SearchRankings, country: { code: string } | null): (slug: string) => boolean {
  const code = country?.code ?? null;
  return (slug) => rankings.ranked(slug, code);
}

/** Why a company has no profile to show: no data this month at all, or none in the asked country. */
export type ProfileMiss = { reason: 'no-data' | 'not-in-country'; company: string; countries: string[] };

/**
 * data-and-rules §4: the profile in the asked country, else in the company's default
 * country; a {@link ProfileMiss} when there is none.
 */
export function selectProfile(view: CompanyView, country: string | null): CompanyProfile | ProfileMiss {
  const countries = countriesOf(view);
  const code = country ?? view.defaultCountry;
  const profile = code === null ? undefined : view.profiles[code];
  if (profile) return profile;
  return { reason: country !== null && countries.length > 0 ? 'not-in-country' : 'no-data', company: view.company, countries };
}

export const isProfileMiss = (value: CompanyProfile | ProfileMiss): value is ProfileMiss => 'reason' in value;

/** Every profile of a company carries the countries where it has data (names, collator order). */
function countriesOf(view: CompanyView): string[] {
  for (const profile of Object.values(view.profiles)) return profile.countries;
  return [];
}

/** service-spec §4.7: the profiles in the order asked, all of one month. */
export function compareBody(meta: MetaView, month: string, companies: CompanyProfile[]): CompareResponse {
  return { month, lastUpdated: meta.lastUpdated, methodology: methodologyShort(meta), companies };
}
