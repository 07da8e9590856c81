/**
 * Abbreviations read both ways: the one table of words that search treats as the
 * same word in a query and in a name (`Keating Svcs` finds Keating Services,
 * `Stanmore First Systems` finds Stanmore First Sys). Words are compared folded
 * (`normalize.ts`), so `Int'l`, `Intl.` and `INTL` are all `intl`.
 * Pure (no `node:*`).
 */

/**
 * Abbreviation -> the full words it stands for, folded. Legal forms (`inc`, `corp`,
 * `co`) are here too, so that in the middle of a name they read like any other
 * word; at the end of a name the legal-form folding drops them anyway.
 */
export const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  intl: ['international'],
  corp: ['corporation'],
  co: ['company'],
  inc: ['incorporated'],
  tech: ['technology', 'technologies'],
  labs: ['laboratories'],
  lab: ['laboratory'],
  pharma: ['pharmaceuticals', 'pharmaceutical'],
  mfg: ['manufacturing'],
  svcs: ['services'],
  sys: ['systems'],
  solns: ['solutions'],
  mgmt: ['management'],
  bros: ['brothers'],
  natl: ['national'],
  st: ['saint'],
  mtn: ['mountain'],
  ent: ['entertainment', 'enterprises'],
  ins: ['insurance'],
};

/** Either spelling -> the other ones (the table read both ways). */
const OTHER_FORMS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const [short, fulls] of Object.entries(ABBREVIATIONS)) {
    map.set(short, [...fulls]);
    for (const full of fulls) map.set(full, [...(map.get(full) ?? []), short]);
  }
  return map;
})();

const NONE: readonly string[] = [];

/**
 * The other spellings of a folded word in the table: the full words of an
 * abbreviation, the abbreviations of a full word; empty for any other word.
 * @example otherForms('svcs') // ['services']
 * @example otherForms('international') // ['intl']
 */
export function otherForms(word: string): readonly string[] {
  return OTHER_FORMS.get(word) ?? NONE;
}

/**
 * Are two folded words the same word, or one the table's abbreviation of the other?
 * @example sameWord('mfg', 'manufacturing') // true
 * @example sameWord('tech', 'technologies') // true
 */
export function sameWord(a: string, b: string): boolean {
  return a === b || otherForms(a).includes(b);
}

/** Variants of a query are capped: a query of many table words is read as typed plus this many respellings. */
const MAX_SPELLINGS = 8;

/**
 * The word list respelled with the table, word by word, the list itself excluded;
 * empty when none of its words is in the table.
 * @example respellings(['keating', 'svcs']) // [['keating', 'services']]
 */
export function respellings(words: readonly string[]): string[][] {
  let out: string[][] = [[...words]];
  for (let i = 0; i < words.length; i++) {
    const others = otherForms(words[i] as string);
    if (others.length === 0) continue;
    const next: string[][] = [];
    for (const w of out) {
      next.push(w);
      for (const o of others) {
        if (next.length > MAX_SPELLINGS) break;
        const copy = [...w];
        copy[i] = o;
        next.push(copy);
      }
    }
    out = next;
  }
  return out.slice(1);
}
