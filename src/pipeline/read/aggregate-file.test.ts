import fc from 'fast-check';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aggregateOf, columnsOf, type MonthAggregate } from '../../core/aggregate.ts';
import { readLookups } from '../../../test/lib/lookups.ts';
import { packAggregate, unpackAggregate } from './aggregate-file.ts';
import { readCacheWith } from '../cache/cache-file.ts';
import { parseMonthFile, runMonthJob } from './parse-month.ts';

const tmp = mkdtempSync(join(tmpdir(), 'evi-entry-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const data = join(import.meta.dirname, '../../../data');

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

/** Each sample month parsed in this thread: its file, its name and its aggregate. */
let parsed: Promise<{ name: string; path: string; agg: MonthAggregate }[]> | undefined;
const sampleMonths = () =>
  (parsed ??= (async () => {
    const lookups = await readLookups(data);
    const months = [];
    for (const name of readdirSync(join(data, 'mentions'))) {
      const path = join(data, 'mentions', name);
      months.push({ name, path, agg: (await parseMonthFile(path, name, name.slice(0, 7), lookups)).aggregate! });
    }
    return months;
  })());

describe('a parsed month as bytes', () => {
  it('gives back the very aggregate of each sample month', async () => {
    const months = await sampleMonths();
    expect(months.length).toBeGreaterThan(0);
    for (const { name, agg } of months) {
      expect(agg.contexts.length, name).toBeGreaterThan(0);
      same(unpackAggregate(packAggregate(agg)), agg);
    }
  });

  it("is written by the parser worker from the month's columns as the very bytes of its aggregate's", async () => {
    const lookups = await readLookups(data);
    for (const { name, path, agg } of await sampleMonths()) {
      const store = { path: join(tmp, `${name}.bin`), key: 'k' };
      const outcome = await runMonthJob({ path, display: name, month: name.slice(0, 7), lookups, store });
      expect(outcome, name).toMatchObject({ stored: true, aggregate: null, rows: agg.rows });
      const bytes = await readCacheWith(store.path, store.key, () => {}, (b) => Buffer.from(b), 'unreadable');
      expect(bytes!.equals(packAggregate(agg)), name).toBe(true);
    }
  });

  it("an aggregate's columns give back the aggregate", () => {
    fc.assert(fc.property(aggregate, (agg) => same(aggregateOf(columnsOf(agg)), agg)));
  });

  it('gives back any aggregate, read at any offset of a larger buffer', () => {
    fc.assert(
      fc.property(aggregate, fc.nat({ max: 7 }), (agg, offset) => {
        const bytes = packAggregate(agg);
        const inside = Buffer.alloc(bytes.length + offset + 3);
        inside.set(bytes, offset);
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
    const bytes = Buffer.from(packAggregate(agg));
    expect(() => unpackAggregate(bytes.subarray(0, 2))).toThrow('parsed month: not a EVIM file');
    expect(() => unpackAggregate(Buffer.concat([Buffer.from('EVIS'), bytes.subarray(4)]))).toThrow('not a EVIM file');
    const later = Buffer.from(bytes);
    later.writeUInt32LE(2, 4);
    expect(() => unpackAggregate(later)).toThrow('format version 2, expected 1');
    expect(() => unpackAggregate(bytes.subarray(0, bytes.length - 4))).toThrow('section 1 out of bounds');
    expect(() => unpackAggregate(Buffer.concat([bytes, Buffer.alloc(4)]))).toThrow(`${bytes.length + 4} bytes, its sections make ${bytes.length}`);
    expect(() => unpackAggregate(Buffer.concat([bytes, Buffer.alloc(2)]))).toThrow(`${bytes.length + 2} bytes, its sections make ${bytes.length}`);
    // The integers section one integer longer than its lists (the file's last four bytes).
    const longer = Buffer.concat([bytes, Buffer.alloc(4)]);
    longer.writeUInt32LE(longer.readUInt32LE(24) + 4, 24);
    expect(() => unpackAggregate(longer)).toThrow('1 integers left over');
    // One integer shorter: the last list runs past the end.
    const shorter = Buffer.from(bytes.subarray(0, bytes.length - 4));
    shorter.writeUInt32LE(shorter.readUInt32LE(24) - 4, 24);
    expect(() => unpackAggregate(shorter)).toThrow('a list runs past the end');
    // The folded name's index pointed past the strings.
    const bad = Buffer.from(bytes);
    bad.writeInt32LE(7, bad.length - 5 * 4);
    expect(() => unpackAggregate(bad)).toThrow('no string 7');
    // A head that is not JSON.
    const garbled = Buffer.from(bytes);
    garbled[garbled.readUInt32LE(12)] = 0x7b + 1;
    expect(() => unpackAggregate(garbled)).toThrow(SyntaxError);
    // The file is the container of the binary views, its sections where its table says.
    expect(bytes.readUInt32LE(8)).toBe(2);
    same(unpackAggregate(bytes), agg);
  });
});
