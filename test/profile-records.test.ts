/**
 * A month's company records (src/core/views/companies.ts) and the views shaped from them:
 * the records made with histories kept from earlier months (a month worker's
 * HistoryLists) must be the records made from scratch, whatever order the months come
 * in; a record read back from its JSON text (a past month's shard, as the API reads it)
 * must shape to the same view as the record in memory, whatever the registry's names
 * hold; and what search keeps of a record is what it keeps of the view.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadData, type LoadedData } from '../src/pipeline/read/load-data.ts';
import { historyOnly } from '../src/pipeline/write/month-files.ts';
import type { Registry } from '../src/core/registry.ts';
import { scoreMonth, universes, type MonthResult } from '../src/core/score.ts';
import { companyRecords, companyViews, HistoryLists, identityOf, searchRankingOfRecord, shapeSite, shapeView, type RecordTables } from '../src/core/views/companies.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { searchRankingOf } from '../src/core/views/search-views.ts';
import type { SiteInput } from '../src/core/views/site-input.ts';
import { DATA_DIR, ROOT, buildSite } from './lib/build-once.ts';

let data: LoadedData;
let meta: MetaView;
let results: MonthResult[];
const detailed: MonthResult[] = [];

beforeAll(async () => {
  // The site of the shared build of the same data.
  meta = JSON.parse(readFileSync(join(await buildSite(), 'views/meta.json'), 'utf8')) as MetaView;
  data = await loadData({ dataDir: DATA_DIR, cacheDir: null, root: ROOT, workers: 1 });
  const pools = universes(data.registry);
  results = [];
  for (let i = 0; i < data.months.length; i++) {
    const agg = await data.columns(i);
    // What a month worker holds of the months (the history form), and each month scored with board details, as a views job scores it.
    results.push(historyOnly(scoreMonth(data.registry, agg, pools, false)));
    detailed.push(scoreMonth(data.registry, agg, pools, true));
  }
}, 600_000);

/** Month i's input as a views job has it: the months before it (history form) and month i with its board details. */
const inputOf = (i: number, registry: Registry = data.registry): SiteInput => ({ registry, results: [...results.slice(0, i), detailed[i]!] }) as SiteInput;

/** Month i's records as JSON text (with the tables they name), made with `histories`. */
function recordsText(i: number, histories?: HistoryLists, registry?: Registry): string[] {
  const { tables, records } = companyRecords(inputOf(i, registry), histories);
  const texts = [...records].map(({ company, record }) => `${company.slug}:${JSON.stringify(record)}`);
  return [...texts, JSON.stringify(tables)];
}

describe('company records with kept histories', () => {
  it('are the records made from scratch, for every past month, the months in ascending order', () => {
    const histories = new HistoryLists();
    let withHistory = 0;
    for (let i = 0; i < data.months.length - 1; i++) {
      const kept = recordsText(i, histories);
      expect(kept.length).toBe(data.registry.companies.length + 1);
      expect(kept).toEqual(recordsText(i));
      // an entry for an earlier month: the history of a later month holds more than its own
      if (i > 0) withHistory += kept.filter((t) => /,\[0,\d+,[\d.]+,/.test(t)).length;
    }
    expect(withHistory).toBeGreaterThan(0);
  });

  it('are the same when the months come out of order or with gaps (each thread sees some months)', () => {
    const n = data.months.length - 1;
    expect(n).toBeGreaterThan(3);
    const histories = new HistoryLists();
    for (const i of [n - 1, 1, 3, 2, n - 1, 0]) expect(recordsText(i, histories)).toEqual(recordsText(i));
  });
});

describe('views shaped from records', () => {
  /** Month i's views shaped from its records in memory and from their JSON text, as a past month's (no lastUpdated). */
  function both(i: number, registry: Registry = data.registry) {
    const { tables, records } = companyRecords(inputOf(i, registry));
    const site = shapeSite(meta);
    const fromMemory: string[] = [];
    const fromText: string[] = [];
    const all = [...records];
    const read = JSON.parse(JSON.stringify(tables)) as RecordTables;
    for (const { company, record } of all) {
      fromMemory.push(JSON.stringify(shapeView(identityOf(company), record, tables, site)));
      fromText.push(JSON.stringify(shapeView(identityOf(company), JSON.parse(JSON.stringify(record)), read, site)));
    }
    return { fromMemory, fromText, all, tables };
  }

  it('from their JSON text: the same views, every month', () => {
    let profiles = 0;
    for (let i = 0; i < data.months.length; i++) {
      const { fromMemory, fromText } = both(i);
      expect(fromText).toEqual(fromMemory);
      profiles += fromMemory.filter((t) => t.includes('"history":[{')).length;
    }
    expect(profiles).toBeGreaterThan(0);
  });

  it('are companyViews: the current month with lastUpdated, a past one without', () => {
    const i = data.months.length - 1;
    const input = { ...inputOf(i), siteUrl: meta.siteUrl } as SiteInput;
    const current = [...companyViews(input, meta)];
    const past = [...companyViews(input, meta, true)];
    const ranked = current.filter((v) => v.defaultCountry !== null);
    expect(ranked.length).toBeGreaterThan(2);
    for (const v of ranked) for (const p of Object.values(v.profiles)) expect(Object.keys(p)).toContain('lastUpdated');
    for (const v of past) for (const p of Object.values(v.profiles)) expect(p.lastUpdated).toBeUndefined();
    expect(past.map((v) => JSON.stringify(v))).toEqual(both(i).fromMemory);
  });

  it('give what search keeps of a view, from the record alone', () => {
    const i = data.months.length - 2;
    const { all, tables } = both(i);
    const site = shapeSite(meta);
    let n = 0;
    for (const { company, record } of all) {
      if (!record) continue;
      expect(searchRankingOfRecord(identityOf(company), record)).toEqual(searchRankingOf(shapeView(identityOf(company), record, tables, site)));
      n++;
    }
    expect(n).toBeGreaterThan(2);
  });

  it('the same from text for names with quotes, escapes, line separators, markup and index-like keys', () => {
    const n = data.months.length - 1;
    const odd = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('"history":[]', '</script>', '\u2028\u2029', '"\\', '\ud800', '😀', '0', '12'));
    fc.assert(
      fc.property(fc.array(odd, { minLength: 1, maxLength: 6 }), (names) => {
        const reg: Registry = {
          ...data.registry,
          companies: data.registry.companies.map((c, j) => ({ ...c, name: `${names[j % names.length]}${c.name}` })),
          countries: data.registry.countries.map((c, j) => ({ ...c, name: `${names[(j + 1) % names.length]}${c.name}` })),
        };
        const { fromMemory, fromText } = both(n - 1, reg);
        expect(fromText).toEqual(fromMemory);
      }),
      { numRuns: 10 },
    );
  });
});
