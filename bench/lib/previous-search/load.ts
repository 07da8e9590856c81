import type { SerializedSearchIndex } from './build.ts';
import { GRAM_BITS, addGrams, newGramSet } from '../../../src/core/search/grams.ts';
import { domainLabel, foldWords, stripLegal } from '../../../src/core/search/normalize.ts';

/** Key kinds, in tie-break order. */
export const Kind = { Name: 0, Alias: 1, Slug: 2, Domain: 3 } as const;
type KindCode = (typeof Kind)[keyof typeof Kind];

/**
 * The in-memory index. A key is one name, alias, slug or website of a company; the
 * keys of a company are contiguous. Treat as opaque outside this folder.
 */
export interface SearchIndex {
  readonly slugs: readonly string[];
  /** First key of each company, plus the key count at the end. */
  readonly keyStart: Int32Array;
  readonly keyDoc: Int32Array;
  readonly keyKind: Uint8Array;
  /** Original text, reported as `matched`. */
  readonly keyText: readonly string[];
  /** Folded, no blanks, legal suffix dropped. */
  readonly keyCompact: readonly string[];
  /** Folded, no blanks, suffix kept. */
  readonly keyFull: readonly string[];
  /** Every compact and full form, sorted; with the key it belongs to. */
  readonly forms: readonly string[];
  readonly formKey: Int32Array;
  /** 1 when the form is the whole key (an exact match), 0 when suffix-stripped. */
  readonly formExact: Uint8Array;
  /** Trigram bucket -> companies (CSR, each list in company order). */
  readonly gramStart: Uint32Array;
  readonly gramDocs: Int32Array;
  /** Per-query work arrays, reset after every query. */
  readonly scratch: {
    docScore: Float64Array;
    docKey: Int32Array;
    docFilter: Int8Array;
    docs: number[];
    gramCount: Uint16Array;
    touched: number[];
    buckets: number[][];
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
  readonly docGrams: number[] = [];

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
    newGramSet(this.docGrams);
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
    addGrams(compact, this.docGrams);
    this.addForm(full, key, 1);
    if (compact !== full) {
      addGrams(full, this.docGrams);
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

/**
 * Turns the static file into a queryable index: folds every key, sorts the forms
 * and fills the trigram lists. Call once per Worker instance or page.
 * @example
 * const index = loadSearchIndex(await (await fetch('/views/search-index.json')).json());
 */
export function loadSearchIndex(data: SerializedSearchIndex): SearchIndex {
  if (data?.v !== 1 || !Array.isArray(data.docs)) throw new Error('loadSearchIndex: not a v1 search index');
  const rows = data.docs;
  const count = rows.length;
  let maxKeys = 0;
  for (const row of rows) maxKeys += row.length + 1;
  const b = new Loader(maxKeys);
  const slugs = new Array<string>(count);
  const keyStart = new Int32Array(count + 1);
  const gramStart = new Uint32Array((1 << GRAM_BITS) + 1);
  let flatGrams = new Int32Array(Math.max(1024, count * 32));
  let flatLength = 0;
  const docGramEnd = new Uint32Array(count);

  for (let doc = 0; doc < count; doc++) {
    const row = rows[doc] as string[];
    const slug = row[0] as string;
    const name = row[1] as string;
    const website = row[2] as string;
    slugs[doc] = slug;
    keyStart[doc] = b.keys;
    b.startDoc(doc);
    b.addKey(Kind.Name, name, foldWords(name));
    for (let i = 3; i < row.length; i++) b.addKey(Kind.Alias, row[i] as string, foldWords(row[i] as string));
    b.addKey(Kind.Slug, slug, slug.split('-'));
    // the host's first label; a query `kestrelaero.example` is looked up by its label too
    if (website) b.addKey(Kind.Domain, website, foldWords(domainLabel(website)));
    const grams = b.docGrams;
    if (flatLength + grams.length > flatGrams.length) {
      const grown = new Int32Array(2 * (flatLength + grams.length));
      grown.set(flatGrams);
      flatGrams = grown;
    }
    for (const h of grams) {
      flatGrams[flatLength++] = h;
      gramStart[h + 1] = (gramStart[h + 1] as number) + 1;
    }
    docGramEnd[doc] = flatLength;
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
  const forms = new Array<string>(order.length);
  const formKey = new Int32Array(order.length);
  const formExact = new Uint8Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const e = order[i] as number;
    forms[i] = entryForm[e] as string;
    formKey[i] = entryKey[e] as number;
    formExact[i] = entryExact[e] as number;
  }

  for (let i = 1; i < gramStart.length; i++) gramStart[i] = (gramStart[i] as number) + (gramStart[i - 1] as number);
  const fill = gramStart.slice(0, -1);
  const gramDocs = new Int32Array(flatLength);
  let at = 0;
  for (let d = 0; d < count; d++) {
    const end = docGramEnd[d] as number;
    for (; at < end; at++) {
      const h = flatGrams[at] as number;
      const slot = fill[h] as number;
      fill[h] = slot + 1;
      gramDocs[slot] = d;
    }
  }

  const keys = b.keys;
  b.keyText.length = keys;
  b.keyCompact.length = keys;
  b.keyFull.length = keys;
  return {
    slugs,
    keyStart,
    keyDoc: b.keyDoc.slice(0, keys),
    keyKind: b.keyKind.slice(0, keys),
    keyText: b.keyText,
    keyCompact: b.keyCompact,
    keyFull: b.keyFull,
    forms,
    formKey,
    formExact,
    gramStart,
    gramDocs,
    scratch: {
      docScore: new Float64Array(count),
      docKey: new Int32Array(count),
      docFilter: new Int8Array(count),
      docs: [],
      gramCount: new Uint16Array(count),
      touched: [],
      buckets: [],
    },
  };
}
