/**
 * The search index as one binary file (`views/search-index.bin`) that a fresh Worker
 * instance queries in place: every array of the in-memory index is a typed-array
 * view of the file's bytes, every string a range of one pool of UTF-16 code units
 * decoded on its first read. Loading is a header check and a dozen views: no
 * parsing, no folding, no sorting, no trigram hashing (the JSON file, v2, costs
 * ~50 ms of CPU to load at 10,000 companies; the Workers free plan allows 10 ms per
 * request).
 *
 * Layout: the container of `sections.ts` (magic `EVIS`). Sections, in order:
 * keyStart (i32, docs + 1), keyDoc (i32), keyKind (u8), formKey (i32), formExact (u8),
 * gramStart (u32, buckets + 1: each trigram list's byte offset), the trigram lists
 * (u8, packed: `packGramLists`), the string pool (u8 when every code unit is below 256, else
 * u16: two sections, one of them empty), the slugs laid end to end in it (u32, docs + 1:
 * where each starts, then the end), each key's folded words joined by a blank, end to end
 * after the slugs (u32, keys + 1: its full form once the blanks are dropped), the words
 * each key's compact form leaves out (u8 pairs: at the start, at the end), then the
 * names' initials (`initials.ts`): their codes (i32, sorted) and keys (i32, -1: several
 * companies). The keys' original texts are left out: the API, which reads this file,
 * answers without them (`findCompanies`), and a fresh Worker reads the whole file.
 */
import { GRAM_BITS } from './grams.ts';
import { initialsTable } from './initials.ts';
import { finish, wordsOfKey, type SearchIndex } from './load.ts';
import { legalSpan } from './normalize.ts';
import { hasMagic, PoolWriter, Sections, writeSections, type FileBytes } from './sections.ts';
import { CutStrings, PoolStrings } from './strings.ts';

const MAGIC = 'EVIS';
export const BINARY_VERSION = 3;
const SECTIONS = 14;

/** The bytes of `index` (one made from registry rows: with its key texts) in the binary form (see the module comment). Deterministic. */
export function encodeSearchIndex(index: SearchIndex): Uint8Array {
  const keyText = index.keyText;
  if (keyText === null) throw new Error('encodeSearchIndex: the index has no key texts');
  const keys = index.keyDoc.length;
  const spaced = new Array<string>(keys);
  const cut = new Uint8Array(2 * keys);
  for (let k = 0; k < keys; k++) {
    const words = wordsOfKey(index.keyKind[k] as number, keyText.get(k));
    const [start, end] = legalSpan(words);
    // the loader made both forms from these words: a mismatch is a bug, not data
    if (words.join('') !== index.keyFull.get(k) || words.slice(start, end).join('') !== index.keyCompact.get(k) || start > 255 || words.length - end > 255) {
      throw new Error(`encodeSearchIndex: the forms of key ${k} are not its words`);
    }
    spaced[k] = words.join(' ');
    cut[2 * k] = start;
    cut[2 * k + 1] = words.length - end;
  }
  const pool = new PoolWriter();
  const slugs = pool.ends(index.slugs);
  const words = pool.ends({ length: keys, get: (k) => spaced[k] as string });
  const initials = initialsTable(index);
  return writeSections(MAGIC, BINARY_VERSION, [
    index.keyStart,
    index.keyDoc,
    index.keyKind,
    index.formKey,
    index.formExact,
    index.gramStart,
    index.gramBytes,
    ...pool.poolSections(),
    slugs,
    words,
    cut,
    initials.codes,
    initials.keys,
  ]);
}

/** Is this the binary form (its first four bytes)? */
export function isBinarySearchIndex(bytes: Uint8Array): boolean {
  return hasMagic(bytes, MAGIC);
}

/**
 * The queryable index over the bytes of `search-index.bin`, whole or in the chunks it
 * was cut into, read in place (the bytes must not change afterwards); without the keys'
 * texts (query it with `findCompanies`). Checks the header and that the sections fit
 * together; throws otherwise.
 * @example
 * const index = decodeSearchIndex(new Uint8Array(await (await fetch(url)).arrayBuffer()));
 */
export function decodeSearchIndex(input: FileBytes): SearchIndex {
  const file = new Sections(input, 'decodeSearchIndex', MAGIC, BINARY_VERSION, SECTIONS);
  const keyStart = file.get(0, Int32Array);
  const keyDoc = file.get(1, Int32Array);
  const keyKind = file.get(2, Uint8Array);
  const formKey = file.get(3, Int32Array);
  const formExact = file.get(4, Uint8Array);
  const gramStart = file.get(5, Uint32Array);
  const gramBytes = file.get(6, Uint8Array);
  const wide = file.get(8, Uint16Array);
  const pool = wide.length > 0 ? wide : file.get(7, Uint8Array);
  const slugEnds = file.get(9, Uint32Array);
  const wordEnds = file.get(10, Uint32Array);
  const cut = file.get(11, Uint8Array);
  const docs = keyStart.length - 1;
  const keys = keyDoc.length;
  if (docs < 0 || keyStart[docs] !== keys || keyKind.length !== keys || formExact.length !== formKey.length) throw file.error('sections do not fit together');
  // the ends are not checked one by one (a loop over every string at load): an end past the pool reads short
  if (slugEnds.length !== docs + 1 || wordEnds.length !== keys + 1 || cut.length !== 2 * keys) throw file.error('strings do not fit the keys');
  if (gramStart.length !== (1 << GRAM_BITS) + 1 || gramStart[gramStart.length - 1] !== gramBytes.length) throw file.error('trigram lists do not fit');
  const initials = { codes: file.get(12, Int32Array), keys: file.get(13, Int32Array) };
  if (initials.codes.length !== initials.keys.length) throw file.error('initials do not fit');
  const full = new PoolStrings(pool, wordEnds, 1, true);
  const compact = new CutStrings(pool, wordEnds, cut, full);
  return finish(new PoolStrings(pool, slugEnds, 1), keyStart, keyDoc, keyKind, null, compact, full, formKey, formExact, gramStart, gramBytes, initials, new PoolStrings(pool, wordEnds, 1));
}
