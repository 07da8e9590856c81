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
 * `pool[ranges[2i]]`..`pool[ranges[2i + 1]]`), each decoded on its first read and
 * kept: a query reads a few hundred of them.
 */
export class PoolStrings implements Strings {
  readonly #pool: Uint16Array | Uint8Array;
  readonly #ranges: Uint32Array;
  /** A map, not an array of every index: a query decodes a few hundred of tens of thousands. */
  readonly #decoded = new Map<number, string>();

  /** `pool`: the code units, one byte each where all are below 256. */
  constructor(pool: Uint16Array | Uint8Array, ranges: Uint32Array) {
    this.#pool = pool;
    this.#ranges = ranges;
  }

  get length(): number {
    return this.#ranges.length >>> 1;
  }

  get(i: number): string {
    let s = this.#decoded.get(i);
    if (s === undefined) {
      s = decodeUnits(this.#pool, this.#ranges[2 * i] as number, this.#ranges[2 * i + 1] as number);
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
