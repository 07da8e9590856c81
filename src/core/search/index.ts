/**
 * Company search (issue "Search that finds the company"): a compact index built once
 * at build time, in two forms: `views/search-index.json` (loaded by the pages'
 * search box) and `views/search-index.bin` (queried in place by the API: no load
 * work on a fresh Worker instance), queried in well under a millisecond.
 *
 * Query path: one sorted array of compact keys (folded, blanks removed, with and
 * without legal suffix) answers exact and prefix matches by binary search; a
 * trigram index over companies hands a short list to a bit-parallel
 * edit-distance scorer; a company holding every word of the query ranks above
 * prefix and typo matches (`words.ts`), abbreviations read both ways through one
 * table (`abbreviations.ts`), and a query of initials names the one company they
 * fit. Pure: nothing from `node:*`, runs in Workers and browsers.
 */
export { buildSearchFiles, buildSearchIndex, type SearchFiles, type SerializedSearchIndex, type SerializedSearchIndexV1 } from './build.ts';
export { decodeSearchIndex, encodeSearchIndex, isBinarySearchIndex } from './binary.ts';
export { loadSearchIndex, type SearchIndex } from './load.ts';
export { betterOutside, findCompanies, searchCompanies, type FoundCompany, type MatchedOn, type SearchHit, type SearchOptions } from './query.ts';
