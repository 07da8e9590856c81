import { describe, expect, it } from 'vitest';
import { addAttribute, escapeHTML, isHTMLString } from 'astro/runtime/server/index.js';
import { attr, attribute, each, html } from './html.ts';

describe('html (markup written as Astro writes it)', () => {
  const tricky = `Lumislon & Cenelcade <b>"R'D"</b>`;

  it('escapes text as Astro escapes {value} between tags, and writes numbers as String does', () => {
    expect(String(html`<td>${tricky}</td>`)).toBe(`<td>${escapeHTML(tricky)}</td>`);
    expect(String(html`<td>${tricky}</td>`)).toBe('<td>Lumislon &amp; Cenelcade &lt;b&gt;&quot;R&#39;D&quot;&lt;/b&gt;</td>');
    expect(String(html`${0}|${33.3}|${-1}`)).toBe('0|33.3|-1');
  });

  it('writes nothing for null, undefined, false and the empty text, as Astro does', () => {
    expect(String(html`[${null}${undefined}${false}${''}]`)).toBe('[]');
  });

  it('inserts what it returned as it is, and is a string Astro inserts as it is', () => {
    const inner = html`<span class="muted"> ${'#1 & more'}</span>`;
    expect(String(html`<li>${inner}</li>`)).toBe('<li><span class="muted"> #1 &amp; more</span></li>');
    expect(isHTMLString(inner)).toBe(true);
  });

  it('attr escapes as Astro writes an attribute', () => {
    expect(` href="${String(attr(tricky))}"`).toBe(String(addAttribute(tricky, 'href')));
  });

  it('attribute writes a whole attribute as Astro does, an absolute URL with & left as it is', () => {
    for (const v of [tricky, '/api/v1/companies/x?country=de&b=1', 'https://evi.example/api?x=1&y=2', '', null, undefined]) {
      expect(String(html`<a${attribute('href', v)}>`)).toBe(`<a${String(addAttribute(v, 'href'))}>`);
    }
    expect(String(attribute('href', 'https://evi.example/?a=1&b=2'))).toBe(' href="https://evi.example/?a=1&b=2"');
    expect(String(attribute('href', null))).toBe('');
  });

  it('each joins the items in order', () => {
    expect(String(each([3, 1, 2], (n, i) => html`<i>${n}:${i}</i>`))).toBe('<i>3:0</i><i>1:1</i><i>2:2</i>');
    expect(String(each([], () => html`x`))).toBe('');
  });
});
