import { describe, expect, it } from 'vitest';
import { addAttribute, escapeHTML, isHTMLString } from 'astro/runtime/server/index.js';
import fc from 'fast-check';
import { attr, attrText, each, html } from './html.ts';

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

  it('attrText gives the bytes Astro writes for the text itself, URLs with a & (left unescaped) among them', () => {
    const values = [
      tricky,
      'Astanlux Ledger & Co: Visibility Score 8.3, ranked 67 of 425 Fintech employers',
      '/api/v1/rankings?country=us&industry=travel&limit=100',
      'https://example.org/api/v1/rankings?country=us&limit=100',
      ' \thttp://example.org/?a=1&b=2',
      'ht\ntps://example.org/?a=1&b=2',
      'mailto:a@example.org?a=1&b=2',
      'Oil & Gas',
      '',
      'no ampersand',
    ];
    const same = (v: string) => {
      expect(String(addAttribute(attrText(v), 'content'))).toBe(String(addAttribute(v, 'content')));
    };
    for (const v of values) same(v);
    // Any text made of the characters that decide: letters, a scheme's, blanks, &, quotes.
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('h', 't', 'p', 's', ':', '/', '&', '"', ' ', '\t', '\n', 'x', '.', '?', '=', '1', 'é') }), (v) => same(v)), { numRuns: 500 });
  });

  it('each joins the items in order', () => {
    expect(String(each([3, 1, 2], (n, i) => html`<i>${n}:${i}</i>`))).toBe('<i>3:0</i><i>1:1</i><i>2:2</i>');
    expect(String(each([], () => html`x`))).toBe('');
  });
});
