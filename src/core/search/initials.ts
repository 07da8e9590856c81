/**
 * Names by their initials, for the acronym fallback of the search (`JNM` for Jasper
 * National Motors Inc.). The binary index carries the table, worked out at build time,
 * so that a fresh Worker instance's first acronym query costs a binary search; an
 * index loaded from JSON (the pages) works out one first letter at a time, on the
 * first query of initials starting with it. Pure (no `node:*`).
 */
import { Kind, type SearchIndex } from './load.ts';
import { lowerBound } from './strings.ts';
import { initialsOf } from './words.ts';

/** Initials of these many letters (a to z) are looked up. */
const MIN = 2;
const MAX = 5;

/**
 * Initials -> the name's key, sorted by the initials' code ({@link initialsCode}):
 * `keys[i]` is the key of the one name whose initials have code `codes[i]`, or -1 when
 * names of several companies have them.
 */
export interface InitialsTable {
  codes: Int32Array;
  keys: Int32Array;
}

/**
 * Initials of 2 to 5 letters a-z as a number (letters 1-26 in base 27), -1 for
 * anything else: the table's sort key.
 * @example initialsCode('jnm') // (10 * 27 + 14) * 27 + 13
 */
export function initialsCode(word: string): number {
  if (word.length < MIN || word.length > MAX) return -1;
  let code = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i) - 96;
    if (c < 1 || c > 26) return -1;
    code = code * 27 + c;
  }
  return code;
}

/**
 * The key of the one name whose initials are `word` (a query word, folded), or -1
 * when none or names of several companies have them.
 * @example acronymKey(index, 'jnm') // the key of Jasper National Motors Inc.
 */
export function acronymKey(index: SearchIndex, word: string): number {
  const code = initialsCode(word);
  if (code < 0) return -1;
  const table = index.initials;
  if (table !== null) {
    const { codes, keys } = table;
    let lo = 0;
    let hi = codes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((codes[mid] as number) < code) lo = mid + 1;
      else hi = mid;
    }
    const key = codes[lo] === code ? (keys[lo] as number) : -1;
    // a key past the index (a damaged file) names nothing
    return key < index.keyDoc.length ? key : -1;
  }
  const first = word.charAt(0);
  let names = index.scratch.initials.get(first);
  if (names === undefined) {
    names = initialsStarting(index, first);
    index.scratch.initials.set(first, names);
  }
  return names.get(word) ?? -1;
}

/** The whole table of an index (for the binary file): every first letter's names. */
export function initialsTable(index: SearchIndex): InitialsTable {
  const entries: [number, number][] = [];
  for (let c = 97; c <= 122; c++) {
    for (const [initials, key] of initialsStarting(index, String.fromCharCode(c))) {
      const code = initialsCode(initials);
      if (code >= 0) entries.push([code, key]);
    }
  }
  entries.sort((a, b) => a[0] - b[0]);
  return { codes: Int32Array.from(entries, (e) => e[0]), keys: Int32Array.from(entries, (e) => e[1]) };
}

/**
 * Initials -> name key (-1: several companies) of the names whose compact or full
 * form starts with `first`: a range of the sorted forms (names whose initials start
 * with it start with it, once `the` is dropped).
 */
function initialsStarting(index: SearchIndex, first: string): Map<string, number> {
  const { forms, formKey, keyKind, keyText, keyDoc } = index;
  const names = new Map<string, number>();
  // the binary form, without texts, carries the table
  if (keyText === null) return names;
  const end = lowerBound(forms, String.fromCharCode(first.charCodeAt(0) + 1));
  let previous = -1;
  for (let i = lowerBound(forms, first); i < end; i++) {
    // a name is read through each of its forms in the range (at most two): the answer is the same
    const key = formKey[i] as number;
    if (keyKind[key] !== Kind.Name || key === previous) continue;
    previous = key;
    const initials = initialsOf(keyText.get(key));
    if (initials.length < MIN || initials.length > MAX || initials.charAt(0) !== first) continue;
    const seen = names.get(initials);
    if (seen === undefined) names.set(initials, key);
    else if (seen >= 0 && keyDoc[seen] !== keyDoc[key]) names.set(initials, -1);
  }
  return names;
}
