import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MonthAggregate } from '../core/aggregate.ts';
import { readLookups } from '../../bench/lib/lookups.ts';
import { packAggregate, unpackAggregate } from './aggregate-file.ts';
import { parseMonthFile } from './parse-month.ts';

const data = join(import.meta.dirname, '../../data');

/** The same aggregate, field by field and in the same key order (what JSON of it would show). */
const same = (back: MonthAggregate, agg: MonthAggregate) => {
  expect(back).toEqual(agg);
  expect(JSON.stringify(back)).toBe(JSON.stringify(agg));
};

const text = fc.string({ unit: 'binary', maxLength: 12 });
const list = fc.array(fc.nat({ max: 2 ** 31 - 1 }), { maxLength: 20 });
const aggregate: fc.Arbitrary<MonthAggregate> = fc.record({
  month: fc.constant('2026-04'),
  file: text,
  rows: fc.nat(),
  scoredRows: fc.nat(),
  researchRows: fc.nat(),
  emptyCompanyRows: fc.nat(),
  researchModels: fc.dictionary(text, fc.nat()),
  latestDate: fc.option(fc.constant('2026-04-30')),
  contexts: fc.array(
    fc.record({
      industry: text,
      country: text,
      combos: fc.array(fc.tuple(text, text), { maxLength: 4 }),
      answers: list,
      // Names drawn from a few strings, so that the strings are shared as in a month.
      names: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'é', '\ud800', ''), text, list), { maxLength: 6 }),
    }),
    { maxLength: 5 },
  ),
});

describe('a parsed month as bytes', () => {
  it('gives back the very aggregate of each sample month', async () => {
    const lookups = await readLookups(data);
    const months = readdirSync(join(data, 'mentions'));
    expect(months.length).toBeGreaterThan(0);
    for (const name of months) {
      const parsed = await parseMonthFile(join(data, 'mentions', name), name, name.slice(0, 7), lookups);
      const agg = parsed.aggregate!;
      expect(agg.contexts.length, name).toBeGreaterThan(0);
      same(unpackAggregate(packAggregate(agg)), agg);
    }
  });

  it('gives back any aggregate, read at any offset of a larger buffer', () => {
    fc.assert(
      fc.property(aggregate, fc.nat({ max: 7 }), (agg, offset) => {
        const bytes = packAggregate(agg);
        const inside = Buffer.alloc(bytes.length + offset + 3);
        bytes.copy(inside, offset);
        same(unpackAggregate(inside.subarray(offset, offset + bytes.length)), agg);
      }),
    );
  });

  it('refuses bytes that are not such an entry instead of reading something else', () => {
    const agg: MonthAggregate = {
      month: '2026-04',
      file: 'm.csv',
      rows: 3,
      scoredRows: 3,
      researchRows: 0,
      emptyCompanyRows: 0,
      researchModels: {},
      latestDate: '2026-04-02',
      contexts: [{ industry: 'Aerospace', country: 'us', combos: [['ChatGPT', 'Culture']], answers: [0, 0], names: [['acme', 'Acme', [0, 1]]] }],
    };
    const bytes = packAggregate(agg);
    expect(() => unpackAggregate(bytes.subarray(0, 2))).toThrow('too short');
    expect(() => unpackAggregate(bytes.subarray(0, bytes.length - 4))).toThrow('runs past the end');
    expect(() => unpackAggregate(Buffer.concat([bytes, Buffer.alloc(4)]))).toThrow('1 integers left over');
    expect(() => unpackAggregate(Buffer.concat([bytes, Buffer.alloc(2)]))).toThrow('lengths do not add up');
    // The folded name's index pointed past the strings.
    const bad = Buffer.from(bytes);
    bad.writeInt32LE(7, bad.length - 5 * 4);
    expect(() => unpackAggregate(bad)).toThrow('no string 7');
    // A head saying the other byte order (this machine's is little-endian).
    const headBytes = bytes.readUInt32LE(0);
    const head = JSON.parse(bytes.toString('utf8', 4, 4 + headBytes));
    expect(head.littleEndian).toBe(true);
    const other = Buffer.from(JSON.stringify({ ...head, littleEndian: false }));
    const flipped = Buffer.alloc(4 + ((other.length + 3) & ~3));
    flipped.writeUInt32LE(other.length, 0);
    other.copy(flipped, 4);
    const ints = bytes.subarray(4 + ((headBytes + 3) & ~3));
    expect(() => unpackAggregate(Buffer.concat([flipped, ints]))).toThrow('other byte order');
    head.littleEndian = true;
    const again = Buffer.from(JSON.stringify(head));
    const control = Buffer.alloc(4 + ((again.length + 3) & ~3));
    control.writeUInt32LE(again.length, 0);
    again.copy(control, 4);
    same(unpackAggregate(Buffer.concat([control, ints])), agg);
  });
});
