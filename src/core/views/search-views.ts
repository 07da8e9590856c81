/** What search reads beside its index: the registry's names, and each company's latest rankings. */
import type { Registry } from '../registry.ts';
import type { CompanyView, MetaView, SearchDoc, SearchRankingsView } from './layout.ts';

export function searchDocs(reg: Registry): SearchDoc[] {
  return reg.companies.map((c) => ({ slug: c.slug, name: c.name, aliases: c.aliases, website: c.website }));
}

type SearchRanking = SearchRankingsView['companies'][string];

/** What search keeps of one company view: its name, site, industries and each country's ranks. */
export function searchRankingOf(v: CompanyView): SearchRanking {
  const rankings: SearchRanking['rankings'] = {};
  for (const [code, p] of Object.entries(v.profiles))
    rankings[code] = { industry: p.industry, rank: p.overallRank, industryRank: p.industryRank, totalCompaniesInIndustry: p.totalCompaniesInIndustry, visibilityScore: p.visibilityScore };
  return { company: v.company, website: v.website, industries: v.industries, defaultCountry: v.defaultCountry, rankings };
}

export function searchRankings(meta: MetaView, companies: Iterable<CompanyView>): SearchRankingsView {
  const out: SearchRankingsView = { month: meta.month, companies: {} };
  for (const v of companies) out.companies[v.slug] = searchRankingOf(v);
  return out;
}
