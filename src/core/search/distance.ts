/** Edit distance for the fuzzy stage: optimal string alignment (Levenshtein plus adjacent transpositions). */

let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

export interface Alignment {
  /** Distance between the query and the whole key. */
  full: number;
  /** Smallest distance between the query and any prefix of the key. */
  prefix: number;
  /** Length of that prefix (the shortest one on a tie). */
  prefixLength: number;
}

/**
 * Aligns `query` against `key` once and reads both the whole-key distance and the
 * best prefix distance off the last row, so a typed-ahead query with a typo
 * (`kestrl aero` for `Kestrel Aerospace`) costs no second pass.
 * @example align('kestrl', 'kestrelaero') // { full: 5, prefix: 1, prefixLength: 5 }
 */
export function align(query: string, key: string, out: Alignment = { full: 0, prefix: 0, prefixLength: 0 }): Alignment {
  const m = query.length;
  const n = key.length;
  if (rowA.length <= n) {
    const size = Math.max(n + 1, rowA.length * 2);
    rowA = new Int32Array(size);
    rowB = new Int32Array(size);
    rowC = new Int32Array(size);
  }
  // two rows back (i-2), previous (i-1), current (i)
  let back = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    const qc = query.charCodeAt(i - 1);
    const qp = i > 1 ? query.charCodeAt(i - 2) : -1;
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const kc = key.charCodeAt(j - 1);
      const cost = qc === kc ? 0 : 1;
      let d = (prev[j - 1] as number) + cost;
      const del = (prev[j] as number) + 1;
      if (del < d) d = del;
      const ins = (cur[j - 1] as number) + 1;
      if (ins < d) d = ins;
      if (i > 1 && j > 1 && qc === key.charCodeAt(j - 2) && qp === kc && cost === 1) {
        const tr = (back[j - 2] as number) + 1;
        if (tr < d) d = tr;
      }
      cur[j] = d;
    }
    const t = back;
    back = prev;
    prev = cur;
    cur = t;
  }
  out.full = prev[n] as number;
  let best = m;
  let bestLength = 0;
  for (let j = 1; j <= n; j++) {
    const d = prev[j] as number;
    if (d < best) {
      best = d;
      bestLength = j;
    }
  }
  out.prefix = best;
  out.prefixLength = bestLength;
  return out;
}

/**
 * Match masks of the two queries aligned last, one bit per query position, indexed by
 * UTF-16 code unit. Two: the fuzzy stage aligns each key with the query with and
 * without its legal form in turn, and one table would be refilled at every call.
 */
const peqs = [new Int32Array(65536), new Int32Array(65536)];
const peqQueries = ['', ''];
/** The table used last (the other one is refilled on a miss). */
let peqLast = 0;

function peqOf(query: string): Int32Array {
  if (peqQueries[peqLast] === query) return peqs[peqLast] as Int32Array;
  const slot = 1 - peqLast;
  peqLast = slot;
  const peq = peqs[slot] as Int32Array;
  if (peqQueries[slot] === query) return peq;
  const previous = peqQueries[slot] as string;
  for (let i = 0; i < previous.length; i++) peq[previous.charCodeAt(i)] = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    peq[c] = (peq[c] as number) | (1 << i);
  }
  peqQueries[slot] = query;
  return peq;
}

/**
 * {@link align} for queries of at most 31 code units, bit-parallel (Myers/Hyyrö,
 * with Hyyrö's transposition term): one pass of a few word operations per key
 * character instead of a row of cells.
 * @example alignBits('kestrl', 'kestrelaero') // { full: 5, prefix: 1, prefixLength: 5 }
 */
export function alignBits(query: string, key: string, out: Alignment = { full: 0, prefix: 0, prefixLength: 0 }): Alignment {
  const m = query.length;
  if (m === 0) return align(query, key, out);
  if (m > 31) return alignBlocks(query, key, out);
  const peq = peqOf(query);
  const high = 1 << (m - 1);
  const mask = high === 1 << 30 ? 0x7fffffff : (high << 1) - 1;
  let pv = mask;
  let mv = 0;
  let score = m;
  let best = m;
  let bestLength = 0;
  let d0 = 0;
  let eqPrev = 0;
  for (let j = 0; j < key.length; j++) {
    const eq = peq[key.charCodeAt(j)] as number;
    const tr = (((~d0 & eq) << 1) & eqPrev) & mask;
    d0 = (((((eq & pv) + pv) & mask) ^ pv) | eq | mv | tr) & mask;
    let hp = (mv | ~(d0 | pv)) & mask;
    let hm = d0 & pv;
    if (hp & high) score++;
    else if (hm & high) score--;
    hp = ((hp << 1) | 1) & mask;
    hm = (hm << 1) & mask;
    pv = (hm | ~(d0 | hp)) & mask;
    mv = hp & d0;
    eqPrev = eq;
    if (score < best) {
      best = score;
      bestLength = j + 1;
    }
  }
  out.full = score;
  out.prefix = best;
  out.prefixLength = bestLength;
  return out;
}

const WORD = 31;
const WORD_MASK = 0x7fffffff;
/** Longer queries are aligned by {@link align}. */
const MAX_BLOCKS = 8;

/**
 * A longer query's match masks, `blocks` words per distinct code unit: code unit ->
 * its row of `masks` (row 0: no match, all zeros).
 */
interface BlockPattern {
  query: string;
  blocks: number;
  row: Uint8Array;
  masks: Int32Array;
}

const newBlockPattern = (): BlockPattern => ({ query: '', blocks: 0, row: new Uint8Array(65536), masks: new Int32Array(0) });
/** As {@link peqs}: the two longer queries aligned last. */
const blockPatterns = [newBlockPattern(), newBlockPattern()];
let blockLast = 0;

function blockPatternOf(query: string, blocks: number): BlockPattern {
  if ((blockPatterns[blockLast] as BlockPattern).query === query) return blockPatterns[blockLast] as BlockPattern;
  blockLast = 1 - blockLast;
  const p = blockPatterns[blockLast] as BlockPattern;
  if (p.query === query) return p;
  for (let i = 0; i < p.query.length; i++) p.row[p.query.charCodeAt(i)] = 0;
  // rows 1.. for the query's distinct code units (at most MAX_BLOCKS * WORD < 256 of them)
  p.masks = new Int32Array((query.length + 1) * blocks);
  let rows = 1;
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    let r = p.row[c] as number;
    if (r === 0) p.row[c] = r = rows++;
    const at = r * blocks + Math.floor(i / WORD);
    p.masks[at] = (p.masks[at] as number) | (1 << (i % WORD));
  }
  p.query = query;
  p.blocks = blocks;
  return p;
}

let pvs = new Int32Array(4);
let mvs = new Int32Array(4);
let d0s = new Int32Array(4);

/** {@link alignBits} for longer queries: the same recurrences over 31-bit blocks, carries passed upward. */
function alignBlocks(query: string, key: string, out: Alignment): Alignment {
  const m = query.length;
  const blocks = Math.ceil(m / WORD);
  if (blocks > MAX_BLOCKS) return align(query, key, out);
  const { row, masks } = blockPatternOf(query, blocks);
  if (pvs.length < blocks) {
    pvs = new Int32Array(blocks);
    mvs = new Int32Array(blocks);
    d0s = new Int32Array(blocks);
  }
  const lastBits = m - (blocks - 1) * WORD;
  const lastMask = lastBits === WORD ? WORD_MASK : (1 << lastBits) - 1;
  const high = 1 << (lastBits - 1);
  for (let b = 0; b < blocks; b++) {
    pvs[b] = b === blocks - 1 ? lastMask : WORD_MASK;
    mvs[b] = 0;
    d0s[b] = 0;
  }
  // the previous key character's row of masks (0: none yet)
  let prevAt = 0;
  let score = m;
  let best = m;
  let bestLength = 0;
  for (let j = 0; j < key.length; j++) {
    const at = (row[key.charCodeAt(j)] as number) * blocks;
    let addCarry = 0;
    let trCarry = 0;
    let hpCarry = 1;
    let hmCarry = 0;
    for (let b = 0; b < blocks; b++) {
      const mask = b === blocks - 1 ? lastMask : WORD_MASK;
      const eq = masks[at + b] as number;
      const pv = pvs[b] as number;
      const mv = mvs[b] as number;
      const trBase = ~(d0s[b] as number) & eq & WORD_MASK;
      const tr = (((trBase << 1) | trCarry) & (masks[prevAt + b] as number)) & mask;
      trCarry = (trBase >>> (WORD - 1)) & 1;
      const sum = (eq & pv) + pv + addCarry;
      addCarry = sum > WORD_MASK ? 1 : 0;
      const d0 = (((sum & WORD_MASK) ^ pv) | eq | mv | tr) & mask;
      const hp = (mv | ~(d0 | pv)) & mask;
      const hm = d0 & pv;
      if (b === blocks - 1) {
        if (hp & high) score++;
        else if (hm & high) score--;
      }
      const hpShift = ((hp << 1) | hpCarry) & mask;
      const hmShift = ((hm << 1) | hmCarry) & mask;
      hpCarry = (hp >>> (WORD - 1)) & 1;
      hmCarry = (hm >>> (WORD - 1)) & 1;
      pvs[b] = (hmShift | ~(d0 | hpShift)) & mask;
      mvs[b] = hpShift & d0;
      d0s[b] = d0;
    }
    prevAt = at;
    if (score < best) {
      best = score;
      bestLength = j + 1;
    }
  }
  out.full = score;
  out.prefix = best;
  out.prefixLength = bestLength;
  return out;
}
