import { describe, expect, it } from 'vitest';
import { align, alignBits, newAlignment } from './distance.ts';

function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
}

describe('align (optimal string alignment)', () => {
  it('reads the whole-key and best-prefix distances off one table', () => {
    expect(align('kestrl', 'kestrelaero')).toEqual({ full: 5, prefix: 1, prefixLength: 5, partFull: 5, partPrefix: 1 });
    expect(align('kestrel', 'kestrel')).toEqual({ full: 0, prefix: 0, prefixLength: 7, partFull: 0, partPrefix: 0 });
  });

  it('counts an adjacent transposition as one edit', () => {
    expect(align('kesterl', 'kestrel').full).toBe(1);
    expect(align('ab', 'ba').full).toBe(1);
  });
});

describe('alignBits', () => {
  it('agrees with the table on random strings, one block and several', () => {
    const r = rng(42);
    for (let t = 0; t < 3000; t++) {
      const alphabet = r() < 0.5 ? 'ab' : 'abcdefg';
      const m = 1 + Math.floor(r() * (t % 2 ? 31 : 100));
      let q = '';
      for (let i = 0; i < m; i++) q += alphabet[Math.floor(r() * alphabet.length)];
      let k = '';
      if (r() < 0.5) {
        k = q;
        for (let e = 0; e < 3; e++) {
          const p = Math.floor(r() * k.length);
          k = e === 0 ? k.slice(0, p) + k.slice(p + 1) : e === 1 ? `${k.slice(0, p)}c${k.slice(p)}` : k.slice(0, p) + (k[p + 1] ?? '') + (k[p] ?? '') + k.slice(p + 2);
        }
      } else {
        const n = Math.floor(r() * 110);
        for (let i = 0; i < n; i++) k += alphabet[Math.floor(r() * alphabet.length)];
      }
      expect({ ...alignBits(q, k) }, `${q} / ${k}`).toEqual({ ...align(q, k) });
    }
  });

  it('reads the first rows and columns of the table off the same pass, one block and several', () => {
    const r = rng(7);
    for (let t = 0; t < 3000; t++) {
      const alphabet = r() < 0.5 ? 'ab' : 'abcdefg';
      const m = 1 + Math.floor(r() * [31, 62, 100][t % 3]!);
      let q = '';
      for (let i = 0; i < m; i++) q += alphabet[Math.floor(r() * alphabet.length)];
      const n = Math.floor(r() * 80);
      let k = r() < 0.5 ? q.slice(0, n) : '';
      while (k.length < n) k += alphabet[Math.floor(r() * alphabet.length)];
      const rows = Math.floor(r() * (m + 1));
      const cols = Math.floor(r() * (n + 1));
      const part = align(q.slice(0, rows), k.slice(0, cols));
      const got = alignBits(q, k, newAlignment(), rows, cols);
      expect({ partFull: got.partFull, partPrefix: got.partPrefix }, `${q} / ${k} / ${rows} x ${cols}`).toEqual({ partFull: part.full, partPrefix: part.prefix });
      expect({ ...got }, `${q} / ${k} / ${rows} x ${cols}`).toEqual({ ...align(q, k, newAlignment(), rows, cols) });
    }
    expect(alignBits('quillworksltd', 'quillworksinc', newAlignment(), 10, 10)).toMatchObject({ full: 3, partFull: 0, partPrefix: 0 });
  });

  it('answers each query alike when several take turns', () => {
    // with and without a legal form, key by key, as the fuzzy stage does; short and long queries
    const queries = ['kestrlaero', 'kestrlaeroinc', 'quilworks', 'glenwickandpembridgenorthernmanufacturing', 'glenwickandpembridgenorthernmanufacturingsa', 'gelnwickpembridge'];
    const keys = ['kestrelaerospace', 'kestrelaerospacegroup', 'quillworksinc', 'glenwickandpembridgenorthernmanufacturingsa', 'pembridgenorthern'];
    for (const [a, b, c] of [[0, 1, 2], [3, 4, 0], [3, 4, 5], [1, 3, 5]] as const) {
      for (const k of keys) {
        for (const q of [queries[a], queries[b], queries[a], queries[c], queries[b]] as string[]) expect({ ...alignBits(q, k) }, `${q} / ${k}`).toEqual({ ...align(q, k) });
      }
    }
  });
});
