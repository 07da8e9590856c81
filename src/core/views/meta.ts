/** The meta view (data-and-rules §4): months, boards, examples, and the index and health bodies it carries. */
import { DEFAULT_COUNTRY, MODEL_NAMES, RATE_LIMIT_TEXT } from '../policy.ts';
import { siteUrls } from '../urls.ts';
import { citationText } from '../schemas/dataset.ts';
import { compareNames } from '../text.ts';
import { shardCount, type ApiDescription, type MetaView } from './layout.ts';
import { DESCRIPTION, methodologyDescription } from './copy.ts';
import type { SiteInput } from './site-input.ts';

export const SERVICE_NAME = 'Employer Visibility Index';
export const METHODOLOGY_VERSION = '1.0';

/** The meta view, with the index and health bodies it carries; `api` describes the endpoints (the endpoint table). */
export function metaView(input: SiteInput, api: ApiDescription): MetaView {
  const { registry: reg, results, siteUrl, lastUpdated } = input;
  const cur = results[results.length - 1]!;
  const months = results.map((r) => r.month);
  const boards: MetaView['boards'] = {};
  for (const r of results) {
    const m: Record<string, string[]> = {};
    for (const b of r.boards.values()) (m[b.country] ??= []).push(b.industrySlug);
    boards[r.month] = m;
  }
  const exCountry = cur.overall.has(DEFAULT_COUNTRY) ? DEFAULT_COUNTRY : ([...cur.overall.keys()][0] ?? 'us');
  const o = cur.overall.get(exCountry);
  const top = o ? reg.companies[o.order[0]!] : reg.companies[0];
  const second = o && o.order.length > 1 ? reg.companies[o.order[1]!] : reg.companies[1];
  const topBoard = o?.board[0];
  const examples = {
    company: top?.slug ?? '',
    industry: topBoard?.industrySlug ?? reg.industries[0]?.slug ?? '',
    country: exCountry,
    search: top?.name ?? '',
    compare: [top?.slug, second?.slug].filter((s): s is string => !!s),
  };
  const urls = siteUrls(siteUrl);
  const methodology = {
    version: METHODOLOGY_VERSION,
    url: urls.methodology,
    models: [...MODEL_NAMES],
    description: methodologyDescription(input.themes, input.researchModels),
  };
  const industryNames = reg.industries.map((i) => i.name).sort(compareNames);
  const countryNames = reg.countries.map((c) => c.name).sort(compareNames);
  const meta: MetaView = {
    name: SERVICE_NAME,
    apiVersion: 'v1',
    siteUrl,
    month: cur.month,
    lastUpdated,
    methodology,
    months,
    industries: reg.industries.map((i) => ({ name: i.name, slug: i.slug })),
    countries: reg.countries.map((c) => ({ code: c.code, name: c.name, aliases: c.aliases })),
    totalCompanies: reg.companies.length,
    themes: input.themes,
    researchModels: input.researchModels,
    ...(input.released ? { released: input.released } : {}),
    ...(input.corrected && Object.keys(input.corrected).length ? { corrected: input.corrected } : {}),
    companyShards: shardCount(reg.companies.length),
    boards,
    examples,
    index: {
      name: SERVICE_NAME,
      apiVersion: 'v1',
      datasetVersion: cur.month,
      month: cur.month,
      lastUpdated,
      description: DESCRIPTION,
      links: api.links(urls, examples, cur.month),
      methodology,
      dataset: { totalCompanies: reg.companies.length, industries: industryNames, countries: countryNames, months },
      rateLimit: RATE_LIMIT_TEXT,
      ...(input.dataset ? { license: input.dataset.license, citation: citationText(input.dataset, SERVICE_NAME, cur.month, urls.home) } : {}),
      documentation: urls.docs,
      llmsTxt: urls.llmsTxt,
      openapi: urls.openapi,
      endpoints: api.endpoints(),
      ...(api.deployment ? { deployment: api.deployment } : {}),
    },
    health: {
      status: 'ok',
      apiVersion: 'v1',
      datasetVersion: cur.month,
      month: cur.month,
      lastUpdated,
      companies: reg.companies.length,
      industries: reg.industries.length,
      ...(input.release ? { leaderboards: input.release.leaderboards, rankedCompanies: input.release.rankedCompanies } : {}),
      ...(input.release?.acceptedDrop ? { acceptedDrop: input.release.acceptedDrop } : {}),
    },
  };
  return meta;
}
