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
  /**
   * The same two for the query's first `rows` code units against the key's first
   * `cols` (see {@link alignBits}): the table's first rows and columns are those of the
   * shorter strings, so one pass reads both (`Quill Works` against `Quill Works` while
   * aligning `Quill Works Ltd` against `Quill Works Inc`).
   */
  partFull: number;
  partPrefix: number;
}

/** A result object to pass to {@link align} and {@link alignBits}. */
export function newAlignment(): Alignment {
  return { full: 0, prefix: 0, prefixLength: 0, partFull: 0, partPrefix: 0 };
}

/**
 * Aligns `query` against `key` once and reads both the whole-key distance and the
 * best prefix distance off the last row, so a typed-ahead query with a typo
 * (`kestrl aero` for `Kestrel Aerospace`) costs no second pass; and the same two
 * for `query`'s first `rows` against `key`'s first `cols` (by default the whole strings).
 * @example align('kestrl', 'kestrelaero') // { full: 5, prefix: 1, prefixLength: 5, partFull: 5, partPrefix: 1 }
 */
export function align(query: string, key: string, out: Alignment = newAlignment(), rows = query.length, cols = key.length): Alignment {
  const m = query.length;
  const n = key.length;
  const r = Math.min(Math.max(rows, 0), m);
  const c = Math.min(Math.max(cols, 0), n);
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
  if (r === 0) {
    out.partFull = c;
    out.partPrefix = 0;
  }
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
    if (i === r) {
      out.partFull = prev[c] as number;
      let partBest = r;
      for (let j = 1; j <= c; j++) partBest = Math.min(partBest, prev[j] as number);
      out.partPrefix = partBest;
    }
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
 * UTF-16 code unit. Two: the fuzzy stage may align a key with the query with and
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
 * {@link align}, bit-parallel (Myers/Hyyrö, with Hyyrö's transposition term): one pass
 * of a few word operations per key character instead of a row of cells. The
 * `rows` x `cols` part is read off the same pass: row `rows`'s horizontal steps
 * over the first `cols` characters.
 * @example alignBits('kestrl', 'kestrelaero') // { full: 5, prefix: 1, prefixLength: 5, partFull: 5, partPrefix: 1 }
 * @example alignBits('quillworksltd', 'quillworksinc', newAlignment(), 10, 10) // partFull: 0 (quillworks / quillworks), full: 3
 */
export function alignBits(query: string, key: string, out: Alignment = newAlignment(), rows = query.length, cols = key.length): Alignment {
  const m = query.length;
  if (m === 0 || rows <= 0) return align(query, key, out, rows, cols);
  const r = Math.min(rows, m);
  const c = Math.min(Math.max(cols, 0), key.length);
  if (m > 2 * WORD) return alignBlocks(query, key, out, r, c);
  if (m > WORD) return alignTwo(query, key, out, r, c);
  const peq = peqOf(query);
  const high = 1 << (m - 1);
  const mask = high === 1 << 30 ? 0x7fffffff : (high << 1) - 1;
  const tap = 1 << (r - 1);
  let pv = mask;
  let mv = 0;
  let score = m;
  let best = m;
  let bestLength = 0;
  let part = r;
  let partBest = r;
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
    if (j < c) {
      if (hp & tap) part++;
      else if (hm & tap) part--;
      if (part < partBest) partBest = part;
    }
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
  return settle(out, score, best, bestLength, part, partBest);
}

/** `out` with the bit-parallel passes' figures. */
function settle(out: Alignment, full: number, prefix: number, prefixLength: number, partFull: number, partPrefix: number): Alignment {
  out.full = full;
  out.prefix = prefix;
  out.prefixLength = prefixLength;
  out.partFull = partFull;
  out.partPrefix = partPrefix;
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

/**
 * {@link alignBits} for queries of 32 to 62 code units (most company names typed in
 * full): {@link alignBlocks} written out for two blocks, its state in locals.
 */
function alignTwo(query: string, key: string, out: Alignment, r: number, c: number): Alignment {
  const m = query.length;
  const { row, masks } = blockPatternOf(query, 2);
  const lastBits = m - WORD;
  const mask1 = lastBits === WORD ? WORD_MASK : (1 << lastBits) - 1;
  const high = 1 << (lastBits - 1);
  const tap0 = r <= WORD ? 1 << (r - 1) : 0;
  const tap1 = r > WORD ? 1 << (r - 1 - WORD) : 0;
  let score = m;
  let best = m;
  let bestLength = 0;
  let part = r;
  let partBest = r;
  let pv0 = WORD_MASK;
  let mv0 = 0;
  let d00 = 0;
  let pv1 = mask1;
  let mv1 = 0;
  let d01 = 0;
  let prevAt = 0;
  for (let j = 0; j < key.length; j++) {
    const at = 2 * (row[key.charCodeAt(j)] as number);
    // block 0: rows 1-31
    const eq0 = masks[at] as number;
    const trBase0 = ~d00 & eq0 & WORD_MASK;
    const tr0 = ((trBase0 << 1) & (masks[prevAt] as number)) & WORD_MASK;
    const sum0 = (eq0 & pv0) + pv0;
    const d0a = (((sum0 & WORD_MASK) ^ pv0) | eq0 | mv0 | tr0) & WORD_MASK;
    const hp0 = (mv0 | ~(d0a | pv0)) & WORD_MASK;
    const hm0 = d0a & pv0;
    // block 1: the rest, carries from block 0
    const eq1 = masks[at + 1] as number;
    const trBase1 = ~d01 & eq1 & WORD_MASK;
    const tr1 = (((trBase1 << 1) | ((trBase0 >>> (WORD - 1)) & 1)) & (masks[prevAt + 1] as number)) & mask1;
    const sum1 = (eq1 & pv1) + pv1 + (sum0 > WORD_MASK ? 1 : 0);
    const d0b = (((sum1 & WORD_MASK) ^ pv1) | eq1 | mv1 | tr1) & mask1;
    const hp1 = (mv1 | ~(d0b | pv1)) & mask1;
    const hm1 = d0b & pv1;
    if (hp1 & high) score++;
    else if (hm1 & high) score--;
    if (j < c) {
      if ((hp0 & tap0) | (hp1 & tap1)) part++;
      else if ((hm0 & tap0) | (hm1 & tap1)) part--;
      if (part < partBest) partBest = part;
    }
    const hpShift0 = ((hp0 << 1) | 1) & WORD_MASK;
    const hmShift0 = (hm0 << 1) & WORD_MASK;
    const hpShift1 = ((hp1 << 1) | ((hp0 >>> (WORD - 1)) & 1)) & mask1;
    const hmShift1 = ((hm1 << 1) | ((hm0 >>> (WORD - 1)) & 1)) & mask1;
    pv0 = (hmShift0 | ~(d0a | hpShift0)) & WORD_MASK;
    mv0 = hpShift0 & d0a;
    d00 = d0a;
    pv1 = (hmShift1 | ~(d0b | hpShift1)) & mask1;
    mv1 = hpShift1 & d0b;
    d01 = d0b;
    prevAt = at;
    if (score < best) {
      best = score;
      bestLength = j + 1;
    }
  }
  return settle(out, score, best, bestLength, part, partBest);
}

let pvs = new Int32Array(4);
let mvs = new Int32Array(4);
let d0s = new Int32Array(4);

/** {@link alignBits} for longer queries: the same recurrences over 31-bit blocks, carries passed upward. */
function alignBlocks(query: string, key: string, out: Alignment, r: number, c: number): Alignment {
  const m = query.length;
  const blocks = Math.ceil(m / WORD);
  if (blocks > MAX_BLOCKS) return align(query, key, out, r, c);
  const { row, masks } = blockPatternOf(query, blocks);
  if (pvs.length < blocks) {
    pvs = new Int32Array(blocks);
    mvs = new Int32Array(blocks);
    d0s = new Int32Array(blocks);
  }
  const lastBits = m - (blocks - 1) * WORD;
  const lastMask = lastBits === WORD ? WORD_MASK : (1 << lastBits) - 1;
  const high = 1 << (lastBits - 1);
  const tapBlock = Math.floor((r - 1) / WORD);
  const tap = 1 << ((r - 1) % WORD);
  for (let b = 0; b < blocks; b++) {
    pvs[b] = b === blocks - 1 ? lastMask : WORD_MASK;
    mvs[b] = 0;
    d0s[b] = 0;
  }
  let score = m;
  let best = m;
  let bestLength = 0;
  let part = r;
  let partBest = r;
  // the previous key character's row of masks (0: none yet)
  let prevAt = 0;
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
      if (b === tapBlock && j < c) {
        if (hp & tap) part++;
        else if (hm & tap) part--;
        if (part < partBest) partBest = part;
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
  return settle(out, score, best, bestLength, part, partBest);
}
