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
