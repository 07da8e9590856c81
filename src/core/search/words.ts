/**
 * Word-level reading of names for the search: does a name hold every word of a
 * query (as typed, as the abbreviation table's other spelling, or within a typo or
 * two), and what are its initials. Pure (no `node:*`).
 */
import { otherForms, sameWord } from './abbreviations.ts';
import { alignBits, newAlignment, type Alignment } from './distance.ts';
import { foldWords, stripLegal } from './normalize.ts';

/** Words that carry no meaning of their own in a name (`Smith & Sons`, `The Quill Works`). */
const FILLER = new Set(['and', 'the']);

/**
 * The words of a folded query that a name must hold: legal form at the end and
 * `and` / `the` left out.
 * @example meaningfulWords(['keating', 'and', 'wexford', 'plc']) // ['keating', 'wexford']
 */
export function meaningfulWords(words: readonly string[]): string[] {
  return stripLegal(words).filter((w) => !FILLER.has(w));
}

/**
 * Typos allowed in one word: none up to three letters, one up to seven, two beyond
 * (a typo in a short word makes another word).
 */
export function typosAllowed(word: string): number {
  return word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0;
}

const alignment: Alignment = newAlignment();

/**
 * What a name's folded form without blanks must contain to hold a query word, one
 * entry per word, of which it must contain one string: the table's other spellings
 * of the word, and the word itself or, when typos are allowed in it, the pieces of
 * which a spelling within the allowed typos keeps one intact (a word cut into
 * typos + 1 pieces: each typo spoils at most one, a swap of the two letters either
 * side of a cut spoils both and is missed; the word itself holds every piece). A
 * cheap sieve before a name is split into words.
 */
export type WordSieve = readonly (readonly string[])[];

/** @example wordSieve(['keating', 'svcs']) // [['kea', 'ting'], ['sv', 'cs', 'services']] */
export function wordSieve(wanted: readonly string[]): WordSieve {
  return wanted.map((w) => {
    const allowed = typosAllowed(w);
    const needles: string[] = [];
    for (let p = 0; allowed > 0 && p <= allowed; p++) needles.push(w.slice(Math.floor((p * w.length) / (allowed + 1)), Math.floor(((p + 1) * w.length) / (allowed + 1))));
    if (allowed === 0) needles.push(w);
    needles.push(...otherForms(w));
    return needles;
  });
}

/** Can the name whose folded form without blanks is `compact` hold every sieved word? False means no (but see {@link WordSieve}). */
export function mayHold(sieve: WordSieve, compact: string): boolean {
  for (const needles of sieve) {
    let found = false;
    for (let i = 0; i < needles.length && !found; i++) found = compact.includes(needles[i] as string);
    if (!found) return false;
  }
  return true;
}

/**
 * For each word list of `lists` (the folded words of a name or alias), whether it
 * holds every word of `wanted`, into `held`: 2 when each is one of its words or the
 * table's other spelling of one, 1 when some are only within {@link typosAllowed},
 * 0 when a word is missing. Word by word over all lists, so that the typo test of
 * one query word is prepared once.
 * @example
 * const held = new Uint8Array(2);
 * wordsHeld(['prescott', 'pharmaceuticals'], [['prescott', 'pacific', 'pharmaceuticals', 'plc'], ['pryor', 'pharma']], held); // held: [2, 0]
 */
export function wordsHeld(wanted: readonly string[], lists: readonly (readonly string[])[], held: Uint8Array): void {
  held.fill(2, 0, lists.length);
  for (const w of wanted) {
    const allowed = typosAllowed(w);
    for (let i = 0; i < lists.length; i++) {
      if (held[i] === 0) continue;
      const words = lists[i] as readonly string[];
      let found = 0;
      for (const k of words) {
        if (sameWord(w, k)) {
          found = 2;
          break;
        }
      }
      if (found === 0 && allowed > 0) {
        for (const k of words) {
          if (Math.abs(k.length - w.length) <= allowed && alignBits(w, k, alignment).full <= allowed) {
            found = 1;
            break;
          }
        }
      }
      if (found < (held[i] as number)) held[i] = found;
    }
  }
}

/**
 * The initials of a name: the first letter of each word, legal form, a leading
 * `the` and `&` / `and` left out.
 * @example initialsOf('Jasper National Motors Inc.') // 'jnm'
 * @example initialsOf('Keating & Wexford PLC') // 'kw'
 */
export function initialsOf(text: string): string {
  let out = '';
  for (const w of meaningfulWords(foldWords(text))) out += w.charAt(0);
  return out;
}
