/**
 * "Did you mean": the names a mistyped parameter was probably meant to be. Pure.
 */
import { align } from './search/distance.ts';

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  return align(a, b).full;
}

/**
 * The known parameter an unknown one is a typo of, or `undefined` for a name that is
 * simply not a parameter (tracking and cache-buster names such as `utm_source`, `_`,
 * `fbclid` are never close to one). Close means: the same name in another case, a
 * plural (`countries`, `industries`), or within one edit for names of up to four
 * letters and two edits for longer ones, the unknown name having at least three letters.
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
