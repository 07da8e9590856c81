/** Leaderboard views (data-and-rules §3): one per month, country and industry, plus each country's overall one. */
import type { Company } from '../registry.ts';
import { round1 } from '../score.ts';
import { OVERALL, OVERALL_LABEL, type BoardRow, type BoardView } from './layout.ts';
import type { SiteInput } from './site-input.ts';

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
