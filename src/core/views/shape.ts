/**
 * Turns stored views into response bodies. Both the thin function and the build's
 * static emitter call these, so a static file and the function's answer for the
 * same request are the same bytes.
 */
import type { BoardRow, BoardView, MetaView } from './layout.ts';
import type { LeaderboardEntry, LeadersResponse, MethodologyShort, RankingsResponse, Sort } from '../schemas/responses.ts';
import { compareNames } from '../text.ts';

export const RANKINGS_DEFAULTS = { sort: 'rank' as Sort, page: 1, limit: 25 };
export const LEADERS_DEFAULT_LIMIT = 10;

export function methodologyShort(meta: MetaView): MethodologyShort {
  const { version, url, models } = meta.methodology;
  return { version, url, models };
}

export function profileUrl(meta: MetaView, slug: string): string {
  return `${meta.siteUrl}/company/${slug}/`;
}

function toEntry(meta: MetaView, row: BoardRow, index: number): LeaderboardEntry {
  const [slug, company, industry, visibilityScore, mentionCount, previousRank] = row;
  const rank = index + 1;
  return {
    rank,
    company,
    slug,
    industry,
    visibilityScore,
    mentionCount,
    previousRank,
    rankChange: previousRank === null ? null : previousRank - rank,
    profileUrl: profileUrl(meta, slug),
  };
}

/** data-and-rules §3 `sort`; rows arrive in rank order, and Array#sort is stable. */
export function sortEntries(entries: LeaderboardEntry[], sort: Sort): LeaderboardEntry[] {
  const out = entries.slice();
  switch (sort) {
    case 'rank':
    case 'score':
      return out;
    case 'mentions':
      return out.sort((a, b) => b.mentionCount - a.mentionCount || a.rank - b.rank);
    case 'name':
      return out.sort((a, b) => compareNames(a.company, b.company) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    case 'change':
      return out.sort((a, b) => {
        if (a.rankChange === null || b.rankChange === null) {
          if (a.rankChange !== b.rankChange) return a.rankChange === null ? 1 : -1;
          return a.rank - b.rank;
        }
        return b.rankChange - a.rankChange || a.rank - b.rank;
      });
  }
}

export function rankingsBody(
  meta: MetaView,
  board: BoardView,
  opts: { sort: Sort; page: number; limit: number } = RANKINGS_DEFAULTS,
): RankingsResponse {
  const total = board.rows.length;
  const start = (opts.page - 1) * opts.limit;
  let page: LeaderboardEntry[];
  if (start >= total) page = [];
  else if (opts.sort === 'rank' || opts.sort === 'score') {
    page = board.rows.slice(start, start + opts.limit).map((r, i) => toEntry(meta, r, start + i));
  } else {
    page = sortEntries(board.rows.map((r, i) => toEntry(meta, r, i)), opts.sort).slice(start, start + opts.limit);
  }
  return {
    industry: board.industry,
    country: board.country,
    month: board.month,
    previousMonth: board.previousMonth,
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

export function leadersBody(meta: MetaView, board: BoardView, limit = LEADERS_DEFAULT_LIMIT): LeadersResponse {
  return {
    industry: board.industry,
    country: board.country,
    month: board.month,
    lastUpdated: meta.lastUpdated,
    totalCompanies: board.rows.length,
    methodology: methodologyShort(meta),
    topCompanies: board.rows.slice(0, limit).map(([slug, company, , score], i) => ({ rank: i + 1, company, score, slug })),
  };
}
