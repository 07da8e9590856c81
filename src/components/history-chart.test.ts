/**
 * The profile page's history chart (history-chart.ts) writes its markup as plain strings,
 * marked once; it was first written with the `html` tag, one marked string per dot, label
 * and line. The tag's markup is kept here as the reference, over the same model
 * (chartModel): the two must give the same bytes for any history, months list (gaps
 * included), company and scope. Hand-checked below: what a company name turns into, the
 * numbers, the change label.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompanyProfile } from '../core/schemas/responses.ts';
import { FONT, H, L, PH, R0, S0, SCORE_TICKS, X_UNITS, chartModel, historyChart, ord, rankScale, ys, type HistoryChartProps } from './history-chart.ts';
import { attr, each, html } from './html.ts';

// The chart's markup written with the html tag, one marked string per dot, label and
// line, over the same model (chartModel: scales, ticks, texts).
const gridLine = (y: number) => html`<line x1="0" x2="100%" y1="${y}" y2="${y}"></line>`;
const tickLabel = (y: number, value: number) => html`<text x="-6" y="${y + 5}" text-anchor="end">${value}</text>`;

function byTag(props: HistoryChartProps): string {
  const { id, history, scope } = props;
  const { x, yr, path, ticks, rankTicks, last, change, title, desc, moved } = chartModel(props);
  const monthLabel = (month: string) => html`<text x="${x(month)}" y="${H - 8}" text-anchor="middle">${month}</text>`;
  const scoreDot = (h: CompanyProfile['history'][number]) => html`<circle cx="${x(h.month)}" cy="${ys(h.visibilityScore)}" r="3.5"></circle>`;
  const rankDot = (h: CompanyProfile['history'][number]) => html`<rect x="${x(h.month)}" y="${yr(h.rank) - 3.5}" width="7" height="7" transform="translate(-3.5)"></rect>`;
  const lastValues = (l: CompanyProfile['history'][number]) => {
    const lx = x(l.month), sy = ys(l.visibilityScore), ry = yr(l.rank);
    const movedLabel = () => html`<text class="value" x="${lx}" dx="11" y="${ry + (ry > R0 + PH / 2 ? -14 : 24)}">${moved > 0 ? html`&#9650;${moved}` : html`&#9660;${-moved}`}</text>`;
    return html`<g> <circle class="last" cx="${lx}" cy="${sy}" r="8" stroke-width="1.5"></circle> <circle class="last" cx="${lx}" cy="${ry}" r="8" stroke-width="1.5"></circle> <text class="value" x="${lx}" dx="11" y="${sy + 5}">${l.visibilityScore}</text> <text class="value" x="${lx}" dx="11" y="${ry + 5}">${ord(l.rank)}</text> ${moved !== 0 && movedLabel()} </g>`;
  };
  return String(html`<figure class="chart"> <svg width="100%" height="${H}" role="img" aria-labelledby="${attr(`${id}-t ${id}-d`)}" font-size="${FONT}"> <title id="${attr(`${id}-t`)}">${title}</title> <desc id="${attr(`${id}-d`)}">${desc}</desc> <text class="title" x="${2 - L}" y="${S0 - 14}">Visibility Score (0&#8211;100)</text> <text class="title" x="${2 - L}" y="${R0 - 14}">Rank in ${scope.length > 28 ? 'industry' : scope.split(' in ')[0]} (1 = top)</text> <g class="grid"> ${each(SCORE_TICKS, (v) => gridLine(ys(v)))} ${each(rankTicks, (r) => gridLine(yr(r)))} </g> <g class="axis"> ${each(SCORE_TICKS, (v) => tickLabel(ys(v), v))} ${each(rankTicks, (r) => tickLabel(yr(r), r))} ${each(ticks, monthLabel)} </g> <svg width="100%" height="${H}" viewBox="0 0 ${X_UNITS} ${H}" preserveAspectRatio="none" overflow="visible"> <path d="${attr(path((h) => ys(h.visibilityScore)))}" class="score" stroke-width="2.5" stroke-linejoin="round" vector-effect="non-scaling-stroke"></path> <path d="${attr(path((h) => yr(h.rank)))}" class="rank" stroke-width="2.5" stroke-linejoin="round" stroke-dasharray="6 3" vector-effect="non-scaling-stroke"></path> </svg> <g class="score-dot">${each(history, scoreDot)}</g> <g class="rank-dot">${each(history, rankDot)}</g> ${last && lastValues(last)} </svg> <figcaption>${title}. ${change} Ringed: the latest month. Solid line: score; dashed line: rank.</figcaption> </figure>`);
}

const MONTHS = ['2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06', '2025-07', '2025-08'];

describe('the history chart', () => {
  it('gives the bytes of the chart as first written with the html tag, for any history', () => {
    const entry = fc.record({ rank: fc.integer({ min: 1, max: 5000 }), tenths: fc.integer({ min: 0, max: 1000 }) });
    const text = fc.oneof(fc.string(), fc.constantFrom('A & "B" <c> \'d\'', 'Oil & Gas in Côte d’Ivoire', '</svg><script>', ''));
    fc.assert(
      fc.property(fc.subarray(MONTHS, { minLength: 1 }), fc.array(entry, { maxLength: 8 }), text, text, fc.string({ maxLength: 6 }), (months, entries, company, scope, id) => {
        // one entry per month of a subset of the dataset's months (a gap where one is left out)
        const history = entries.slice(0, months.length).map((e, i) => ({ month: months[i]!, rank: e.rank, visibilityScore: e.tenths / 10 })) as CompanyProfile['history'];
        const props: HistoryChartProps = { id, history, months: MONTHS, company, scope };
        expect(String(historyChart(props))).toBe(byTag(props));
      }),
      { numRuns: 400 },
    );
  });

  it('escapes the company and scope, writes the numbers as they are, and labels the last change', () => {
    const history = [
      { month: '2025-01', rank: 7, visibilityScore: 33.3 },
      { month: '2025-02', rank: 4, visibilityScore: 41.7 },
    ] as CompanyProfile['history'];
    const svg = String(historyChart({ id: 'chart-us', history, months: MONTHS.slice(0, 2), company: 'R&D "Labs"', scope: 'Aerospace in United States' }));
    expect(svg).toContain('<title id="chart-us-t">R&amp;D &quot;Labs&quot;: Visibility Score and rank in Aerospace in United States, by month</title>');
    // rank 7 -> 4: up 3, ringed at the last month; the score 41.7 written as it is
    expect(svg).toContain('Last change, 2025-01 to 2025-02: rank 7th to 4th (up 3); score 33.3 to 41.7.');
    expect(svg).toContain('>&#9650;3</text>');
    expect(svg).toContain('>41.7</text>');
    // 2 months: the first at the plot's left edge, the last at its right edge
    expect(svg).toContain('<circle cx="0%" ');
    expect(svg).toContain('<circle cx="100%" ');
  });
});

describe('the rank axis', () => {
  const spacing = (ticks: number[]) => new Set(ticks.slice(1).map((t, i) => t - ticks[i]!));
  it('has evenly spaced ticks on round steps, at most five, spanning the ranks', () => {
    expect(rankScale([1, 4, 6]).ticks).toEqual([2, 4, 6]);
    expect(rankScale([1, 2]).ticks).toEqual([1, 2]);
    expect(rankScale([3, 40]).ticks).toEqual([1, 10, 20, 30, 40]);
    expect(rankScale([120, 180]).ticks).toEqual([120, 140, 160, 180]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 2 }), (ranks) => {
        const lo = Math.min(...ranks), hi = Math.max(...ranks);
        fc.pre(lo < hi);
        const { ticks, yr } = rankScale(ranks);
        expect(ticks.length).toBeLessThanOrEqual(5);
        expect(spacing(ticks.filter((t) => t !== 1 || ticks[1] === 2)).size).toBe(1);
        // every rank inside the panel, the best at its top or below, the worst at its bottom
        for (const r of ranks) expect(yr(r)).toBeGreaterThanOrEqual(R0), expect(yr(r)).toBeLessThanOrEqual(R0 + PH);
        expect(yr(hi)).toBeGreaterThanOrEqual(R0 + PH * 0.5);
      }),
    );
  });
  it('draws one constant rank across the middle of the panel', () => {
    for (const rank of [1, 7, 250]) {
      const { ticks, yr } = rankScale([rank, rank, rank]);
      expect(ticks).toEqual([rank]);
      expect(yr(rank)).toBe(R0 + PH / 2);
    }
  });
});
