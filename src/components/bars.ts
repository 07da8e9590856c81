/**
 * Horizontal bars for 0-100 scores, drawn with CSS; the number is always written out.
 * A block the profile page shows twice per country: written as one string with html.ts
 * (see its notes) instead of an Astro component, whose instance costs more than its bars.
 */
import { attr, each, html } from './html.ts';
import type { Html } from './html.ts';

export interface Bar {
  name: string;
  value: number | null;
  note?: string;
}

const note = (text: string) => html`<span class="muted"> ${text}</span>`;
const bar = (i: Bar) =>
  html`<li><span>${i.name}</span><span class="bar"><span style="width:${i.value ?? 0}%"></span></span><span class="value">${i.value === null ? 'not asked' : i.value}${i.note && note(i.note)}</span></li>`;

/** The list of bars, labelled `label` for assistive technology. */
export const bars = (label: string, items: Bar[]): Html => html`<ul class="bars" aria-label="${attr(label)}"> ${each(items, bar)} </ul>`;
