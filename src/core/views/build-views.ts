/**
 * Month results -> the view store of layout.ts (data-and-rules §3–§4). Pure: the
 * caller decides where the views go; big families are yielded one at a time. One
 * module per kind of view: leaderboards (boards.ts), company profiles (companies.ts),
 * the meta view (meta.ts), search's copies of names and rankings (search-views.ts),
 * and the sentences they carry (copy.ts).
 */
export type { SiteInput } from './site-input.ts';
export { boardViews } from './boards.ts';
export { companyViews } from './companies.ts';
export { metaView, METHODOLOGY_VERSION, SERVICE_NAME } from './meta.ts';
export { searchDocs, searchRankingOf, searchRankings } from './search-views.ts';
export { methodologyDescription, summary } from './copy.ts';
