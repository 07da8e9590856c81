/**
 * Visibility Score and industry rank by month as inline SVG, drawn at build time (no
 * script): two panels on one month axis, axes titled, the latest values written out
 * and the last change ringed. Months are placed on the dataset's own timeline, so a
 * month without data leaves a gap. The chart fills its column's width and its text
 * stays at FONT px, smaller than the body text and at least 12 px at any width.
 *
 * A block the profile page shows once per country (up to 8 a page, 10,000 pages): written
 * as one string instead of an Astro component, whose instance and template expressions
 * cost more than the chart's own arithmetic; and as plain strings marked once rather than
 * with html.ts's tag per piece (see below), with the same bytes as html.ts writes (its
 * notes), which the test checks against the tag's version.
 */
import type { CompanyProfile } from '../core/schemas/responses.ts';
import { escapeHTML, markHTMLString } from 'astro/runtime/server/index.js';
import { attr } from './html.ts';
import type { Html } from './html.ts';

export interface HistoryChartProps {
  id: string;
  history: CompanyProfile['history'];
  /** Dataset months, oldest first. */
  months: string[];
  /** What the rank is within, e.g. "Banking in France". */
  scope: string;
  company: string;
}

/**
 * The SVG is the plot area: as wide as the column less L px on the left (the rank and score
 * labels) and R px on the right (the latest values), drawn outside it (`overflow: visible`,
 * site.css). It has no viewBox, so its text is FONT px at any width; months are placed by
 * percentages of the plot's width, and the two lines, drawn in a nested SVG stretched to
 * that width (X_UNITS wide), keep their stroke (`non-scaling-stroke`).
 */
export const L = 46, R = 52, FONT = 14, X_UNITS = 1000;
export const PH = 110; // panel height
export const S0 = 34, R0 = S0 + PH + 46; // top of the score panel, of the rank panel
export const H = R0 + PH + 34;
export const SCORE_TICKS = [0, 50, 100];
const r1 = (n: number) => Math.round(n * 10) / 10;
export const ys = (v: number) => r1(S0 + (1 - v / 100) * PH);
export const ord = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

/**
 * The rank panel's scale: evenly spaced ticks on round steps (1, 2, 5, 10, 20, 50 …; at most
 * five), the panel spanning the ticks around the ranks shown, rank 1 at the top when shown;
 * one constant rank is drawn across the middle of the panel.
 * @example rankScale([1, 4, 6]).ticks // [2, 4, 6]
 */
export function rankScale(ranks: readonly number[]): { ticks: number[]; yr: (rank: number) => number } {
  const lo = Math.min(...ranks), hi = Math.max(...ranks);
  if (!Number.isFinite(lo) || lo === hi) {
    const middle = r1(R0 + PH / 2);
    return { ticks: Number.isFinite(lo) ? [lo] : [], yr: () => middle };
  }
  // The steps 1, 2, 5, 10, 20, 50 … in turn, until at most four intervals span the ranks.
  let step = 1;
  for (let k = 1; Math.ceil(hi / step) - Math.floor(lo / step) > 4; k++) step = [1, 2, 5][k % 3]! * 10 ** Math.floor(k / 3);
  const first = Math.floor(lo / step) * step;
  const top = Math.max(first, 1), bottom = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let t = first; t <= bottom; t += step) if (t >= 1) ticks.push(t);
  // Rank 1 labelled too when the first round tick is far enough below it.
  if (first === 0 && step >= 5) ticks.unshift(1);
  return { ticks, yr: (rank) => r1(R0 + ((rank - top) / (bottom - top)) * PH) };
}
// The markup is made as plain strings and marked once, at the end: the same bytes as the
// `html` tag gave (a text escaped by Astro's escapeHTML, a number as String writes it, an
// attribute value as `attr` writes it), without an HTMLString per dot, label and line.
const text = (v: string) => escapeHTML(v);
const attrValue = (v: string) => String(attr(v)); // (not html.ts's attrText, which is for template attributes)

/**
 * `String(n)`, the same text, kept per value with one decimal (the coordinates are rounded
 * to tenths): a chart writes hundreds of numbers, and writing a fraction as text was most of
 * a chart's cost.
 */
const NUM_SPAN = 20000;
const numTexts: (string | undefined)[] = [];
function num(n: number): string {
  const t = Math.round(n * 10);
  if (t / 10 !== n || t < -NUM_SPAN || t >= NUM_SPAN) return String(n);
  return (numTexts[t + NUM_SPAN] ??= String(n));
}
const gridLine = (y: number) => `<line x1="0" x2="100%" y1="${num(y)}" y2="${num(y)}"></line>`;
const tickLabel = (y: number, value: number) => `<text x="-6" y="${num(y + 5)}" text-anchor="end">${num(value)}</text>`;

/** Each month's place on the dataset's timeline, by month (the months list is the same for every chart of a build). */
const placesOf = new WeakMap<string[], Map<string, number>>();
function places(months: string[]): Map<string, number> {
  let at = placesOf.get(months);
  if (!at) placesOf.set(months, (at = new Map(months.map((month, i) => [month, i]))));
  return at;
}

/**
 * What a chart shows, before it is written as markup: its scales, the path of a series, the
 * ticks, the last two entries and the texts (the test's reference writer uses it too).
 */
export function chartModel({ history, months, scope, company }: Omit<HistoryChartProps, 'id'>) {
  const span = Math.max(months.length - 1, 1);
  const at = places(months);
  const place = (month: string) => at.get(month) ?? -1;
  /** A month's place across the plot, from 0 to 1 (tenths of a percent). */
  const share = (month: string) => Math.round((Math.max(place(month), 0) / span) * 1000) / 1000;
  /** A month's x: as a percentage of the plot's width, in the nested SVG's units. */
  const x = (month: string) => `${num(r1(share(month) * 100))}%`;
  const xu = (month: string) => r1(share(month) * X_UNITS);
  const { ticks: rankTicks, yr } = rankScale(history.map((h) => h.rank));
  const path = (y: (h: CompanyProfile['history'][number]) => number) => {
    let d = '';
    history.forEach((h, i) => {
      const prev = history[i - 1];
      const joined = prev !== undefined && place(h.month) === place(prev.month) + 1;
      d += `${joined ? 'L' : 'M'}${num(xu(h.month))} ${num(y(h))}`;
    });
    return d;
  };
  const step = Math.ceil(months.length / 4);
  // Counted from the latest month, so that it is always labelled and labels stay evenly spaced.
  const ticks = months.filter((_, i) => (months.length - 1 - i) % step === 0);
  const last = history[history.length - 1];
  const before = history[history.length - 2];
  const change = !last
    ? 'No data.'
    : !before
      ? `Only one month of data: ${last.month}, score ${last.visibilityScore}, rank ${ord(last.rank)}.`
      : last.rank === before.rank
        ? `Last change, ${before.month} to ${last.month}: rank unchanged at ${ord(last.rank)}; score ${before.visibilityScore} to ${last.visibilityScore}.`
        : `Last change, ${before.month} to ${last.month}: rank ${ord(before.rank)} to ${ord(last.rank)} (${before.rank > last.rank ? 'up' : 'down'} ${Math.abs(before.rank - last.rank)}); score ${before.visibilityScore} to ${last.visibilityScore}.`;
  const title = `${company}: Visibility Score and rank in ${scope}, by month`;
  const desc = `${history.length} month${history.length === 1 ? '' : 's'} with data, ${history[0]?.month ?? ''} to ${last?.month ?? ''}. ${change}`;
  const moved = last && before ? before.rank - last.rank : 0;
  return { x, yr, path, ticks, rankTicks, last, change, title, desc, moved };
}

export function historyChart(props: HistoryChartProps): Html {
  const { id, history, scope } = props;
  const { x, yr, path, ticks, rankTicks, last, change, title, desc, moved } = chartModel(props);
  // (a space between the lists, as the template had between its list expressions)
  let grid = '';
  for (const v of SCORE_TICKS) grid += gridLine(ys(v));
  grid += ' ';
  for (const r of rankTicks) grid += gridLine(yr(r));
  let axis = '';
  for (const v of SCORE_TICKS) axis += tickLabel(ys(v), v);
  axis += ' ';
  for (const r of rankTicks) axis += tickLabel(yr(r), r);
  axis += ' ';
  for (const month of ticks) axis += `<text x="${x(month)}" y="${H - 8}" text-anchor="middle">${text(month)}</text>`;
  let scoreDots = '';
  let rankDots = '';
  for (const h of history) {
    const hx = x(h.month);
    scoreDots += `<circle cx="${hx}" cy="${num(ys(h.visibilityScore))}" r="3.5"></circle>`;
    rankDots += `<rect x="${hx}" y="${num(yr(h.rank) - 3.5)}" width="7" height="7" transform="translate(-3.5)"></rect>`;
  }
  let lastValues = '';
  if (last) {
    const lx = x(last.month), sy = ys(last.visibilityScore), ry = yr(last.rank);
    const movedLabel = moved !== 0 ? `<text class="value" x="${lx}" dx="11" y="${num(ry + (ry > R0 + PH / 2 ? -14 : 24))}">${moved > 0 ? `&#9650;${moved}` : `&#9660;${-moved}`}</text>` : '';
    lastValues = `<g> <circle class="last" cx="${lx}" cy="${num(sy)}" r="8" stroke-width="1.5"></circle> <circle class="last" cx="${lx}" cy="${num(ry)}" r="8" stroke-width="1.5"></circle> <text class="value" x="${lx}" dx="11" y="${num(sy + 5)}">${num(last.visibilityScore)}</text> <text class="value" x="${lx}" dx="11" y="${num(ry + 5)}">${text(ord(last.rank))}</text> ${movedLabel} </g>`;
  }
  const rankOf = scope.length > 28 ? 'industry' : scope.split(' in ')[0]!;
  const titleText = text(title);
  return markHTMLString(
    `<figure class="chart"> <svg width="100%" height="${H}" role="img" aria-labelledby="${attrValue(`${id}-t ${id}-d`)}" font-size="${FONT}"> <title id="${attrValue(`${id}-t`)}">${titleText}</title> <desc id="${attrValue(`${id}-d`)}">${text(desc)}</desc> <text class="title" x="${2 - L}" y="${S0 - 14}">Visibility Score (0&#8211;100)</text> <text class="title" x="${2 - L}" y="${R0 - 14}">Rank in ${text(rankOf)} (1 = top)</text> <g class="grid"> ${grid} </g> <g class="axis"> ${axis} </g> <svg width="100%" height="${H}" viewBox="0 0 ${X_UNITS} ${H}" preserveAspectRatio="none" overflow="visible"> <path d="${attrValue(path((h) => ys(h.visibilityScore)))}" class="score" stroke-width="2.5" stroke-linejoin="round" vector-effect="non-scaling-stroke"></path> <path d="${attrValue(path((h) => yr(h.rank)))}" class="rank" stroke-width="2.5" stroke-linejoin="round" stroke-dasharray="6 3" vector-effect="non-scaling-stroke"></path> </svg> <g class="score-dot">${scoreDots}</g> <g class="rank-dot">${rankDots}</g> ${lastValues} </svg> <figcaption>${titleText}. ${text(change)} Ringed: the latest month. Solid line: score; dashed line: rank.</figcaption> </figure>`,
  ) as Html;
}
