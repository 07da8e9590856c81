/**
 * The month jobs' writer of company views (src/build/month-files.ts): it turns each view
 * into text as it comes instead of stringifying one object per shard, so its bytes must be
 * those of JSON.stringify of that object, array-index slugs (which an object puts first,
 * in numeric order) included.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/build/run-build.ts';
import { ShardFiles, shardFiles } from '../src/build/month-files.ts';
import { CurrentCompanyFiles, pastProfileText } from '../src/build/static-files.ts';
import { JsonWriter } from '../src/build/write-json.ts';
import { searchRankings } from '../src/core/views/build-views.ts';
import type { CompanyView, MetaView } from '../src/core/views/layout.ts';

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

const stripped = (v: CompanyView): CompanyView => ({
  ...v,
  profiles: Object.fromEntries(Object.entries(v.profiles).map(([code, p]) => [code, Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'lastUpdated'))])) as CompanyView['profiles'],
});

describe('past month company views as files', () => {
  it('writes each shard as JSON.stringify of its {slug: view} object, array-index slugs first', () => {
    const ranked = views.filter((v) => v.defaultCountry !== null);
    expect(ranked.length).toBeGreaterThan(1);
    // Slugs that are array indexes: an object lists them first, in numeric order (10 after 9).
    // A name beyond Latin-1 (two-byte text in V8) and beyond the BMP: the shard's bytes are its text's UTF-8.
    const all = [...ranked, { ...ranked[0]!, slug: '10' }, { ...ranked[1]!, slug: '9' }, { ...ranked[0]!, slug: '09', company: 'Łódź 東京 🚀' }];
    all.sort((a, b) => (a.slug < b.slug ? -1 : 1));
    const one = { ...meta, companyShards: 1 };
    const files = [...shardFiles(one, '2026-02', all, true)];
    const expected: Record<string, CompanyView> = {};
    for (const v of all) expected[v.slug] = stripped(v);
    expect(Object.keys(expected).slice(0, 2)).toEqual(['9', '10']);
    expect(files[0]![0]).toBe('months/2026-02/companies/0.json');
    expect(Buffer.from(files[0]![1]).toString()).toBe(JSON.stringify(expected));
    expect(files[0]![1].toString()).not.toMatch(/lastUpdated/);
    expect(files[1]![0]).toBe('months/2026-02/search-rankings.json');
    expect(Buffer.from(files[1]![1]).toString()).toBe(JSON.stringify(searchRankings({ ...meta, month: '2026-02' }, all.map(stripped))));
  });

  it('makes the current views as past (next month\'s cache entry) from their texts: the bytes of ShardFiles(strip), over every view of the sample and the basic data', { timeout: 120_000 }, async () => {
    const sample = join(tmp, 'sample-past');
    const data = join(tmp, 'data-past');
    cpSync(join(root, 'data'), data, { recursive: true });
    await runBuild({ root, dataDir: data, outDir: sample, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers: 1 });
    const read = (dir: string) => readdirSync(join(dir, 'views/company')).sort().map((f) => JSON.parse(readFileSync(join(dir, 'views/company', f), 'utf8')) as CompanyView);
    for (const [dir, m] of [[out, meta], [sample, JSON.parse(readFileSync(join(sample, 'views/meta.json'), 'utf8')) as MetaView]] as const) {
      const all = read(dir);
      // A name that carries the member's text: escaped inside its string, so not taken for it.
      const odd = all.find((v) => v.defaultCountry !== null)!;
      const lu = Object.values(odd.profiles)[0]!.lastUpdated!;
      const trap = `x","lastUpdated":"${lu}","profileUrl":"y`;
      all.push({ ...odd, slug: `${odd.slug}-odd`, company: trap, profiles: Object.fromEntries(Object.entries(odd.profiles).map(([c, p]) => [c, { ...p, company: trap }])) });
      all.sort((a, b) => (a.slug < b.slug ? -1 : 1));
      expect(all.filter((v) => v.defaultCountry !== null).length).toBeGreaterThan(2);
      for (const v of all)
        for (const p of Object.values(v.profiles)) {
          expect(p.lastUpdated).toBe(m.lastUpdated);
          expect(pastProfileText(p, JSON.stringify(p))).toBe(JSON.stringify(stripped({ ...v, profiles: { p } }).profiles.p));
        }
      const asPast = new ShardFiles(m, m.month);
      const scratch = join(tmp, `scratch-${all.length}`);
      const files = new CurrentCompanyFiles(new JsonWriter(join(scratch, 'views')), new JsonWriter(scratch), m, asPast);
      for (const v of all) files.add(v);
      const made = [...asPast.files()];
      const expected = [...shardFiles(m, m.month, all, true)];
      expect(made.map(([f]) => f)).toEqual(expected.map(([f]) => f));
      expect(made.length).toBeGreaterThan(2);
      for (let i = 0; i < made.length; i++) expect(Buffer.from(made[i]![1]).equals(Buffer.from(expected[i]![1])), made[i]![0]).toBe(true);
    }
  });

  it('writes the same past months on the month workers (which keep only the history form of the other months) as in the build thread', { timeout: 120_000 }, async () => {
    // The sample data: several past months, so the later ones have a history of earlier months.
    const one = join(tmp, 'sample-thread');
    const out2 = join(tmp, 'sample-workers');
    const data = join(tmp, 'data');
    cpSync(join(root, 'data'), data, { recursive: true });
    for (const [dir, workers] of [[one, 1], [out2, 2]] as const)
      await runBuild({ root, dataDir: data, outDir: dir, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers });
    const list = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length)).sort();
    const months = join(one, 'views/months');
    const files = list(months);
    expect(new Set(files.map((f) => f.split('/')[1])).size).toBeGreaterThan(2);
    expect(list(join(out2, 'views/months'))).toEqual(files);
    for (const f of files) expect(readFileSync(join(out2, 'views/months', f)).equals(readFileSync(join(months, f))), f).toBe(true);
  });

  it("stores the current month's views as they are served for that month once it is past", () => {
    // The build's own shards of a past month hold the same profile fields as the current views, less lastUpdated.
    const shard = JSON.parse(readFileSync(join(out, 'views/months/2026-02/companies', readdirSync(join(out, 'views/months/2026-02/companies'))[0]!), 'utf8')) as Record<string, CompanyView>;
    const some = Object.values(shard)[0]!;
    const profile = Object.values(some.profiles)[0]!;
    expect(profile.month).toBe('2026-02');
    expect(Object.keys(profile)).toEqual(Object.keys(Object.values(views.find((v) => v.defaultCountry)!.profiles)[0]!).filter((k) => k !== 'lastUpdated'));
  });
});
