/**
 * Month results -> the view store of layout.ts (data-and-rules §3–§4). Pure: the
 * caller decides where the views go; big families are yielded one at a time.
 */
import type { Company, Registry } from '../registry.ts';
import { compareEntries, round1, type Board, type MonthResult } from '../score.ts';
import type { CompanyProfile } from '../schemas/responses.ts';
import { compareKeys, compareNames } from '../text.ts';
import { DEFAULT_COUNTRY, MODEL_NAMES, RATE_LIMIT_TEXT } from '../policy.ts';
import { siteUrls } from '../urls.ts';
import { citationText, type Dataset } from '../schemas/dataset.ts';
import { OVERALL, OVERALL_LABEL, shardCount, type ApiDescription, type BoardRow, type BoardView, type CompanyView, type MetaView, type SearchDoc, type SearchRankingsView } from './layout.ts';
import { methodologyShort } from './shape.ts';

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
  /** License and citation of the data (data/dataset.json or the defaults). */
  dataset?: Dataset;
  /** month -> first publication date, from the release ledger. */
  released?: Record<string, string>;
  /** The current month's state as the publish gate saw it (health reports it). */
  release?: { leaderboards: number; rankedCompanies: number; acceptedDrop?: string };
}

const ordinal = (n: number) => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
};

/** Leaderboards of month `i`, industry boards then the overall one, per country. */
export function* boardViews(input: SiteInput, i: number): Generator<{ country: string; industry: string; view: BoardView }> {
  const { registry: reg, results } = input;
  const cur = results[i]!;
  const prev = i > 0 ? results[i - 1]! : null;
  const prevRank = new Int32Array(reg.companies.length);
  const countryName = (code: string) => reg.countries.find((c) => c.code === code)!.name;
  const rowsWith = (order: Int32Array, prevOrder: Int32Array | undefined, row: (p: number, c: Company) => [string, number, number, number, number, number]) => {
    if (prevOrder) prevOrder.forEach((idx, p) => (prevRank[idx] = p + 1));
    const rows: BoardRow[] = [];
    order.forEach((idx, p) => {
      const c = reg.companies[idx]!;
      const [industry, score, mentions, hits, k, answers] = row(p, c);
      rows.push([c.slug, c.name, industry, score, mentions, prevRank[idx] || null, hits, k, answers]);
    });
    if (prevOrder) prevOrder.forEach((idx) => (prevRank[idx] = 0));
    return rows;
  };
  const countries = [...new Set([...cur.boards.values()].map((b) => b.country))];
  for (const code of countries) {
    for (const [key, b] of cur.boards) {
      if (b.country !== code) continue;
      const rows = rowsWith(b.order, prev?.boards.get(key)?.order, (p) => [b.industry, round1(b.hits[p]!, b.k), b.mentions[p]!, b.hits[p]!, b.k, b.answers]);
      yield { country: code, industry: b.industrySlug, view: { industry: b.industry, industrySlug: b.industrySlug, country: countryName(code), countryCode: code, month: cur.month, previousMonth: prev?.month ?? null, rows } };
    }
    const o = cur.overall.get(code)!;
    const rows = rowsWith(o.order, prev?.overall.get(code)?.order, (p) => {
      const b = o.board[p]!, q = o.pos[p]!;
      return [b.industry, round1(b.hits[q]!, b.k), b.mentions[q]!, b.hits[q]!, b.k, b.answers];
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
  if (per.has(DEFAULT_COUNTRY)) return DEFAULT_COUNTRY;
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

// "in the United States", "in the Netherlands", but "in France".
const inCountry = (country: string) => `in ${/^(United |Netherlands$|Philippines$|Czech Republic$)/.test(country) ? 'the ' : ''}${country}`;

/**
 * The profile's summary sentences (data-and-rules §3 "summary"): every number says which
 * rank it is (industry rank, overall rank), and the change is the industry rank's.
 * @param firstMonth the dataset's first month: a company absent from the previous month
 *   is only "new" after it.
 */
export function summary(p: Omit<CompanyProfile, 'summary' | 'methodology'>, hits: number, k: number, firstMonth: string): string {
  const first = `${p.company} ranks ${ordinal(p.industryRank)} of ${p.totalCompaniesInIndustry} ${p.industry} employers ${inCountry(p.country)} in ${p.month}, with a Visibility Score of ${p.visibilityScore}: AI assistants named it in ${hits} of ${k} model-and-theme combinations.`;
  const prev = p.history.length > 1 ? p.history[p.history.length - 2]! : null;
  let moved = '';
  if (prev) {
    const d = Math.abs(prev.rank - p.industryRank);
    moved =
      prev.rank === p.industryRank
        ? ` Its industry rank is unchanged since ${prev.month}.`
        : ` Its industry rank ${prev.rank > p.industryRank ? 'rose' : 'fell'} from ${ordinal(prev.rank)} in ${prev.month}, ${d} place${d === 1 ? '' : 's'} ${prev.rank > p.industryRank ? 'up' : 'down'}.`;
  } else if (p.month !== firstMonth) moved = ` It is new to this industry's leaderboard ${inCountry(p.country)} in ${p.month}.`;
  return `${first}${moved} Across all industries its overall rank ${inCountry(p.country)} is ${ordinal(p.overallRank)} of ${p.totalCompaniesInCountry}.`;
}

/** Company views (current month), in slug order. */
export function* companyViews(input: SiteInput, meta: MetaView): Generator<CompanyView> {
  const { registry: reg, results } = input;
  const cur = results[results.length - 1]!;
  const st = standings(cur);
  const methodology = methodologyShort(meta);
  const urls = siteUrls(meta.siteUrl);

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
          evidence: { combinationsNamed: b.hits[p]!, combinations: b.k, scoredAnswers: b.answers },
          modelScores: d.modelScores,
          themes: d.themes,
          otherIndustries: others.map((o) => ({ industry: o.board.industry, industryRank: o.pos + 1, visibilityScore: round1(o.board.hits[o.pos]!, o.board.k) })),
          history: wanted.get(`${code}/${b.industrySlug}`)!.get(c.idx)!,
          countries: countryNames,
          lastUpdated: meta.lastUpdated,
          profileUrl: urls.profile(c.slug),
          apiUrl: urls.company(c.slug, code === def ? null : code),
        };
        view.profiles[code] = { ...base, summary: summary(base, b.hits[p]!, b.k, results[0]!.month), methodology };
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
    `The overall ranking of a country places each company once, by its best industry entry. Rankings are rebuilt monthly; scores are rounded half-up to one decimal, ranks use exact fractions. ` +
    `Every leaderboard entry and profile shows the evidence behind its score: combinationsNamed of combinations (the score is their ratio), and the scoredAnswers of its industry and country that month, so a 100 made of 2 of 2 is told apart from one made of 24 of 24.`
  );
}

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
