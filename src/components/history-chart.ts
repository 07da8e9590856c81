/**
 * Visibility Score and industry rank by month as inline SVG, drawn at build time (no
 * script): two panels on one month axis, axes titled, the latest values written out
 * and the last change ringed. Months are placed on the dataset's own timeline, so a
 * month without data leaves a gap. The viewBox is narrow (400 units) and the text
 * 17 units, so that text stays at least 12 px down to a 288 px wide column.
 *
 * A block the profile page shows once per country (up to 8 a page, 10,000 pages): written
 * as one string with html.ts (see its notes) instead of an Astro component, whose instance
 * and template expressions cost more than the chart's own arithmetic.
 */
import type { CompanyProfile } from '../core/schemas/responses.ts';
import { attr, each, html } from './html.ts';
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

const W = 400, L = 52, R = 56, FONT = 17;
const PH = 110; // panel height
const S0 = 34, R0 = S0 + PH + 46; // top of the score panel, of the rank panel
const H = R0 + PH + 34;
const SCORE_TICKS = [0, 50, 100];
const r1 = (n: number) => Math.round(n * 10) / 10;
const ys = (v: number) => r1(S0 + (1 - v / 100) * PH);
const ord = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
const gridLine = (y: number) => html`<line x1="${L}" x2="${W - R}" y1="${y}" y2="${y}"></line>`;
const tickLabel = (y: number, value: number) => html`<text x="${L - 6}" y="${y + 6}" text-anchor="end">${value}</text>`;

/** Each month's place on the dataset's timeline, by month (the months list is the same for every chart of a build). */
const placesOf = new WeakMap<string[], Map<string, number>>();
function places(months: string[]): Map<string, number> {
  let at = placesOf.get(months);
  if (!at) placesOf.set(months, (at = new Map(months.map((month, i) => [month, i]))));
  return at;
}

export function historyChart({ id, history, months, scope, company }: HistoryChartProps): Html {
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
      d += `${joined ? 'L' : 'M'}${x(h.month)} ${y(h)}`;
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
  const monthLabel = (month: string) => html`<text x="${x(month)}" y="${H - 8}" text-anchor="middle">${month}</text>`;
  const scoreDot = (h: CompanyProfile['history'][number]) => html`<circle cx="${x(h.month)}" cy="${ys(h.visibilityScore)}" r="3.5"></circle>`;
  const rankDot = (h: CompanyProfile['history'][number]) => html`<rect x="${x(h.month) - 3.5}" y="${yr(h.rank) - 3.5}" width="7" height="7"></rect>`;
  const lastValues = (l: CompanyProfile['history'][number]) => {
    const lx = x(l.month), sy = ys(l.visibilityScore), ry = yr(l.rank);
    const movedLabel = () => html`<text class="value" x="${lx + 11}" y="${ry + (ry > R0 + PH / 2 ? -14 : 26)}">${moved > 0 ? `▲${moved}` : `▼${-moved}`}</text>`;
    return html`<g> <circle class="last" cx="${lx}" cy="${sy}" r="8" stroke-width="1.5"></circle> <circle class="last" cx="${lx}" cy="${ry}" r="8" stroke-width="1.5"></circle> <text class="value" x="${lx + 11}" y="${sy + 6}">${l.visibilityScore}</text> <text class="value" x="${lx + 11}" y="${ry + 6}">${ord(l.rank)}</text> ${moved !== 0 && movedLabel()} </g>`;
  };
  return html`<figure class="chart"> <svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="${attr(`${id}-t ${id}-d`)}" font-size="${FONT}"> <title id="${attr(`${id}-t`)}">${title}</title> <desc id="${attr(`${id}-d`)}">${desc}</desc> <text class="title" x="2" y="${S0 - 14}">Visibility Score (0–100)</text> <text class="title" x="2" y="${R0 - 14}">Rank in ${scope.length > 28 ? 'industry' : scope.split(' in ')[0]} (1 = top)</text> <g class="grid"> ${each(SCORE_TICKS, (v) => gridLine(ys(v)))} ${each(rankTicks, (r) => gridLine(yr(r)))} </g> <g class="axis"> ${each(SCORE_TICKS, (v) => tickLabel(ys(v), v))} ${each(rankTicks, (r) => tickLabel(yr(r), r))} ${each(ticks, monthLabel)} </g> <path d="${attr(path((h) => ys(h.visibilityScore)))}" class="score" stroke-width="2.5" stroke-linejoin="round"></path> <path d="${attr(path((h) => yr(h.rank)))}" class="rank" stroke-width="2.5" stroke-linejoin="round" stroke-dasharray="6 3"></path> <g class="score-dot">${each(history, scoreDot)}</g> <g class="rank-dot">${each(history, rankDot)}</g> ${last && lastValues(last)} </svg> <figcaption>${title}. ${change} Ringed: the latest month. Solid line: score; dashed line: rank.</figcaption> </figure>`;
}
