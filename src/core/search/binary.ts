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
 * u16: two sections, one of them empty), then the ranges (start, end as u32 pairs)
 * of the slugs, the key texts, the compact and the full folded keys (equal strings
 * share one range of the pool), then the names' initials (`initials.ts`): their
 * codes (i32, sorted) and keys (i32, -1: several companies).
 */
import { GRAM_BITS } from './grams.ts';
import { initialsTable } from './initials.ts';
import { finish, type SearchIndex } from './load.ts';
import { hasMagic, PoolWriter, Sections, writeSections, type FileBytes } from './sections.ts';
import { PoolStrings, type Strings } from './strings.ts';

const MAGIC = 'EVIS';
export const BINARY_VERSION = 3;
const SECTIONS = 15;

/** The bytes of `index` in the binary form (see the module comment). Deterministic. */
export function encodeSearchIndex(index: SearchIndex): Uint8Array {
  const pool = new PoolWriter();
  const slugs = pool.ranges(index.slugs);
  const text = pool.ranges(index.keyText);
  const compact = pool.ranges(index.keyCompact);
  const full = pool.ranges(index.keyFull);
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
    text,
    compact,
    full,
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
 * was cut into, read in place (the bytes must not change afterwards). Checks the header
 * and that the sections fit together; throws otherwise.
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
  const docs = keyStart.length - 1;
  const keys = keyDoc.length;
  const strings = (i: number, n: number): Strings => {
    const ranges = file.get(i, Uint32Array);
    if (ranges.length !== 2 * n) throw file.error(`section ${i} has ${ranges.length / 2} strings, expected ${n}`);
    // not checked one by one (a loop over every string at load): a range past the pool reads short
    return new PoolStrings(pool, ranges);
  };
  if (docs < 0 || keyStart[docs] !== keys || keyKind.length !== keys || formExact.length !== formKey.length) throw file.error('sections do not fit together');
  if (gramStart.length !== (1 << GRAM_BITS) + 1 || gramStart[gramStart.length - 1] !== gramBytes.length) throw file.error('trigram lists do not fit');
  const initials = { codes: file.get(13, Int32Array), keys: file.get(14, Int32Array) };
  if (initials.codes.length !== initials.keys.length) throw file.error('initials do not fit');
  return finish(strings(9, docs), keyStart, keyDoc, keyKind, strings(10, keys), strings(11, keys), strings(12, keys), formKey, formExact, gramStart, gramBytes, initials);
}
