/** What search reads beside its index: the registry's names, and each company's latest rankings. */
import type { Registry } from '../registry.ts';
import type { CompanyView, MetaView, SearchDoc, SearchRankingsView } from './layout.ts';

export function searchDocs(reg: Registry): SearchDoc[] {
  return reg.companies.map((c) => ({ slug: c.slug, name: c.name, aliases: c.aliases, website: c.website }));
}

export function searchRankings(meta: MetaView, companies: Iterable<CompanyView>): SearchRankingsView {
  const out: SearchRankingsView = { month: meta.month, companies: {} };
  for (const v of companies) {
    const rankings: SearchRankingsView['companies'][string]['rankings'] = {};
    for (const [code, p] of Object.entries(v.profiles))
      rankings[code] = { industry: p.industry, rank: p.overallRank, industryRank: p.industryRank, totalCompaniesInIndustry: p.totalCompaniesInIndustry, visibilityScore: p.visibilityScore };
    out.companies[v.slug] = { company: v.company, website: v.website, industries: v.industries, defaultCountry: v.defaultCountry, rankings };
  }
  return out;
}
