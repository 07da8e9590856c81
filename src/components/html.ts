/**
 * HTML as one string, for the markup repeated many times on a page (a row, a dot of a
 * chart, a bar): written with the `html` tag and put into the page once with
 * `set:html`, it gives the bytes Astro writes for the same markup in the template, at a
 * fraction of the cost (Astro renders each item of a `{list.map(...)}` as its own
 * template through a buffered renderer, and each `{expression}` in it on its own).
 *
 * What `html` does with a value is what Astro does with `{value}` between tags: a text
 * is escaped by Astro's own `escapeHTML`; a number is written as `String` writes it;
 * `null`, `undefined`, `false` and `''` write nothing; an array writes its items one
 * after the other; what `html` returned is inserted as it is. Inside an attribute's
 * quotes Astro escapes only `&` and `"`: write `attr(value)` there (or a number).
 * Markup is written as Astro's compiler writes it: no whitespace between tags that the
 * template's layout would have collapsed, `<span></span>` rather than `<span />`.
 * @example
 * String(html`<td>${'R&D'}</td><td class="num">${12.5}</td>`); // '<td>R&amp;D</td><td class="num">12.5</td>'
 */
import { escapeHTML, HTMLString, markHTMLString } from 'astro/runtime/server/index.js';

/** Markup already escaped: Astro's own marked string, which a template writes as it is (`{rows}` or `set:html={rows}`). */
export type Html = HTMLString;

type Value = string | number | boolean | null | undefined | HTMLString | Value[];

function write(v: Value): string {
  if (v instanceof HTMLString) return String(v);
  if (Array.isArray(v)) {
    let s = '';
    for (const x of v) s += write(x);
    return s;
  }
  if (typeof v === 'number') return String(v);
  if (!v) return '';
  if (typeof v === 'string') return escapeHTML(v);
  return String(v);
}

/** Tagged template: the literal parts as they are, each value as Astro writes `{value}` between tags. */
export function html(parts: TemplateStringsArray, ...values: Value[]): Html {
  let s = parts[0]!;
  for (let i = 0; i < values.length; i++) s += write(values[i]!) + parts[i + 1]!;
  return markHTMLString(s) as Html;
}

/** A value inside an attribute's double quotes, as Astro writes `name={value}` (`&` and `"` escaped). */
export function attr(v: string | number): Html {
  return markHTMLString(String(v).replace(/&/g, '&#38;').replace(/"/g, '&#34;')) as Html;
}

/** The items of `list` as one piece of markup. */
export function each<T>(list: readonly T[], item: (x: T, i: number) => Html): Html {
  let s = '';
  for (let i = 0; i < list.length; i++) s += String(item(list[i]!, i));
  return markHTMLString(s) as Html;
}

/** What {@link attrText} hands Astro: an object, which Astro's `addAttribute` writes as `String(value)`, escaped. */
class AttrText {
  constructor(private readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/**
 * A text for an attribute written `name={attrText(value)}`: the bytes of `name={value}`
 * (`&` and `"` escaped), without the check Astro makes of every string value holding a `&`:
 * whether it is an http(s) URL (whose `&` it leaves as they are), by `new URL(value)`,
 * which throws for any other value, ~50 µs a time (0.6 s of a reference build's page
 * worker, for ~11,800 titles, descriptions and relative links with a `&`). A value that
 * could be an absolute URL (a scheme first, as the URL parser reads one: after blanks,
 * tabs and line breaks left out) is handed over as it is, and Astro decides as before.
 */
export function attrText(value: string): string | AttrText {
  if (!value.includes('&') || /^[\x00-\x20]*[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value.replace(/[\t\n\r]/g, ''))) return value;
  return new AttrText(value);
}
