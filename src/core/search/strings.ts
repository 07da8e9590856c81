/**
 * The index's string lists (slugs, key texts, folded keys, sorted forms) behind one
 * small interface, so that the query path reads the same way whether the strings
 * are in memory (an index loaded from JSON) or still UTF-16 code units in the
 * binary file, decoded one at a time on first use (`binary.ts`).
 */
export interface Strings {
  readonly length: number;
  get(i: number): string;
}

/** The first index of the sorted `strings` whose string is not below `value` (code-unit order). */
export function lowerBound(strings: Strings, value: string): number {
  let lo = 0;
  let hi = strings.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strings.get(mid) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Strings already in an array. */
export class ArrayStrings implements Strings {
  readonly #items: readonly string[];

  constructor(items: readonly string[]) {
    this.#items = items;
  }

  get length(): number {
    return this.#items.length;
  }

  get(i: number): string {
    return this.#items[i] as string;
  }

  /** The strings as an array (the v2 writer's input). */
  toArray(): string[] {
    return [...this.#items];
  }
}

/**
 * Strings as ranges of one pool of UTF-16 code units (string `i` is
 * `pool[ranges[2i]]`..`pool[ranges[2i + 1]]`; with `stride` 1, strings laid end to end,
 * `pool[ranges[i]]`..`pool[ranges[i + 1]]`), each decoded on its first read and
 * kept: a query reads a few hundred of them.
 */
export class PoolStrings implements Strings {
  readonly #pool: Uint16Array | Uint8Array;
  readonly #ranges: Uint32Array;
  readonly #stride: 1 | 2;
  /** A map, not an array of every index: a query decodes a few hundred of tens of thousands. */
  readonly #decoded = new Map<number, string>();

  /** `pool`: the code units, one byte each where all are below 256. */
  constructor(pool: Uint16Array | Uint8Array, ranges: Uint32Array, stride: 1 | 2 = 2) {
    this.#pool = pool;
    this.#ranges = ranges;
    this.#stride = stride;
  }

  get length(): number {
    return this.#stride === 2 ? this.#ranges.length >>> 1 : Math.max(0, this.#ranges.length - 1);
  }

  get(i: number): string {
    let s = this.#decoded.get(i);
    if (s === undefined) {
      const at = this.#stride * i;
      s = decodeUnits(this.#pool, this.#ranges[at] as number, this.#ranges[at + 1] as number);
      this.#decoded.set(i, s);
    }
    return s;
  }
}

/** Characters per `String.fromCharCode` call (its arguments go on the stack). */
const CHUNK = 4096;

function decodeUnits(pool: Uint16Array | Uint8Array, start: number, end: number): string {
  if (end - start <= CHUNK) return String.fromCharCode.apply(null, pool.subarray(start, end) as unknown as number[]);
  let s = '';
  for (let at = start; at < end; at += CHUNK) s += String.fromCharCode.apply(null, pool.subarray(at, Math.min(end, at + CHUNK)) as unknown as number[]);
  return s;
}

/**
 * The sorted lookup forms: form `i` is the whole folded key `formKey[i]` when
 * `formExact[i]` is 1, its suffix-stripped form when 0 (no text of its own).
 */
export class FormStrings implements Strings {
  readonly #formKey: Int32Array;
  readonly #formExact: Uint8Array;
  readonly #full: Strings;
  readonly #compact: Strings;

  constructor(formKey: Int32Array, formExact: Uint8Array, full: Strings, compact: Strings) {
    this.#formKey = formKey;
    this.#formExact = formExact;
    this.#full = full;
    this.#compact = compact;
  }

  get length(): number {
    return this.#formKey.length;
  }

  get(i: number): string {
    const key = this.#formKey[i] as number;
    return this.#formExact[i] === 1 ? this.#full.get(key) : this.#compact.get(key);
  }
}

/**
 * Strings read from others with their blanks dropped: the binary index keeps each key's
 * folded words joined by a blank (word matching needs them apart), and its folded forms
 * are those words run together. Each string is made on its first read and kept.
 */
export class JoinedStrings implements Strings {
  readonly #spaced: Strings;
  readonly #joined = new Map<number, string>();

  constructor(spaced: Strings) {
    this.#spaced = spaced;
  }

  get length(): number {
    return this.#spaced.length;
  }

  get(i: number): string {
    let s = this.#joined.get(i);
    if (s === undefined) {
      s = this.#spaced.get(i);
      if (s.includes(' ')) s = s.split(' ').join('');
      this.#joined.set(i, s);
    }
    return s;
  }
}

/**
 * Each key's compact form in the binary index: its folded words (blank-joined in
 * `words`) less `cut[2i]` of them at the start and `cut[2i + 1]` at the end (a leading
 * `the`, the legal form), run together; the full form itself when nothing is cut.
 */
export class CutStrings implements Strings {
  readonly #words: Strings;
  readonly #full: Strings;
  readonly #cut: Uint8Array;
  readonly #cutForms = new Map<number, string>();

  constructor(words: Strings, full: Strings, cut: Uint8Array) {
    this.#words = words;
    this.#full = full;
    this.#cut = cut;
  }

  get length(): number {
    return this.#words.length;
  }

  get(i: number): string {
    const head = this.#cut[2 * i] as number;
    const tail = this.#cut[2 * i + 1] as number;
    if (head === 0 && tail === 0) return this.#full.get(i);
    let s = this.#cutForms.get(i);
    if (s === undefined) {
      const list = this.#words.get(i).split(' ');
      s = list.slice(head, list.length - tail).join('');
      this.#cutForms.set(i, s);
    }
    return s;
  }
}
