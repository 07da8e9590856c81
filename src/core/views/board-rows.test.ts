import { describe, expect, it } from 'vitest';
import { boards, meta } from '../../../test/lib/fixture.ts';
import { compareNames } from '../text.ts';
import { BinaryBoard, encodeBoard, jsonBoard, SORTED, sortOrder } from './board-rows.ts';
import type { BoardRow } from './layout.ts';
import { leadersBody, rankingsBody } from './shape.ts';

// The fixture's 30-row retail board: mentions with ties, new entries (no previous rank), rises and falls.
const retail = boards.find((b) => b.industrySlug === 'retail' && b.rows.length >= 30)!;

describe('board orders (data-and-rules §3 sort)', () => {
  const rows = retail.rows;
  const change = (r: BoardRow, i: number) => (r[5] === null ? null : r[5] - (i + 1));

  it('rank and score keep rank order; each other sort is a permutation in its documented order, ties by rank', () => {
    expect(sortOrder(rows, 'rank')).toBeNull();
    expect(sortOrder(rows, 'score')).toBeNull();
    for (const sort of SORTED) expect([...sortOrder(rows, sort)!].sort((a, b) => a - b)).toEqual(rows.map((_, i) => i));
    const pairs = (sort: (typeof SORTED)[number]) => sortOrder(rows, sort)!.slice(1).map((b, k) => [sortOrder(rows, sort)![k]!, b] as const);
    for (const [a, b] of pairs('mentions')) expect(rows[a]![4] > rows[b]![4] || (rows[a]![4] === rows[b]![4] && a < b)).toBe(true);
    for (const [a, b] of pairs('name')) expect(compareNames(rows[a]![1], rows[b]![1])).toBeLessThanOrEqual(0);
    for (const [a, b] of pairs('change')) {
      const [ca, cb] = [change(rows[a]!, a), change(rows[b]!, b)];
      if (ca === null) expect(cb === null && a < b).toBe(true);
      else expect(cb === null || ca > cb || (ca === cb && a < b)).toBe(true);
    }
    // the fixture has both kinds, so the null rule above was exercised
    expect(rows.some((r) => r[5] === null) && rows.some((r) => r[5] !== null)).toBe(true);
  });
});

describe('binary board', () => {
  const binary = new BinaryBoard(encodeBoard(retail));

  it('reads back the facts, every row and every order', () => {
    const { rows: _, ...facts } = retail;
    expect(binary.facts).toEqual(facts);
    expect(binary.length).toBe(retail.rows.length);
    retail.rows.forEach((row, i) => expect(binary.row(i)).toEqual(row));
    for (const sort of SORTED) expect([...binary.order(sort)!]).toEqual(sortOrder(retail.rows, sort));
    expect(binary.order('rank')).toBeNull();
  });

  it('shapes the same bodies as the JSON view, for every sort, page and limit', () => {
    for (const sort of ['rank', 'score', ...SORTED] as const) {
      for (const [page, limit] of [[1, 25], [2, 7], [5, 7], [9, 7], [1, 100]] as const) {
        const body = JSON.stringify(rankingsBody(meta, binary, { sort, page, limit }));
        expect(body).toBe(JSON.stringify(rankingsBody(meta, retail, { sort, page, limit })));
        expect(body).toBe(JSON.stringify(rankingsBody(meta, jsonBoard(retail), { sort, page, limit })));
      }
    }
    for (const limit of [1, 10, 50]) expect(JSON.stringify(leadersBody(meta, binary, limit))).toBe(JSON.stringify(leadersBody(meta, retail, limit)));
  });

  it('refuses bytes that are not a board', () => {
    const bytes = encodeBoard(retail);
    expect(() => new BinaryBoard(bytes.slice(0, 40))).toThrow(/board/);
    const other = bytes.slice();
    other[0] = 0;
    expect(() => new BinaryBoard(other)).toThrow(/not a EVBD file/);
  });
});
