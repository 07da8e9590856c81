/**
 * A past month's company views as text (src/core/views/companies.ts, companyViewTexts):
 * the histories' text kept from one month's views to the next (HistoryTexts) and spliced
 * into each view's JSON must give exactly JSON.stringify of the view companyViews makes,
 * whatever order the months come in, and whatever the registry's names hold.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadData, type LoadedData } from '../src/build/load-data.ts';
import { historyOnly } from '../src/build/month-files.ts';
import { runBuild } from '../src/build/run-build.ts';
import type { Registry } from '../src/core/registry.ts';
import { scoreMonth, universes, type MonthResult } from '../src/core/score.ts';
import { companyViews, companyViewTexts, HistoryTexts } from '../src/core/views/companies.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import type { SiteInput } from '../src/core/views/site-input.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-history-texts-'));
let data: LoadedData;
let meta: MetaView;
let results: MonthResult[];
const detailed: MonthResult[] = [];

beforeAll(async () => {
  const out = join(tmp, 'dist');
  await runBuild({ root, dataDir: join(root, 'data'), outDir: out, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers: 1 });
  meta = JSON.parse(readFileSync(join(out, 'views/meta.json'), 'utf8')) as MetaView;
  data = await loadData({ dataDir: join(root, 'data'), cacheDir: null, root, workers: 1 });
  const pools = universes(data.registry);
  results = [];
  for (let i = 0; i < data.months.length; i++) {
    const agg = await data.aggregate(i);
    // What a month worker holds of the months (the history form), and each month scored with board details, as a views job scores it.
    results.push(historyOnly(scoreMonth(data.registry, agg, pools, false)));
    detailed.push(scoreMonth(data.registry, agg, pools, true));
  }
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Month i's views as a views job has them: the months before it and month i with its board details. */
const inputOf = (i: number, registry: Registry = data.registry): SiteInput => ({ registry, results: [...results.slice(0, i), detailed[i]!] }) as SiteInput;

/** Every view of month i as text by both ways: companyViewTexts with `histories`, JSON.stringify of companyViews. */
function both(i: number, histories: HistoryTexts, registry?: Registry) {
  const texts = [...companyViewTexts(inputOf(i, registry), meta, histories)].map((v) => v.text);
  const expected = [...companyViews(inputOf(i, registry), meta, true)].map((v) => JSON.stringify(v));
  return { texts, expected };
}

describe('company views as text with kept histories', () => {
  it('gives JSON.stringify of every view of every past month, the months in ascending order', () => {
    const histories = new HistoryTexts();
    let profiles = 0;
    for (let i = 0; i < data.months.length - 1; i++) {
      const { texts, expected } = both(i, histories);
      expect(texts.length).toBe(data.registry.companies.length);
      expect(texts).toEqual(expected);
      profiles += expected.filter((t) => t.includes('"history":[{')).length;
    }
    expect(profiles).toBeGreaterThan(0);
  });

  it('gives the same when the months come out of order or with gaps (each thread sees some months)', () => {
    const n = data.months.length - 1;
    expect(n).toBeGreaterThan(3);
    const histories = new HistoryTexts();
    for (const i of [n - 1, 1, 3, 2, n - 1, 0]) {
      const { texts, expected } = both(i, histories);
      expect(texts).toEqual(expected);
    }
  });

  it('gives the same for names with quotes, escapes, line separators, markup and the history key itself', () => {
    const n = data.months.length - 1;
    const odd = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(',"history":[]', '","history":[]', '</script>', '\u2028\u2029', '"\\', '\ud800', '😀'));
    fc.assert(
      fc.property(fc.array(odd, { minLength: 1, maxLength: 6 }), (names) => {
        const reg: Registry = { ...data.registry, companies: data.registry.companies.map((c, j) => ({ ...c, name: `${names[j % names.length]}${c.name}` })) };
        const histories = new HistoryTexts();
        for (const i of [n - 2, n - 1]) {
          const { texts, expected } = both(i, histories, reg);
          expect(texts).toEqual(expected);
        }
      }),
      { numRuns: 10 },
    );
  });
});
