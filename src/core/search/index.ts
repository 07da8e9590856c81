/**
 * Company search (issue "Search that finds the company"): a compact index built once
 * at build time (`views/search-index.json`), loaded once per Worker instance or
 * browser page, queried in well under a millisecond.
 *
 * Query path: one sorted array of compact keys (folded, blanks removed, with and
 * without legal suffix) answers exact and prefix matches by binary search; a
 * trigram index over companies hands a short list to a bit-parallel
 * edit-distance scorer. Pure: nothing from `node:*`, runs in Workers and browsers.
 */
export { buildSearchIndex, type SerializedSearchIndex, type SerializedSearchIndexV1 } from './build.ts';
export { loadSearchIndex, type SearchIndex } from './load.ts';
export { betterOutside, searchCompanies, type MatchedOn, type SearchHit, type SearchOptions } from './query.ts';
