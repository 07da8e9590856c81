/**
 * The leaderboards CSV (downloads.ts `LeaderboardCsv`, `csvField`) gives the bytes of
 * PapaParse's writer, which made it before (and so the bytes of every month already
 * published): random boards whose strings hold what CSV quotes (commas, quotes, line
 * breaks, byte order marks, spaces at either end) and what it does not, against
 * `Papa.unparse` of the same rows.
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { LEADERBOARD_COLUMNS, LeaderboardCsv, csvField, leaderboardsGz } from './downloads.ts';
import type { BoardRow, BoardView } from '../../core/views/layout.ts';

/** PapaParse's writer as the build called it, over the rows LeaderboardCsv makes of `views`. */
function papa(views: BoardView[]): string {
  const data: (string | number | null)[][] = [];
  for (const view of views)
    view.rows.forEach((r, i) => {
      const [slug, company, industry, score, mentions, previousRank, named, k, answers] = r;
      const rank = i + 1;
      data.push([view.month, view.countryCode, view.country, view.industrySlug, view.industry, rank, slug, company, industry, score, mentions, previousRank, previousRank === null ? null : previousRank - rank, named, k, answers]);
    });
  return `${Papa.unparse({ fields: LEADERBOARD_COLUMNS.map((c) => c.name), data }, { newline: '\n', quotes: false, escapeFormulae: false })}\n`;
}

const text = fc.oneof(
  { arbitrary: fc.string({ unit: fc.constantFrom('a', 'Z', 'é', '名', ' ', ',', '"', '\n', '\r', '\ufeff', '\t', "'", '=', '-') }), weight: 3 },
  { arbitrary: fc.string(), weight: 1 },
  { arbitrary: fc.constantFrom('Acme, Inc.', ' leading', 'trailing ', '"quoted"', 'two\nlines', '=SUM(A1)', ''), weight: 1 },
);
const num = fc.oneof(fc.integer({ min: -1000, max: 100000 }), fc.double({ min: 0, max: 100, noNaN: true }).map((x) => Math.round(x * 10) / 10));
const row: fc.Arbitrary<BoardRow> = fc.tuple(text, text, text, num, fc.nat(5000), fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }), fc.nat(40), fc.nat(40), fc.nat(5000));
const view: fc.Arbitrary<BoardView> = fc.record({
  industry: text,
  industrySlug: text,
  country: text,
  countryCode: text,
  month: fc.constantFrom('2026-10', '2026-11'),
  previousMonth: fc.constant(null),
  rows: fc.array(row, { maxLength: 8 }),
});

describe('LeaderboardCsv', () => {
  it("writes PapaParse's bytes for any boards", () => {
    fc.assert(
      fc.property(fc.array(view, { maxLength: 6 }), (views) => {
        const csv = new LeaderboardCsv();
        for (const v of views) csv.add(v);
        expect(csv.text()).toBe(papa(views));
        expect(csv.bytes().equals(Buffer.from(papa(views)))).toBe(true);
        expect(csv.rows).toBe(views.reduce((n, v) => n + v.rows.length, 0));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same bytes when read, added to and read again', () => {
    fc.assert(
      fc.property(fc.array(view, { maxLength: 4 }), fc.array(view, { maxLength: 4 }), (first, then) => {
        const csv = new LeaderboardCsv();
        for (const v of first) csv.add(v);
        expect(csv.text()).toBe(papa(first));
        for (const v of then) csv.add(v);
        expect(csv.text()).toBe(papa([...first, ...then]));
      }),
      { numRuns: 200 },
    );
  });

  it("gives each CSV's own bytes when one thread makes one after another", () => {
    fc.assert(
      fc.property(fc.array(fc.array(view, { maxLength: 6 }), { minLength: 2, maxLength: 4 }), (months) => {
        for (const views of months) {
          const csv = new LeaderboardCsv();
          for (const v of views) csv.add(v);
          const { gz, facts } = leaderboardsGz(csv);
          expect(gunzipSync(gz).toString('utf8')).toBe(papa(views));
          expect(facts.rows).toBe(views.reduce((n, v) => n + v.rows.length, 0));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('quotes a field as PapaParse does, and only then', () => {
    for (const [value, written] of [
      ['plain', 'plain'],
      ['Acme, Inc.', '"Acme, Inc."'],
      ['say "hi"', '"say ""hi"""'],
      [' lead', '" lead"'],
      ['trail ', '"trail "'],
      ['in the middle', 'in the middle'],
      ['two\nlines', '"two\nlines"'],
      ['\ufeffbom', '"\ufeffbom"'],
      ['', ''],
      [null, ''],
      [-3, '-3'],
      [66.7, '66.7'],
    ] as const)
      expect(csvField(value)).toBe(written);
  });
});
