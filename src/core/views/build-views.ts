/**
 * Month results -> the view store of layout.ts (data-and-rules §3–§4). Pure: the
 * caller decides where the views go; big families are yielded one at a time.
 */
import type { Company, Registry } from '../registry.ts';
import { compareEntries, round1, type Board, type MonthResult } from '../score.ts';
import type { CompanyProfile } from '../schemas/responses.ts';
import { compareKeys, compareNames } from '../text.ts';
import { MODEL_NAMES } from '../aggregate.ts';
import { OVERALL, OVERALL_LABEL, type BoardRow, type BoardView, type CompanyView, type MetaView, type SearchDoc, type SearchRankingsView } from './layout.ts';
import { leadersBody, methodologyShort, profileUrl, rankingsBody } from './shape.ts';
import { profileSummary } from './summary.ts';

export const SERVICE_NAME = 'Employer Visibility Index';
export const METHODOLOGY_VERSION = '1.0';

export interface SiteInput {
  registry: Registry;
  /** One result per dataset month, oldest first; the last carries board details. */
  results: MonthResult[];
  siteUrl: string;
  lastUpdated: string;
  themes: string[];
  researchModels: string[];
}

/** Leaderboards of month `i`, industry boards then the overall one, per country. */
export function* boardViews(input: SiteInput, i: number): Generator<{ country: string; industry: string; view: BoardView }> {
  const { registry: reg, results } = input;
  const cur = results[i]!;
  const prev = i > 0 ? results[i - 1]! : null;
  const prevRank = new Int32Array(reg.companies.length);
  const countryName = (code: string) => reg.countries.find((c) => c.code === code)!.name;
  const rowsWith = (order: Int32Array, prevOrder: Int32Array | undefined, row: (p: number, c: Company) => [string, number, number]) => {
    if (prevOrder) prevOrder.forEach((idx, p) => (prevRank[idx] = p + 1));
    const rows: BoardRow[] = [];
    order.forEach((idx, p) => {
      const c = reg.companies[idx]!;
      const [industry, score, mentions] = row(p, c);
      rows.push([c.slug, c.name, industry, score, mentions, prevRank[idx] || null]);
    });
    if (prevOrder) prevOrder.forEach((idx) => (prevRank[idx] = 0));
    return rows;
  };
  const countries = [...new Set([...cur.boards.values()].map((b) => b.country))];
  for (const code of countries) {
    for (const [key, b] of cur.boards) {
      if (b.country !== code) continue;
      const rows = rowsWith(b.order, prev?.boards.get(key)?.order, (p) => [b.industry, round1(b.hits[p]!, b.k), b.mentions[p]!]);
      yield { country: code, industry: b.industrySlug, view: { industry: b.industry, industrySlug: b.industrySlug, country: countryName(code), countryCode: code, month: cur.month, previousMonth: prev?.month ?? null, rows } };
    }
    const o = cur.overall.get(code)!;
    const rows = rowsWith(o.order, prev?.overall.get(code)?.order, (p) => {
      const b = o.board[p]!, q = o.pos[p]!;
      return [b.industry, round1(b.hits[q]!, b.k), b.mentions[q]!];
    });
    yield { country: code, industry: OVERALL, view: { industry: OVERALL_LABEL, industrySlug: OVERALL, country: countryName(code), countryCode: code, month: cur.month, previousMonth: prev?.month ?? null, rows } };
  }
}

interface Standing {
  board: Board;
  pos: number;
}

/** Where each company stands in the current month: per country, its entries and overall rank. */
function standings(cur: MonthResult) {
  const byCompany = new Map<number, Map<string, { entries: Standing[]; overallRank: number; total: number }>>();
  for (const [code, o] of cur.overall) {
    o.order.forEach((idx, p) => {
      let m = byCompany.get(idx);
      if (!m) byCompany.set(idx, (m = new Map()));
      m.set(code, { entries: [{ board: o.board[p]!, pos: o.pos[p]! }], overallRank: p + 1, total: o.order.length });
    });
  }
  for (const b of cur.boards.values())
    b.order.forEach((idx, pos) => {
      const s = byCompany.get(idx)!.get(b.country)!;
      if (s.entries[0]!.board !== b) s.entries.push({ board: b, pos });
    });
  return byCompany;
}

function defaultCountry(reg: Registry, per: Map<string, { entries: Standing[] }>): string {
  if (per.has('us')) return 'us';
  let best: [string, Standing] | null = null;
  for (const [code, s] of per) {
    const e = s.entries[0]!;
    if (!best) best = [code, e];
    else {
      const [bc, be] = best;
      const d = be.board.hits[be.pos]! * e.board.k - e.board.hits[e.pos]! * be.board.k;
      const better = d < 0 || (d === 0 && (e.board.mentions[e.pos]! > be.board.mentions[be.pos]! || (e.board.mentions[e.pos] === be.board.mentions[be.pos] && compareNames(name(reg, code), name(reg, bc)) < 0)));
      if (better) best = [code, e];
    }
  }
  return best![0];
}

const name = (reg: Registry, code: string) => reg.countries.find((c) => c.code === code)!.name;

/** Company views (current month), in slug order. */
export function* companyViews(input: SiteInput, meta: MetaView): Generator<CompanyView> {
  const { registry: reg, results } = input;
  const cur = results[results.length - 1]!;
  const st = standings(cur);
  const methodology = methodologyShort(meta);

  // History: per board key, the companies whose profile shows that board.
  const wanted = new Map<string, Map<number, CompanyProfile['history']>>();
  for (const [idx, per] of st)
    for (const [code, s] of per) {
      const key = `${code}/${s.entries[0]!.board.industrySlug}`;
      let m = wanted.get(key);
      if (!m) wanted.set(key, (m = new Map()));
      m.set(idx, []);
    }
  for (const r of results)
    for (const [key, b] of r.boards) {
      const m = wanted.get(key);
      if (!m) continue;
      b.order.forEach((idx, p) => m.get(idx)?.push({ month: r.month, rank: p + 1, visibilityScore: round1(b.hits[p]!, b.k) }));
    }

  for (const c of reg.companies) {
    const per = st.get(c.idx);
    const view: CompanyView = { slug: c.slug, company: c.name, website: c.website, industries: c.industries, defaultCountry: null, profiles: {} };
    if (per) {
      const def = defaultCountry(reg, per);
      view.defaultCountry = def;
      const countryNames = [...per.keys()].map((k) => name(reg, k)).sort(compareNames);
      for (const code of [...per.keys()].sort(compareKeys)) {
        const s = per.get(code)!;
        const [best, ...others] = s.entries;
        const b = best!.board, p = best!.pos;
        const d = b.detail!.get(c.idx)!;
        others.sort((x, y) => compareEntries(x.board, x.pos, y.board, y.pos));
        const base: Omit<CompanyProfile, 'summary' | 'methodology'> = {
          company: c.name,
          slug: c.slug,
          website: c.website,
          industry: b.industry,
          country: name(reg, code),
          month: cur.month,
          visibilityScore: round1(b.hits[p]!, b.k),
          overallRank: s.overallRank,
          totalCompaniesInCountry: s.total,
          industryRank: p + 1,
          totalCompaniesInIndustry: b.order.length,
          mentionCount: b.mentions[p]!,
          modelScores: d.modelScores,
          themes: d.themes,
          otherIndustries: others.map((o) => ({ industry: o.board.industry, industryRank: o.pos + 1, visibilityScore: round1(o.board.hits[o.pos]!, o.board.k) })),
          history: wanted.get(`${code}/${b.industrySlug}`)!.get(c.idx)!,
          countries: countryNames,
          lastUpdated: meta.lastUpdated,
          profileUrl: profileUrl(meta, c.slug),
          apiUrl: `${meta.siteUrl}/api/v1/company/${c.slug}${code === def ? '' : `?country=${code}`}`,
        };
        view.profiles[code] = { ...base, summary: profileSummary(base, b.hits[p]!, b.k, results.length > 1 ? results[results.length - 2]!.month : null), methodology };
      }
    }
    yield view;
  }
}

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

const DESCRIPTION =
  'A free, public, read-only JSON API ranking companies by how visible they are as employers in the answers of AI assistants. ' +
  'Each month, candidate-style questions are put to AI assistants for every industry and country; a company\'s Visibility Score is the share of (AI model x candidate-experience theme) combinations in which it was named.';

export function methodologyDescription(themes: string[], research: string[]): string {
  return (
    `The Visibility Score (0-100) of a company in one industry and one country is 100 x the share of combinations of (AI model x candidate-experience theme) in which AI-generated answers to candidate-style questions named the company. ` +
    `Scored models: ${MODEL_NAMES.join(', ')}. ` +
    (research.length ? `Answers of research models (${research.join(', ')}) are collected but never scored. ` : '') +
    (themes.length ? `Themes in the data: ${themes.join(', ')}. ` : '') +
    `Ranks: by score, then mention count (distinct answers naming the company), then company name, then slug; every registry company of the industry and country is ranked, score 0 included. ` +
    `The overall ranking of a country places each company once, by its best industry entry. Rankings are rebuilt monthly; scores are rounded half-up to one decimal, ranks use exact fractions.`
  );
}

/** The meta view, with the index and health bodies it carries. */
export function metaView(input: SiteInput): MetaView {
  const { registry: reg, results, siteUrl, lastUpdated } = input;
  const cur = results[results.length - 1]!;
  const months = results.map((r) => r.month);
  const boards: MetaView['boards'] = {};
  for (const r of results) {
    const m: Record<string, string[]> = {};
    for (const b of r.boards.values()) (m[b.country] ??= []).push(b.industrySlug);
    boards[r.month] = m;
  }
  const exCountry = cur.overall.has('us') ? 'us' : ([...cur.overall.keys()][0] ?? 'us');
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
  const api = `${siteUrl}/api/v1`;
  const methodology = {
    version: METHODOLOGY_VERSION,
    url: `${siteUrl}/api-docs/#methodology`,
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
    boards,
    examples,
    index: {
      name: SERVICE_NAME,
      apiVersion: 'v1',
      datasetVersion: cur.month,
      month: cur.month,
      lastUpdated,
      description: DESCRIPTION,
      links: {
        self: api,
        health: `${api}/health`,
        search: `${api}/search?q=${encodeURIComponent(examples.search)}`,
        company: `${api}/company/${examples.company}`,
        rankings: `${api}/rankings?industry=${examples.industry}&country=${examples.country}`,
        leaders: `${api}/rankings/${examples.industry}/${examples.country}`,
        compare: `${api}/compare?companies=${examples.compare.join(',')}`,
        openapi: `${api}/openapi.json`,
        documentation: `${siteUrl}/api-docs/`,
      },
      methodology,
      dataset: { totalCompanies: reg.companies.length, industries: industryNames, countries: countryNames, months },
      rateLimit: '60 requests per minute per IP address; beyond it HTTP 429 with a Retry-After header. Responses are cached by a CDN for 30 to 60 minutes.',
      documentation: `${siteUrl}/api-docs/`,
      llmsTxt: `${siteUrl}/llms.txt`,
      openapi: `${api}/openapi.json`,
      endpoints: {
        'GET /api/v1': 'Dataset index: valid industries, countries and months, methodology, example links.',
        'GET /api/v1/health': 'Liveness and freshness check.',
        'GET /api/v1/search': 'Find companies by approximate name (q, country, limit 1-20) with each one\'s latest ranking.',
        'GET /api/v1/company/{slug}': 'Company profile: score, ranks, model and theme scores, other industries, history (country).',
        'GET /api/v1/rankings': 'Leaderboards (industry, country, month, limit 1-100, page, sort: rank|score|mentions|name|change).',
        'GET /api/v1/rankings/{industry}/{country}': 'Compact current leaders of one industry and country (limit, default 10).',
        'GET /api/v1/compare': 'Side-by-side profiles of 2 to 5 companies (companies=slug,slug; country).',
        'GET /api/v1/openapi.json': 'OpenAPI 3.1 description of this API.',
      },
    },
    health: {
      status: 'ok',
      apiVersion: 'v1',
      datasetVersion: cur.month,
      month: cur.month,
      lastUpdated,
      companies: reg.companies.length,
      industries: reg.industries.length,
    },
  };
  return meta;
}

/** Default responses written as static files, so that a pure static host answers every endpoint's default form. */
export function staticDefaults(meta: MetaView, currentBoards: BoardView[], companies: Iterable<CompanyView>): Generator<[string, unknown]> {
  return (function* () {
    yield ['api/v1/index.json', meta.index];
    yield ['api/v1/health.json', meta.health];
    for (const b of currentBoards) {
      if (b.industrySlug === OVERALL) {
        if (b.countryCode === 'us') yield ['api/v1/rankings.json', rankingsBody(meta, b)];
      } else yield [`api/v1/rankings/${b.industrySlug}/${b.countryCode}.json`, leadersBody(meta, b)];
    }
    for (const v of companies) if (v.defaultCountry) yield [`api/v1/company/${v.slug}.json`, v.profiles[v.defaultCountry]];
  })();
}
