/**
 * Visibility Score and industry rank by month as inline SVG, drawn at build time (no
 * script): two panels on one month axis, axes titled, the latest values written out
 * and the last change ringed. Months are placed on the dataset's own timeline, so a
 * month without data leaves a gap. The viewBox is narrow (400 units) and the text
 * 17 units, so that text stays at least 12 px down to a 288 px wide column.
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

export const W = 400, L = 52, R = 56, FONT = 17;
export const PH = 110; // panel height
export const S0 = 34, R0 = S0 + PH + 46; // top of the score panel, of the rank panel
export const H = R0 + PH + 34;
export const SCORE_TICKS = [0, 50, 100];
const r1 = (n: number) => Math.round(n * 10) / 10;
export const ys = (v: number) => r1(S0 + (1 - v / 100) * PH);
export const ord = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
// The markup is made as plain strings and marked once, at the end: the same bytes as the
// `html` tag gave (a text escaped by Astro's escapeHTML, a number as String writes it, an
// attribute value as `attr` writes it), without an HTMLString per dot, label and line.
const text = (v: string) => escapeHTML(v);
const attrValue = (v: string) => String(attr(v)); // (not html.ts's attrText, which is for template attributes)

/**
 * `String(n)`, the same text, kept per value with one decimal (the coordinates are rounded
 * to tenths): a chart writes ~300 numbers, and writing a fraction as text was most of a
 * chart's cost (28,477 charts of a reference build: BENCHMARKS.md).
 */
const NUM_SPAN = 20000;
const numTexts: (string | undefined)[] = [];
function num(n: number): string {
  const t = Math.round(n * 10);
  if (t / 10 !== n || t < -NUM_SPAN || t >= NUM_SPAN) return String(n);
  return (numTexts[t + NUM_SPAN] ??= String(n));
}
const gridLine = (y: number) => `<line x1="${L}" x2="${W - R}" y1="${num(y)}" y2="${num(y)}"></line>`;
const tickLabel = (y: number, value: number) => `<text x="${L - 6}" y="${num(y + 6)}" text-anchor="end">${num(value)}</text>`;

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
  const x = (month: string) => r1(L + (Math.max(place(month), 0) / span) * (W - L - R));
  const maxRank = Math.max(2, ...history.map((h) => h.rank));
  const yr = (r: number) => r1(R0 + ((r - 1) / (maxRank - 1)) * PH);
  const path = (y: (h: CompanyProfile['history'][number]) => number) => {
    let d = '';
    history.forEach((h, i) => {
      const prev = history[i - 1];
      const joined = prev !== undefined && place(h.month) === place(prev.month) + 1;
      d += `${joined ? 'L' : 'M'}${num(x(h.month))} ${num(y(h))}`;
    });
    return d;
  };
  const step = Math.ceil(months.length / 4);
  // Counted from the latest month, so that it is always labelled and labels stay evenly spaced.
  const ticks = months.filter((_, i) => (months.length - 1 - i) % step === 0);
  const rankTicks = [...new Set([1, Math.round((1 + maxRank) / 2), maxRank])];
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
  for (const month of ticks) axis += `<text x="${num(x(month))}" y="${H - 8}" text-anchor="middle">${text(month)}</text>`;
  let scoreDots = '';
  let rankDots = '';
  for (const h of history) {
    const hx = x(h.month);
    scoreDots += `<circle cx="${num(hx)}" cy="${num(ys(h.visibilityScore))}" r="3.5"></circle>`;
    rankDots += `<rect x="${num(hx - 3.5)}" y="${num(yr(h.rank) - 3.5)}" width="7" height="7"></rect>`;
  }
  let lastValues = '';
  if (last) {
    const lx = x(last.month), sy = ys(last.visibilityScore), ry = yr(last.rank);
    const movedLabel = moved !== 0 ? `<text class="value" x="${num(lx + 11)}" y="${num(ry + (ry > R0 + PH / 2 ? -14 : 26))}">${moved > 0 ? `&#9650;${moved}` : `&#9660;${-moved}`}</text>` : '';
    lastValues = `<g> <circle class="last" cx="${num(lx)}" cy="${num(sy)}" r="8" stroke-width="1.5"></circle> <circle class="last" cx="${num(lx)}" cy="${num(ry)}" r="8" stroke-width="1.5"></circle> <text class="value" x="${num(lx + 11)}" y="${num(sy + 6)}">${num(last.visibilityScore)}</text> <text class="value" x="${num(lx + 11)}" y="${num(ry + 6)}">${text(ord(last.rank))}</text> ${movedLabel} </g>`;
  }
  const rankOf = scope.length > 28 ? 'industry' : scope.split(' in ')[0]!;
  const titleText = text(title);
  return markHTMLString(
    `<figure class="chart"> <svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="${attrValue(`${id}-t ${id}-d`)}" font-size="${FONT}"> <title id="${attrValue(`${id}-t`)}">${titleText}</title> <desc id="${attrValue(`${id}-d`)}">${text(desc)}</desc> <text class="title" x="2" y="${S0 - 14}">Visibility Score (0&#8211;100)</text> <text class="title" x="2" y="${R0 - 14}">Rank in ${text(rankOf)} (1 = top)</text> <g class="grid"> ${grid} </g> <g class="axis"> ${axis} </g> <path d="${attrValue(path((h) => ys(h.visibilityScore)))}" class="score" stroke-width="2.5" stroke-linejoin="round"></path> <path d="${attrValue(path((h) => yr(h.rank)))}" class="rank" stroke-width="2.5" stroke-linejoin="round" stroke-dasharray="6 3"></path> <g class="score-dot">${scoreDots}</g> <g class="rank-dot">${rankDots}</g> ${lastValues} </svg> <figcaption>${titleText}. ${text(change)} Ringed: the latest month. Solid line: score; dashed line: rank.</figcaption> </figure>`,
  ) as Html;
}
