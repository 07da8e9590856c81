import type { InitialsTable } from './initials.ts';
import type { SerializedSearchIndex, SerializedSearchIndexV1 } from './serialized.ts';
import { GRAM_BITS, packGramLists } from './grams.ts';
import { domainLabel, foldWords, stripLegal } from './normalize.ts';
import { ArrayStrings, FormStrings, type Strings } from './strings.ts';

/** Key kinds, in tie-break order. */
export const Kind = { Name: 0, Alias: 1, Slug: 2, Domain: 3 } as const;
type KindCode = (typeof Kind)[keyof typeof Kind];

/**
 * The in-memory index. A key is one name, alias, slug or website of a company; the
 * keys of a company are contiguous. Treat as opaque outside this folder.
 */
export interface SearchIndex {
  readonly slugs: Strings;
  /** First key of each company, plus the key count at the end. */
  readonly keyStart: Int32Array;
  readonly keyDoc: Int32Array;
  readonly keyKind: Uint8Array;
  /** Original text, reported as `matched`; `null` in the binary form (the API reports no `matched`: `findCompanies`). */
  readonly keyText: Strings | null;
  /** Each key's folded words joined by a blank (the binary form's, for matching words); `null`: folded from {@link SearchIndex.keyText}. */
  readonly keyWords: Strings | null;
  /** Folded, no blanks, legal suffix dropped. */
  readonly keyCompact: Strings;
  /** Folded, no blanks, suffix kept. */
  readonly keyFull: Strings;
  /** Every compact and full form, sorted; with the key it belongs to (the form's text is that key's full or compact form). */
  readonly forms: Strings;
  readonly formKey: Int32Array;
  /** 1 when the form is the whole key (an exact match), 0 when suffix-stripped. */
  readonly formExact: Uint8Array;
  /** Trigram bucket -> companies, each list in company order, packed (`packGramLists`): a bucket's byte offset, and the lists. */
  readonly gramStart: Uint32Array;
  readonly gramBytes: Uint8Array;
  /** The names' initials (the binary file carries them), or null: worked out per first letter on demand (`initials.ts`). */
  readonly initials: InitialsTable | null;
  /** Per-query work arrays, reset after every query (and the initials, kept). */
  readonly scratch: {
    docScore: Float64Array;
    docKey: Int32Array;
    /** What matched, a {@link MatchedOn} code. */
    docHow: Uint8Array;
    docFilter: Int8Array;
    docs: number[];
    gramCount: Uint16Array;
    /** Companies sharing a trigram with the query (the first `touchedCount` entries)... */
    touched: Int32Array;
    /** ...and the same, by shared-trigram count (best first). */
    byCount: Int32Array;
    /**
     * Without {@link SearchIndex.initials}: the names' initials, filled one first letter
     * at a time by the first query of initials starting with it: first letter ->
     * initials -> the name's key, or -1 when names of several companies have them.
     */
    initials: Map<string, Map<string, number>>;
  };
}

/** Collects keys and forms into pre-sized arrays: no closures, few allocations (load time is measured). */
class Loader {
  readonly keyDoc: Int32Array;
  readonly keyKind: Uint8Array;
  readonly keyText: string[];
  readonly keyCompact: string[];
  readonly keyFull: string[];
  keys = 0;
  readonly entryForm: string[];
  readonly entryKey: Int32Array;
  readonly entryExact: Uint8Array;
  entries = 0;
  doc = 0;
  docKeys = 0;
  docEntries = 0;

  constructor(maxKeys: number) {
    this.keyDoc = new Int32Array(maxKeys);
    this.keyKind = new Uint8Array(maxKeys);
    this.keyText = new Array<string>(maxKeys);
    this.keyCompact = new Array<string>(maxKeys);
    this.keyFull = new Array<string>(maxKeys);
    this.entryForm = new Array<string>(2 * maxKeys);
    this.entryKey = new Int32Array(2 * maxKeys);
    this.entryExact = new Uint8Array(2 * maxKeys);
  }

  startDoc(doc: number): void {
    this.doc = doc;
    this.docKeys = this.keys;
    this.docEntries = this.entries;
  }

  hasFull(full: string): boolean {
    for (let k = this.docKeys; k < this.keys; k++) if (this.keyFull[k] === full) return true;
    return false;
  }

  addKey(kind: KindCode, text: string, words: string[]): void {
    const full = words.length === 1 ? (words[0] as string) : words.join('');
    if (full.length === 0 || this.hasFull(full)) return;
    const stripped = stripLegal(words);
    const compact = stripped.length === words.length ? full : stripped.join('');
    const key = this.keys++;
    this.keyDoc[key] = this.doc;
    this.keyKind[key] = kind;
    this.keyText[key] = text;
    this.keyCompact[key] = compact;
    this.keyFull[key] = full;
    this.addForm(full, key, 1);
    if (compact !== full) {
      this.addForm(compact, key, 0);
    }
  }

  addForm(form: string, key: number, exact: number): void {
    for (let e = this.docEntries; e < this.entries; e++) {
      if (this.entryForm[e] !== form) continue;
      // an alias equal to the name without its suffix is still an exact alias
      if (exact && !this.entryExact[e]) {
        this.entryKey[e] = key;
        this.entryExact[e] = 1;
      }
      return;
    }
    const e = this.entries++;
    this.entryForm[e] = form;
    this.entryKey[e] = key;
    this.entryExact[e] = exact;
  }
}

/** Position of a key's text in its row: slug, name, website, then aliases. */
const KIND_OF_POSITION = [Kind.Slug, Kind.Name, Kind.Domain];
const KIND_POSITION = [1, 3, 0, 2];

/**
 * Turns the static file into a queryable index. A v2 file (what the build writes)
 * carries the folded keys and the sorted forms, so loading is array filling
 * plus the trigram lists: no folding, no sorting (a fresh Worker instance pays
 * this on its first search). A v1 file (registry text only) is folded and
 * sorted here. Call once per Worker instance or page.
 * @example
 * const index = loadSearchIndex(await (await fetch('/views/search-index.json')).json());
 */
export function loadSearchIndex(data: SerializedSearchIndex | SerializedSearchIndexV1): SearchIndex {
  if (data?.v === 2 && isV2(data)) return loadV2(data);
  if (data?.v !== 1 || !Array.isArray(data.docs)) throw new Error('loadSearchIndex: not a v1 or v2 search index');
  return loadRows(data.docs);
}

function isV2(data: SerializedSearchIndex): boolean {
  return (
    Array.isArray(data.docs) &&
    typeof data.keys === 'string' &&
    typeof data.keyCounts === 'string' &&
    Array.isArray(data.compact) &&
    Array.isArray(data.full) &&
    Array.isArray(data.formKey) &&
    typeof data.formExact === 'string' &&
    data.keyCounts.length === data.docs.length &&
    data.compact.length === data.keys.length &&
    data.full.length === data.keys.length &&
    data.formExact.length === data.formKey.length
  );
}

/**
 * The v2 file from an index: what {@link loadV2} needs to skip folding and sorting.
 * Characters stand for small numbers (`'0'` + n) so the file stays plain JSON.
 */
export function serializeIndex(rows: string[][], index: SearchIndex): SerializedSearchIndex {
  const keyText = index.keyText;
  if (keyText === null) throw new Error('serializeIndex: the index has no key texts');
  let keys = '';
  let keyCounts = '';
  for (let doc = 0; doc < rows.length; doc++) {
    const row = rows[doc] as string[];
    const start = index.keyStart[doc] as number;
    const end = index.keyStart[doc + 1] as number;
    keyCounts += String.fromCharCode(48 + end - start);
    let alias = 3;
    for (let k = start; k < end; k++) {
      const kind = index.keyKind[k] as number;
      let pos = KIND_POSITION[kind] as number;
      if (kind === Kind.Alias) {
        while (row[alias] !== keyText.get(k)) alias++;
        pos = alias;
      }
      keys += String.fromCharCode(48 + pos);
    }
  }
  const compact: string[] = [];
  const full: string[] = [];
  for (let k = 0; k < index.keyDoc.length; k++) {
    const c = index.keyCompact.get(k);
    const f = index.keyFull.get(k);
    compact.push(c);
    full.push(f === c ? '' : f);
  }
  let formExact = '';
  for (let i = 0; i < index.forms.length; i++) formExact += String.fromCharCode(48 + (index.formExact[i] as number));
  return { v: 2, docs: rows, keys, keyCounts, compact, full, formKey: [...index.formKey], formExact };
}

function loadV2(data: SerializedSearchIndex): SearchIndex {
  const rows = data.docs;
  const count = rows.length;
  const slugs = new Array<string>(count);
  const keyStart = new Int32Array(count + 1);
  const keyTotal = data.keys.length;
  const keyDoc = new Int32Array(keyTotal);
  const keyKind = new Uint8Array(keyTotal);
  const keyText = new Array<string>(keyTotal);
  const keyCompact = data.compact;
  const keyFull = new Array<string>(keyTotal);
  let k = 0;
  for (let doc = 0; doc < count; doc++) {
    const row = rows[doc] as string[];
    slugs[doc] = row[0] as string;
    keyStart[doc] = k;
    const end = k + data.keyCounts.charCodeAt(doc) - 48;
    if (end > keyTotal) throw new Error('loadSearchIndex: v2 key counts exceed the keys');
    for (; k < end; k++) {
      const pos = data.keys.charCodeAt(k) - 48;
      keyDoc[k] = doc;
      keyKind[k] = pos < 3 ? (KIND_OF_POSITION[pos] as number) : Kind.Alias;
      keyText[k] = row[pos] as string;
      const f = data.full[k] as string;
      keyFull[k] = f === '' ? (keyCompact[k] as string) : f;
    }
  }
  keyStart[count] = k;
  if (k !== keyTotal) throw new Error('loadSearchIndex: v2 key counts do not add up');
  const formTotal = data.formKey.length;
  const formKey = Int32Array.from(data.formKey);
  const formExact = new Uint8Array(formTotal);
  for (let i = 0; i < formTotal; i++) {
    const e = data.formExact.charCodeAt(i) - 48;
    formExact[i] = e;
    if ((formKey[i] as number) >= keyTotal || e > 1) throw new Error('loadSearchIndex: v2 form out of range');
  }
  const { start, bytes } = gramLists(count, keyStart, keyCompact, keyFull);
  return finish(slugs, keyStart, keyDoc, keyKind, keyText, keyCompact, keyFull, formKey, formExact, start, bytes);
}

/**
 * Trigram bucket -> companies, each list in company order, packed (`packGramLists`);
 * from the keys' folded forms. One flat loop with the hash of `grams.ts` written out (same buckets as
 * `addGrams`): on a fresh Worker instance this runs before the JIT has warmed up,
 * so calls per trigram cost more than the arithmetic.
 */
function gramLists(
  count: number,
  keyStart: Int32Array,
  keyCompact: readonly string[],
  keyFull: readonly string[],
): { start: Uint32Array; bytes: Uint8Array } {
  const buckets = 1 << GRAM_BITS;
  const shift = 32 - GRAM_BITS;
  const gramStart = new Uint32Array(buckets + 1);
  // last company (+ 1) that counted each bucket: a company counts a bucket once
  const seen = new Int32Array(buckets);
  let flat = new Int32Array(Math.max(1024, count * 40));
  let flatLength = 0;
  const docGramEnd = new Uint32Array(count);
  for (let doc = 0; doc < count; doc++) {
    const end = keyStart[doc + 1] as number;
    const stamp = doc + 1;
    for (let k = keyStart[doc] as number; k < end; k++) {
      const compact = keyCompact[k] as string;
      const full = keyFull[k] as string;
      for (let pass = 0; pass < 2; pass++) {
        const text = pass === 0 ? compact : full;
        if (pass === 1 && full === compact) break;
        const n = text.length;
        if (flatLength + n + 1 > flat.length) {
          const grown = new Int32Array(2 * (flatLength + n + 1));
          grown.set(flat);
          flat = grown;
        }
        let x = 1;
        let y = text.charCodeAt(0);
        if (n === 1) {
          const h = (Math.imul(Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca6b) ^ 0, 0x27d4eb2f) >>> shift) >>> 0;
          if (seen[h] !== stamp) {
            seen[h] = stamp;
            flat[flatLength++] = h;
            gramStart[h + 1] = (gramStart[h + 1] as number) + 1;
          }
          continue;
        }
        for (let i = 1; i < n; i++) {
          const z = text.charCodeAt(i);
          const h = (Math.imul(Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca6b) ^ Math.imul(z, 0xc2b2ae35), 0x27d4eb2f) >>> shift) >>> 0;
          x = y;
          y = z;
          if (seen[h] === stamp) continue;
          seen[h] = stamp;
          flat[flatLength++] = h;
          gramStart[h + 1] = (gramStart[h + 1] as number) + 1;
        }
      }
    }
    docGramEnd[doc] = flatLength;
  }
  for (let i = 1; i < gramStart.length; i++) gramStart[i] = (gramStart[i] as number) + (gramStart[i - 1] as number);
  const fill = gramStart.slice(0, -1);
  const gramDocs = new Int32Array(flatLength);
  let at = 0;
  for (let d = 0; d < count; d++) {
    const end = docGramEnd[d] as number;
    for (; at < end; at++) {
      const h = flat[at] as number;
      const slot = fill[h] as number;
      fill[h] = slot + 1;
      gramDocs[slot] = d;
    }
  }
  return packGramLists(gramStart, gramDocs);
}

/** The index from its parts; the string lists are wrapped here (see `strings.ts`). */
export function finish(
  slugs: Strings | readonly string[],
  keyStart: Int32Array,
  keyDoc: Int32Array,
  keyKind: Uint8Array,
  keyText: Strings | readonly string[] | null,
  keyCompact: Strings | readonly string[],
  keyFull: Strings | readonly string[],
  formKey: Int32Array,
  formExact: Uint8Array,
  gramStart: Uint32Array,
  gramBytes: Uint8Array,
  initials: InitialsTable | null = null,
  keyWords: Strings | null = null,
): SearchIndex {
  const strings = (s: Strings | readonly string[]): Strings => (Array.isArray(s) ? new ArrayStrings(s) : (s as Strings));
  const full = strings(keyFull);
  const compact = strings(keyCompact);
  const count = keyStart.length - 1;
  return {
    slugs: strings(slugs),
    keyStart,
    keyDoc,
    keyKind,
    keyText: keyText === null ? null : strings(keyText),
    keyWords,
    keyCompact: compact,
    keyFull: full,
    forms: new FormStrings(formKey, formExact, full, compact),
    formKey,
    formExact,
    gramStart,
    gramBytes,
    initials,
    scratch: {
      docScore: new Float64Array(count),
      docKey: new Int32Array(count),
      docHow: new Uint8Array(count),
      docFilter: new Int8Array(count),
      docs: [],
      gramCount: new Uint16Array(count),
      touched: new Int32Array(count),
      byCount: new Int32Array(count),
      initials: new Map(),
    },
  };
}

/**
 * The folded words of a key of this kind and text; run together, they are its full form.
 * A website is looked up by its host's first label (a query `kestrelaero.example` too).
 */
export function wordsOfKey(kind: number, text: string): string[] {
  if (kind === Kind.Slug) return text.split('-');
  return foldWords(kind === Kind.Domain ? domainLabel(text) : text);
}

/** Folds every key of registry rows (`[slug, name, website, ...aliases]`) and sorts the forms. */
export function loadRows(rows: readonly (readonly string[])[]): SearchIndex {
  const count = rows.length;
  let maxKeys = 0;
  for (const row of rows) maxKeys += row.length + 1;
  const b = new Loader(maxKeys);
  const slugs = new Array<string>(count);
  const keyStart = new Int32Array(count + 1);

  for (let doc = 0; doc < count; doc++) {
    const row = rows[doc] as string[];
    const slug = row[0] as string;
    const name = row[1] as string;
    const website = row[2] as string;
    slugs[doc] = slug;
    keyStart[doc] = b.keys;
    b.startDoc(doc);
    b.addKey(Kind.Name, name, wordsOfKey(Kind.Name, name));
    for (let i = 3; i < row.length; i++) b.addKey(Kind.Alias, row[i] as string, wordsOfKey(Kind.Alias, row[i] as string));
    b.addKey(Kind.Slug, slug, wordsOfKey(Kind.Slug, slug));
    if (website) b.addKey(Kind.Domain, website, wordsOfKey(Kind.Domain, website));
  }
  keyStart[count] = b.keys;

  const { entryForm, entryKey, entryExact } = b;
  const order = new Int32Array(b.entries);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((x, y) => {
    const fx = entryForm[x] as string;
    const fy = entryForm[y] as string;
    return fx < fy ? -1 : fx > fy ? 1 : x - y;
  });
  const formKey = new Int32Array(order.length);
  const formExact = new Uint8Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const e = order[i] as number;
    formKey[i] = entryKey[e] as number;
    formExact[i] = entryExact[e] as number;
  }

  const keys = b.keys;
  b.keyText.length = keys;
  b.keyCompact.length = keys;
  b.keyFull.length = keys;
  const { start, bytes } = gramLists(count, keyStart, b.keyCompact, b.keyFull);
  return finish(slugs, keyStart, b.keyDoc.slice(0, keys), b.keyKind.slice(0, keys), b.keyText, b.keyCompact, b.keyFull, formKey, formExact, start, bytes);
}
