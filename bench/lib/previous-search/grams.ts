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
