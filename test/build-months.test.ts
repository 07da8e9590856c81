/**
 * A past month's company files (src/pipeline/write/month-files.ts, RecordShards): each shard is the
 * records of its companies with the tables they name, the month's search rankings are
 * what search keeps of its views, and the current month's records stored in the cache
 * for the next build are byte for byte what that build's views job makes of the month
 * (on the month workers or in the build's thread, from the board details the scoring
 * packed or from the month's aggregate scored again).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';
import { RecordShards } from '../src/pipeline/write/month-files.ts';
import { searchRankings } from '../src/core/views/build-views.ts';
import { shapeSite, shapeView, type RecordShard, type RecordTables } from '../src/core/views/companies.ts';
import type { CompanyView, MetaView, SearchRankingsView } from '../src/core/views/layout.ts';
import { shardOf } from '../src/core/views/layout.ts';
import { sampleData } from './lib/sample-data.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-months-'));
const out = join(tmp, 'dist');
let views: CompanyView[] = [];
let meta: MetaView;

beforeAll(async () => {
  await runBuild({ root, dataDir: join(root, 'test/fixtures/basic'), outDir: out, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers: 1 });
  meta = JSON.parse(readFileSync(join(out, 'views/meta.json'), 'utf8')) as MetaView;
  views = readdirSync(join(out, 'views/company'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(out, 'views/company', f), 'utf8')) as CompanyView);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const list = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length)).sort();

describe('past month company files', () => {
  it('shard the records by slug, each shard with the months, theme lists and country names its records name', () => {
    const month = meta.months[meta.months.length - 2]!;
    const dir = join(out, 'views/months', month, 'companies');
    const shards = readdirSync(dir).map((f) => [Number(f.replace(/\.json$/, '')), JSON.parse(readFileSync(join(dir, f), 'utf8')) as RecordShard] as const);
    const site = shapeSite(meta);
    let records = 0;
    for (const [n, shard] of shards) {
      expect(shard.months).toEqual(meta.months.slice(0, meta.months.indexOf(month) + 1));
      const themes = new Set<string>(), codes = new Set<string>();
      for (const [slug, record] of Object.entries(shard.companies)) {
        expect(shardOf(slug, meta.companyShards)).toBe(n);
        for (const p of record[1]) (themes.add(String(p[11])), codes.add(p[0]));
        const current = views.find((v) => v.slug === slug)!;
        const view = shapeView(current, record, shard, site);
        for (const p of Object.values(view.profiles)) {
          expect(p.month).toBe(month);
          expect(Object.keys(p)).toEqual(Object.keys(Object.values(views.find((v) => v.defaultCountry)!.profiles)[0]!).filter((k) => k !== 'lastUpdated'));
        }
        records++;
      }
      expect(Object.keys(shard.themes).sort()).toEqual([...themes].sort());
      expect(Object.keys(shard.countries).sort()).toEqual([...codes].sort());
      for (const [code, name] of Object.entries(shard.countries)) expect(meta.countries.find((c) => c.code === code)!.name).toBe(name);
    }
    expect(records).toBeGreaterThan(1);
  });

  it("write the month's search rankings as searchRankings of the views shaped from the records, and leave out companies without data", () => {
    const tables: RecordTables = { months: ['2026-01', '2026-02'], themes: { 3: ['Leadership', 'Pay'] }, countries: { us: 'United States', gb: 'United Kingdom' } };
    const files = new RecordShards({ ...meta, companyShards: 1 }, tables);
    const a = { slug: 'a-co', company: 'Łódź 東京 🚀', website: 'a.example', industries: ['Retail'] };
    const b = { slug: 'b-co', company: 'B', website: 'b.example', industries: ['Retail'] };
    const rec = ['gb', [['gb', 'Retail', 2, 9, 1, 4, 7, 3, 6, 40, [50, null, 0], 3, [1, 50, 2, 0], [], [0, 3, 16.7, 1, 1, 50]]]] as const;
    files.add(a, structuredClone(rec) as never);
    files.add(b, null);
    const made = [...files.files()];
    expect(made.map(([f]) => f)).toEqual(['months/2026-02/companies/0.json', 'months/2026-02/search-rankings.json', 'months/2026-02/search-rankings.bin']);
    const shard = JSON.parse(Buffer.from(made[0]![1]).toString()) as RecordShard;
    expect(shard).toEqual({ months: tables.months, themes: { 3: ['Leadership', 'Pay'] }, countries: { gb: 'United Kingdom' }, companies: { 'a-co': rec } });
    const view = shapeView(a, shard.companies['a-co']!, shard, shapeSite(meta));
    expect(view.profiles.gb!.summary).toMatch(/^Łódź 東京 🚀 ranks 1st of 4 Retail employers in the United Kingdom in 2026-02, with a Visibility Score of 50: .* rose from 3rd in 2026-01/);
    expect(JSON.parse(Buffer.from(made[1]![1]).toString()) as SearchRankingsView).toEqual(searchRankings({ ...meta, month: '2026-02' }, [view]));
  });

  it("store the current month's records as the next build's past month: the bytes its views job makes, on the month workers and in the build's thread", { timeout: 180_000 }, async () => {
    // Four months of the sample data: the stored month has a history of earlier months.
    const data = sampleData(join(tmp, 'data'), 4);
    const mentions = join(data, 'mentions');
    const files = readdirSync(mentions).filter((f) => /\.csv(\.gz)?$/.test(f)).sort();
    expect(files.length).toBeGreaterThan(3);
    const lastFile = files[files.length - 1]!;
    const held = join(tmp, 'held');
    cpSync(join(mentions, lastFile), held);
    // One build without the last month (its current month's records stored in the cache), then one with it from that cache.
    // A ledger records published months: each build here starts its own.
    rmSync(join(mentions, lastFile));
    rmSync(join(data, 'releases.json'), { force: true });
    const cache = join(tmp, 'cache');
    await runBuild({ root, dataDir: data, outDir: join(tmp, 'before'), cacheDir: cache, siteUrl: 'https://evi.example', pages: false, workers: 1 });
    cpSync(held, join(mentions, lastFile));
    rmSync(join(data, 'releases.json'), { force: true });
    const cached = join(tmp, 'cached');
    const lines: string[] = [];
    await runBuild({ root, dataDir: data, outDir: cached, cacheDir: cache, siteUrl: 'https://evi.example', pages: false, workers: 1, log: (l) => lines.push(l) });
    // every past month's files came from the cache: the stored month's from the first build's current month
    expect(lines).toContain(`  ${files.length - 1} past months' company views (${files.length - 1} from the cache)`);
    // The same data without a cache: every past month made by a views job from the board
    // details its scoring packed, on two workers and on this thread.
    const made: string[] = [];
    for (const workers of [1, 2]) {
      rmSync(join(data, 'releases.json'), { force: true });
      const dir = join(tmp, `fresh-${workers}`);
      await runBuild({ root, dataDir: data, outDir: dir, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers });
      made.push(dir);
    }
    // And from a cache that holds every month's scored result but no month's company files:
    // each views job reads its month's aggregate and scores it again, with its details.
    for (const f of readdirSync(cache)) if (f.startsWith('month-views-')) rmSync(join(cache, f), { recursive: true });
    rmSync(join(data, 'releases.json'), { force: true });
    const rescored = join(tmp, 'rescored');
    lines.length = 0;
    await runBuild({ root, dataDir: data, outDir: rescored, cacheDir: cache, siteUrl: 'https://evi.example', pages: false, workers: 2, log: (l) => lines.push(l) });
    expect(lines).toContain(`Scored ${files.length} months (${files.length - 1} from the cache)`);
    expect(lines).toContain(`  ${files.length - 1} past months' company views (0 from the cache)`);
    made.push(rescored);
    const m = JSON.parse(readFileSync(join(cached, 'views/meta.json'), 'utf8')) as MetaView;
    const stored = m.months[m.months.length - 2]!;
    const months = join(cached, 'views/months');
    const all = list(months);
    expect(new Set(all.map((f) => f.split('/')[1])).size).toBe(m.months.length - 1);
    expect(all.filter((f) => f.startsWith(`/${stored}/companies/`)).length).toBeGreaterThan(2);
    for (const dir of made) {
      expect(list(join(dir, 'views/months'))).toEqual(all);
      for (const f of all) expect(readFileSync(join(dir, 'views/months', f)).equals(readFileSync(join(months, f))), `${dir}: ${f}`).toBe(true);
    }
  });
});
