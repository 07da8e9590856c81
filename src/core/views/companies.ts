/** Company views of the current month (data-and-rules §3): every profile of every company, in slug order. */
import type { Registry } from '../registry.ts';
import { compareEntries, round1, type Board, type MonthResult } from '../score.ts';
import type { CompanyProfile } from '../schemas/responses.ts';
import { compareKeys, compareNames } from '../text.ts';
import { DEFAULT_COUNTRY } from '../policy.ts';
import { siteUrls } from '../urls.ts';
import type { CompanyView, MetaView } from './layout.ts';
import { methodologyShort } from './shape.ts';
import { summary } from './copy.ts';
import type { SiteInput } from './site-input.ts';

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

function defaultCountry(name: (code: string) => string, per: Map<string, { entries: Standing[] }>): string {
  if (per.has(DEFAULT_COUNTRY)) return DEFAULT_COUNTRY;
  let best: [string, Standing] | null = null;
  for (const [code, s] of per) {
    const e = s.entries[0]!;
    if (!best) best = [code, e];
    else {
      const [bc, be] = best;
      const d = be.board.hits[be.pos]! * e.board.k - e.board.hits[e.pos]! * be.board.k;
      const better = d < 0 || (d === 0 && (e.board.mentions[e.pos]! > be.board.mentions[be.pos]! || (e.board.mentions[e.pos] === be.board.mentions[be.pos] && compareNames(name(code), name(bc)) < 0)));
      if (better) best = [code, e];
    }
  }
  return best![0];
}

/** A country's display name by its code. */
function countryNames(reg: Registry): (code: string) => string {
  const names = new Map(reg.countries.map((c) => [c.code, c.name]));
  return (code) => names.get(code)!;
}

/**
 * Company views (current month), in slug order. `past`: the views of the input's last
 * month as a past month (service-spec §4 with `month`), whose profiles carry no
 * `lastUpdated` (the API adds it when it shapes them).
 */
export function* companyViews(input: SiteInput, meta: MetaView, past = false): Generator<CompanyView> {
  const { registry: reg, results } = input;
  const cur = results[results.length - 1]!;
  const st = standings(cur);
  const methodology = methodologyShort(meta);
  const urls = siteUrls(meta.siteUrl);
  const name = countryNames(reg);

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
      const def = defaultCountry(name, per);
      view.defaultCountry = def;
      const countryNames = [...per.keys()].map(name).sort(compareNames);
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
          country: name(code),
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
          ...(past ? {} : { lastUpdated: meta.lastUpdated }),
          profileUrl: urls.profile(c.slug),
          apiUrl: urls.company(c.slug, code === def ? null : code),
        } as Omit<CompanyProfile, 'summary' | 'methodology'>;
        view.profiles[code] = { ...base, summary: summary(base, b.hits[p]!, b.k, results[0]!.month), methodology };
      }
    }
    yield view;
  }
}
