/**
 * `month` on every endpoint and the month-addressed URLs (service-spec §4 with the
 * release issue): a past month answers exactly what a build made when that month was
 * the current one answered. Both builds run on the same data (the later months'
 * files removed for the second) with the same SOURCE_DATE_EPOCH, so every body must be
 * byte-for-byte equal: profiles, compare, leaders, rankings and search.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../src/api/index.ts';
import type { Handler } from '../src/api/index.ts';
import { runBuild } from '../src/pipeline/run-build.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { sampleData } from './lib/sample-data.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-months-'));
const SITE = 'https://evi.example';
const EPOCH = 1790000000;

interface Site {
  handle: Handler;
  meta: MetaView;
  outDir: string;
}

async function build(dataDir: string, name: string, keepMonths: number | null): Promise<Site> {
  const data = join(tmp, `${name}-data`);
  cpSync(dataDir, data, { recursive: true });
  // A ledger records published months: one built without the later months starts its own.
  rmSync(join(data, 'releases.json'), { force: true });
  if (keepMonths !== null) {
    const files = readdirSync(join(data, 'mentions')).filter((f) => /\.csv(\.gz)?$/.test(f)).sort();
    for (const f of files.slice(keepMonths)) rmSync(join(data, 'mentions', f));
  }
  const outDir = join(tmp, `${name}-dist`);
  await runBuild({ root, dataDir: data, outDir, cacheDir: null, siteUrl: SITE, sourceDateEpoch: EPOCH, pages: false, workers: 1 });
  const handle = createHandler(new FsStore(outDir), { log: () => {} });
  const res = await handle(new Request(`${SITE}/api/v1`));
  const index = (await res.json()) as { dataset: { months: string[] } };
  expect(index.dataset.months.length).toBeGreaterThan(0);
  const meta = (await new FsStore(outDir).read('views/meta.json'))!;
  return { handle, meta: JSON.parse(meta) as MetaView, outDir };
}

/** The site built from `dataDir` with its first `keepMonths` months (all with null): one build each, read by every suite that asks for it. */
const sites = new Map<string, Promise<Site>>();
function buildSite(dataDir: string, keepMonths: number | null): Promise<Site> {
  const key = `${dataDir}|${keepMonths}`;
  if (!sites.has(key)) sites.set(key, build(dataDir, `site-${sites.size}`, keepMonths));
  return sites.get(key)!;
}

const get = async (handle: Handler, path: string) => {
  const res = await handle(new Request(`${SITE}${path}`));
  return { status: res.status, text: await res.text(), headers: res.headers };
};

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A body with every lastUpdated (top level and compared profiles) set to `date`. */
function dated(text: string, date: string): string {
  const body = JSON.parse(text) as Record<string, unknown>;
  if ('lastUpdated' in body) body.lastUpdated = date;
  if (Array.isArray(body.companies)) body.companies = (body.companies as Record<string, unknown>[]).map((p) => ({ ...p, lastUpdated: date }));
  return JSON.stringify(body);
}

for (const [label, dataDir, keep] of [
  ['hand-made fixture', join(root, 'test/fixtures/basic'), 1],
  // Four months of the sample data, the second one past in the full build (a month before it, two after).
  ['sample data', sampleData(join(tmp, 'sample'), 4), 2],
] as const) {
  describe(`a past month answers as it did when it was current (${label})`, () => {
    let full: Site;
    let then: Site;
    let month: string;

    beforeAll(async () => {
      full = await buildSite(dataDir, null);
      then = await buildSite(dataDir, keep);
      month = then.meta.month;
      expect(full.meta.months).toContain(month);
      expect(full.meta.month).not.toBe(month);
    });

    it('every company profile, in every country, by query and by month path', async () => {
      const slugs = readdirSync(join(then.outDir, 'views/company')).map((f) => f.replace(/\.json$/, ''));
      expect(slugs.length).toBeGreaterThan(3);
      let compared = 0;
      for (const slug of slugs) {
        const before = await get(then.handle, `/api/v1/company/${slug}`);
        const byQuery = await get(full.handle, `/api/v1/company/${slug}?month=${month}`);
        const byPath = await get(full.handle, `/api/v1/months/${month}/company/${slug}`);
        expect(byQuery.status, slug).toBe(before.status);
        expect(byPath.status, slug).toBe(before.status);
        if (before.status !== 200) continue;
        expect(byQuery.text, slug).toBe(before.text);
        // The permanent copy carries the month's first publication date instead of the release's.
        expect(byPath.text, slug).toBe(dated(before.text, full.meta.released![month]!));
        for (const country of (JSON.parse(before.text) as { countries: string[] }).countries) {
          const a = await get(then.handle, `/api/v1/company/${slug}?country=${encodeURIComponent(country)}`);
          const b = await get(full.handle, `/api/v1/company/${slug}?country=${encodeURIComponent(country)}&month=${month}`);
          expect(b.text, `${slug} in ${country}`).toBe(a.text);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(3);
    });

    it('leaderboards, leaders, compare and search', async () => {
      const paths: string[] = [];
      for (const [country, industries] of Object.entries(then.meta.boards[month]!)) {
        paths.push(`/rankings?country=${country}&sort=change&limit=7&page=2`, `/rankings/all/${country}?limit=3`);
        for (const industry of industries) paths.push(`/rankings?country=${country}&industry=${industry}`, `/rankings/${industry}/${country}`);
      }
      const ex = then.meta.examples;
      paths.push(`/compare?companies=${ex.compare.join(',')}`, `/search?q=${encodeURIComponent(ex.search)}`, `/search?q=${encodeURIComponent(ex.search.slice(0, 4))}&limit=20`);
      for (const path of paths) {
        const before = await get(then.handle, `/api/v1${path}`);
        const sep = path.includes('?') ? '&' : '?';
        const byQuery = await get(full.handle, `/api/v1${path}${sep}month=${month}`);
        const byPath = await get(full.handle, `/api/v1/months/${month}${path}`);
        expect(byQuery.text, path).toBe(before.text);
        expect(byPath.text, path).toBe(dated(before.text, full.meta.released![month]!));
        expect(byPath.headers.get('cache-control'), path).toBe('public, max-age=31536000, immutable');
      }
    });
  });
}

describe('month errors', () => {
  let handle: Handler;
  beforeAll(async () => {
    ({ handle } = await buildSite(join(root, 'test/fixtures/basic'), null));
  });

  it('a month that is not a month is a 400 saying which part is wrong', async () => {
    const r = await get(handle, '/api/v1/company/orbital-works?month=2026-13');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({ parameter: 'month', message: expect.stringContaining('13 is not a month') });
    expect((await get(handle, '/api/v1/months/26-01/rankings')).status).toBe(400);
  });

  it('a month outside the dataset is a 404 with validMonths, on every month-scoped endpoint', async () => {
    for (const path of ['/company/orbital-works?month=2025-01', '/search?q=orbital&month=2025-01', '/rankings/aerospace/us?month=2025-01', '/compare?companies=orbital-works,kestrel-aerospace-group&month=2025-01', '/months/2025-01/rankings']) {
      const r = await get(handle, `/api/v1${path}`);
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.text), path).toMatchObject({ parameter: 'month', validMonths: ['2026-02', '2026-03'] });
    }
  });
});

describe('current answers name their permanent copy', () => {
  let handle: Handler;
  let released: Record<string, string>;
  beforeAll(async () => {
    let meta: MetaView;
    ({ handle, meta } = await buildSite(join(root, 'test/fixtures/basic'), null));
    released = meta.released!;
  });

  it('a Link rel=canonical to the month-addressed form, with the endpoint parameters only, and it answers the same body', async () => {
    for (const [path, canonical] of [
      // Resolved parameters, defaults left out: country=US is the default; industry by its slug.
      ['/api/rankings?country=US&industry=Aerospace&utm_source=x&month=', '/api/v1/months/2026-03/rankings?industry=aerospace'],
      ['/api/v1/rankings?country=United%20Kingdom&limit=25&sort=rank', '/api/v1/months/2026-03/rankings?country=gb'],
      ['/api/v1/company/orbital-works/', '/api/v1/months/2026-03/company/orbital-works'],
      ['/api/v1/rankings/aerospace/us?limit=2&month=2026-02', '/api/v1/months/2026-02/rankings/aerospace/us?limit=2'],
      ['/api/v1/compare?companies=orbital-works,kestrel-aerospace-group', '/api/v1/months/2026-03/compare?companies=orbital-works,kestrel-aerospace-group'],
    ] as const) {
      const current = await get(handle, path);
      expect(current.status, path).toBe(200);
      expect(current.headers.get('link'), path).toBe(`<${canonical}>; rel="canonical"`);
      expect(current.headers.get('cache-control'), path).toBe('public, max-age=1800, s-maxage=3600, stale-while-revalidate=300');
      const permanent = await get(handle, canonical);
      const month = /months\/(\d{4}-\d{2})/.exec(canonical)![1]!;
      expect(permanent.text, canonical).toBe(dated(current.text, released[month]!));
      // The body names the same permanent URL, absolute.
      expect(JSON.parse(current.text).permalink, path).toBe(`${SITE}${canonical}`);
      expect(permanent.headers.get('link'), canonical).toBeNull();
    }
    expect((await get(handle, '/api/v1/health')).headers.get('link')).toBeNull();
  });
});

describe('a permanent URL keeps its bytes across releases', () => {
  it('the month-addressed answers of 2026-02 and 2026-03 are byte-identical after 2026-04 is released', async () => {
    const data = join(tmp, 'releases-data');
    cpSync(join(root, 'test/fixtures/basic'), data, { recursive: true });
    rmSync(join(data, 'releases.json'), { force: true });
    const build = async (out: string) => {
      await runBuild({ root, dataDir: data, outDir: join(tmp, out), cacheDir: null, siteUrl: SITE, pages: false, workers: 1 });
      return createHandler(new FsStore(join(tmp, out)), { log: () => {} });
    };
    const paths = ['/rankings?country=us&industry=aerospace', '/rankings/retail/us', '/company/orbital-works', '/company/kestrel-aerospace-group?country=gb', '/compare?companies=orbital-works,kestrel-aerospace-group', '/search?q=kestrel'];
    const first = await build('rel-1');
    const before = new Map<string, string>();
    for (const month of ['2026-02', '2026-03']) for (const p of paths) before.set(`${month}${p}`, (await get(first, `/api/v1/months/${month}${p}`)).text);
    // A new month, with its own latest date: the release's lastUpdated moves on.
    const march = readFileSync(join(data, 'mentions/2026-03.csv'), 'utf8').split('\n');
    writeFileSync(join(data, 'mentions/2026-04.csv'), [march[0], ...march.slice(1).filter(Boolean).map((r) => r.replace(/2026-03-(\d\d)/, '2026-04-$1'))].join('\n') + '\n');
    const second = await build('rel-2');
    expect(JSON.parse((await get(second, '/api/v1/health')).text).lastUpdated).not.toBe(JSON.parse((await get(first, '/api/v1/health')).text).lastUpdated);
    for (const [key, text] of before) {
      const [, month, p] = /^(\d{4}-\d{2})(.*)$/.exec(key)!;
      const again = await get(second, `/api/v1/months/${month}${p}`);
      expect(again.text, key).toBe(text);
    }
  });
});
