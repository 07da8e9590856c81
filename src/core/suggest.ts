/** "Did you mean": the names a mistyped parameter was probably meant to be. */
import { align } from './search/distance.ts';

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  return align(a, b).full;
}

/**
 * The known parameter an unknown one is a typo of, or `undefined` (tracking names such as
 * `utm_source`, `fbclid` are never close). Close: another case, a plural, or within one edit
 * (names up to four letters) or two (longer), the unknown name having three letters or more.
 *
 * @example closeParameter('industy', ['industry', 'country']) // 'industry'
 * @example closeParameter('utm_source', ['q', 'country', 'limit']) // undefined
 */
export function closeParameter(unknown: string, known: readonly string[]): string | undefined {
  const lower = unknown.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    if (lower === name) return name;
    if (lower === `${name}s` || (name.endsWith('y') && lower === `${name.slice(0, -1)}ies`)) return name;
    if (lower.length < 3 || !/^[a-z]+$/.test(lower)) continue;
    const d = editDistance(lower, name);
    if (d <= (name.length <= 4 ? 1 : 2) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/** How many valid values an error body suggests at most. */
export const MAX_SUGGESTIONS = 5;

/**
 * The valid values a value that is not one was probably meant to be, closest first, at
 * most {@link MAX_SUGGESTIONS}. Each choice is one thing's spellings (an industry's name
 * and slug, a country's name, code and aliases); a thing is suggested once, in its
 * spelling closest to the value. Close means, case-insensitively: within one edit for
 * values of up to four characters, two up to eight, three beyond; or, for a value of at
 * least three characters, the start of a spelling (`aero` for `aerospace`).
 *
 * @example closeValues('technolgy', [['Technology', 'technology'], ['Retail', 'retail']]) // ['Technology']
 * @example closeValues('Frnace', [['France', 'fr'], ['Germany', 'de']]) // ['France']
 * @example closeValues('zzz', [['France', 'fr']]) // []
 */
export function closeValues(given: string, choices: readonly (readonly string[])[]): string[] {
  const asked = given.trim();
  const value = asked.toLowerCase();
  if (value === '') return [];
  const reach = value.length <= 4 ? 1 : value.length <= 8 ? 2 : 3;
  const found: { spelling: string; d: number; order: number }[] = [];
  choices.forEach((spellings, order) => {
    let best: { spelling: string; d: number; cased: number } | undefined;
    for (const spelling of spellings) {
      const { full, prefix } = align(value, spelling.toLowerCase());
      // A prefix match ranks after every typo of the whole value.
      const d = full <= reach ? full : value.length >= 3 && prefix === 0 ? reach + 1 : Infinity;
      if (d === Infinity || (best && d > best.d)) continue;
      // Of two spellings as close, the one written in the case asked (`aerospcae`: the slug).
      const cased = editDistance(asked, spelling);
      if (!best || d < best.d || cased < best.cased) best = { spelling, d, cased };
    }
    if (best) found.push({ ...best, order });
  });
  found.sort((a, b) => a.d - b.d || a.order - b.order);
  return found.slice(0, MAX_SUGGESTIONS).map((f) => f.spelling);
}

/**
 * The dataset months nearest in time to a month that has no data (the latest one for a
 * month after the dataset, the earliest for one before it); a malformed month is read
 * as year and month first where it can be (`2026-4`, `202604`, `2026/04`).
 *
 * @example closeMonths('2027-01', ['2026-03', '2026-04']) // ['2026-04']
 * @example closeMonths('2026-4', ['2026-03', '2026-04']) // ['2026-04']
 */
export function closeMonths(given: string, months: readonly string[]): string[] {
  const m = /^(\d{4})\D?(\d{1,2})$/.exec(given.trim());
  if (!m || months.length === 0) return [];
  const asked = Number(m[1]) * 12 + Math.min(12, Math.max(1, Number(m[2])));
  const gaps = months.map((month) => Math.abs(Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - asked));
  const nearest = Math.min(...gaps);
  return months.filter((_, i) => gaps[i] === nearest).slice(0, MAX_SUGGESTIONS);
}
