/** Text rules of data-and-rules.md §1: slugs, name folding and the name collator. */

const COLLATOR = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Name order of data-and-rules §3. */
export function compareNames(a: string, b: string): number {
  return COLLATOR.compare(a, b);
}

/** Plain code-unit order, for slugs and other keys that must sort the same everywhere. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// Letters that NFKD does not decompose into a base letter plus a mark.
const LETTERS: Record<string, string> = { ø: 'o', Ø: 'O', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ß: 'ss', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th', Þ: 'TH', ı: 'i' };
const LETTER_RE = /[øØæÆœŒßłŁđĐþÞı]/g;

export function stripDiacritics(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}+/gu, '').replace(LETTER_RE, (c) => LETTERS[c] ?? c);
}

/**
 * §1.2/§1.3 slug: diacritics removed, lowercase, `&` dropped, runs of
 * non-alphanumerics become one `-`, no leading or trailing `-`.
 * @example slugify('Société Générale') // 'societe-generale'
 */
export function slugify(name: string): string {
  return stripDiacritics(name)
    .toLowerCase()
    .replace(/&/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * §1.4 company resolution key: trimmed, case folded, inner blanks collapsed, diacritics removed.
 * @example foldName('  KESTREL   Aéro ') // 'kestrel aero'
 */
export function foldName(s: string): string {
  return stripDiacritics(s.trim()).toLowerCase().replace(/\s+/g, ' ');
}

/** Case-insensitive, blank-trimmed key for parameters and lookup tables. */
export function foldKey(s: string): string {
  return s.trim().toLowerCase();
}

export const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;
