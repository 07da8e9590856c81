/** Trigram buckets shared by the index loader and the query path. */

export const GRAM_BITS = 16;

function gramHash(a: number, b: number, c: number): number {
  return (Math.imul(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35), 0x27d4eb2f) >>> (32 - GRAM_BITS)) >>> 0;
}

// Set membership without clearing: a bucket is in the current set when its stamp equals `mark`.
const stamps = new Uint32Array(1 << GRAM_BITS);
let mark = 0;

/** Empties `out` and starts a new set for {@link addGrams}. */
export function newGramSet(out: number[]): void {
  out.length = 0;
  if (++mark === 0xffffffff) {
    stamps.fill(0);
    mark = 1;
  }
}

/**
 * Adds the trigram buckets of `compact` (with a start marker, so first letters weigh
 * in) that the current set lacks. Buckets are hashed: a collision only adds a
 * candidate, which the scorer then rejects.
 * @example const g: number[] = []; newGramSet(g); addGrams('kestrel', g); g.length // 6
 */
export function addGrams(compact: string, out: number[]): void {
  let a = 1;
  let b = compact.charCodeAt(0);
  if (compact.length === 1) {
    add(gramHash(a, b, 0), out);
    return;
  }
  for (let i = 1; i < compact.length; i++) {
    const c = compact.charCodeAt(i);
    add(gramHash(a, b, c), out);
    a = b;
    b = c;
  }
}

function add(h: number, out: number[]): void {
  if (stamps[h] === mark) return;
  stamps[h] = mark;
  out.push(h);
}

/**
 * The trigram lists packed as the index keeps them: per bucket, its company count
 * then each company as its gap from the previous one (the first from -1), all LEB128
 * varints, and each bucket's byte offset (`start`, buckets + 1). Lists are in company
 * order, so most gaps take a byte or two where a plain list takes four per company:
 * the lists are the index's largest part, which a fresh Worker reads whole.
 * @example const { start, bytes } = packGramLists(gramStart, gramDocs);
 */
export function packGramLists(listStart: Uint32Array, listDocs: Int32Array): { start: Uint32Array; bytes: Uint8Array } {
  const buckets = listStart.length - 1;
  const start = new Uint32Array(buckets + 1);
  const varintBytes = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);
  let size = 0;
  for (let h = 0; h < buckets; h++) {
    start[h] = size;
    const from = listStart[h] as number;
    const to = listStart[h + 1] as number;
    if (to === from) continue;
    size += varintBytes(to - from);
    for (let i = from, prev = -1; i < to; prev = listDocs[i] as number, i++) size += varintBytes((listDocs[i] as number) - prev);
  }
  start[buckets] = size;
  const bytes = new Uint8Array(size);
  let at = 0;
  const put = (n: number): void => {
    while (n >= 0x80) {
      bytes[at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    bytes[at++] = n;
  };
  for (let h = 0; h < buckets; h++) {
    const from = listStart[h] as number;
    const to = listStart[h + 1] as number;
    if (to === from) continue;
    put(to - from);
    for (let i = from, prev = -1; i < to; prev = listDocs[i] as number, i++) put((listDocs[i] as number) - prev);
  }
  return { start, bytes };
}

/** How many companies bucket `h` of packed lists ({@link packGramLists}) holds. */
export function gramListLength(start: Uint32Array, bytes: Uint8Array, h: number): number {
  let at = start[h] as number;
  if (at === start[h + 1]) return 0;
  // a loop that runs at least once (see the query's decoding of the lists)
  let n = 0;
  let shift = 0;
  let b: number;
  do {
    b = bytes[at++] as number;
    n |= (b & 0x7f) << shift;
    shift += 7;
  } while (b >= 0x80);
  return n;
}
