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
 * kept: a query reads a few hundred of them. With `joined`, each string's blanks are left
 * out (the binary index keeps a key's words apart, and its full form is them run together).
 */
export class PoolStrings implements Strings {
  readonly #pool: Uint16Array | Uint8Array;
  readonly #ranges: Uint32Array;
  readonly #stride: 1 | 2;
  readonly #joined: boolean;
  /** A map, not an array of every index: a query decodes a few hundred of tens of thousands. */
  readonly #decoded = new Map<number, string>();

  /** `pool`: the code units, one byte each where all are below 256. */
  constructor(pool: Uint16Array | Uint8Array, ranges: Uint32Array, stride: 1 | 2 = 2, joined = false) {
    this.#pool = pool;
    this.#ranges = ranges;
    this.#stride = stride;
    this.#joined = joined;
  }

  get length(): number {
    return this.#stride === 2 ? this.#ranges.length >>> 1 : Math.max(0, this.#ranges.length - 1);
  }

  get(i: number): string {
    let s = this.#decoded.get(i);
    if (s === undefined) {
      const at = this.#stride * i;
      s = (this.#joined ? decodeJoined : decodeUnits)(this.#pool, this.#ranges[at] as number, this.#ranges[at + 1] as number);
      this.#decoded.set(i, s);
    }
    return s;
  }
}

/** Characters per `String.fromCharCode` call (its arguments go on the stack). */
const CHUNK = 4096;

const BLANK = 32;

/** Code units `start`..`end` of `pool` as a string, the blanks left out. */
function decodeJoined(pool: Uint16Array | Uint8Array, start: number, end: number): string {
  let kept = end - start;
  for (let i = start; i < end; i++) if (pool[i] === BLANK) kept--;
  if (kept === end - start) return decodeUnits(pool, start, end);
  const units = new Uint16Array(kept);
  for (let i = start, n = 0; i < end; i++) if (pool[i] !== BLANK) units[n++] = pool[i] as number;
  return decodeUnits(units, 0, kept);
}

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
 * Each key's compact form in the binary index: its folded words (blank-joined, laid end
 * to end in `pool` as `ends` says) less `cut[2i]` of them at the start and `cut[2i + 1]`
 * at the end (a leading `the`, the legal form), run together; the full form itself when
 * nothing is cut.
 */
export class CutStrings implements Strings {
  readonly #pool: Uint16Array | Uint8Array;
  readonly #ends: Uint32Array;
  readonly #cut: Uint8Array;
  readonly #full: Strings;
  readonly #decoded = new Map<number, string>();

  constructor(pool: Uint16Array | Uint8Array, ends: Uint32Array, cut: Uint8Array, full: Strings) {
    this.#pool = pool;
    this.#ends = ends;
    this.#cut = cut;
    this.#full = full;
  }

  get length(): number {
    return Math.max(0, this.#ends.length - 1);
  }

  get(i: number): string {
    let head = this.#cut[2 * i] as number;
    let tail = this.#cut[2 * i + 1] as number;
    if (head === 0 && tail === 0) return this.#full.get(i);
    let s = this.#decoded.get(i);
    if (s === undefined) {
      const pool = this.#pool;
      let from = this.#ends[i] as number;
      let to = this.#ends[i + 1] as number;
      // past `head` blanks from the start, before `tail` blanks from the end
      while (head > 0 && from < to) if (pool[from++] === BLANK) head--;
      while (tail > 0 && to > from) if (pool[--to] === BLANK) tail--;
      s = decodeJoined(pool, from, to);
      this.#decoded.set(i, s);
    }
    return s;
  }
}
