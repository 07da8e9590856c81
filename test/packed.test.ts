/**
 * The packed layout: the shared test build, packed as a build past its file limit packs it
 * (small packs, so that each group has several; a small limit per file, so that the search
 * index, the search rankings and the profiles download are split into parts), served by the Node server, the Worker under
 * workerd, Pages Functions and nginx. Each answers every endpoint and page as the Node server
 * answers them over the same build unpacked, and the files no longer grow with companies.
 * Pages Functions run as `npm run preview:pages` with RATE_LIMIT_PER_MINUTE=0, which leaves one
 * client unlimited.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Miniflare, RequestInit as MiniflareRequestInit } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PackedStore } from '../src/api/index.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { startServer, type RunningServer } from '../src/adapters/node/index.ts';
import { NGINX_BINARY } from '../src/adapters/node/nginx.ts';
import { PACK_MANIFEST, type PackManifest } from '../src/core/views/packs.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { RATE_LIMIT_PER_MINUTE } from '../src/core/policy.ts';
import { packSite } from '../src/pipeline/write/pack-site.ts';
import { apiSuite } from './lib/api-suite.ts';
import { builtDist, filesUnder } from './lib/dist.ts';
import { startPreview, type Preview } from './lib/preview.ts';
import { burst } from './lib/rate-window.ts';
import { bundleWorker, startWorker } from './lib/workerd.ts';

const MAX_FILES = 2_000;
/** Small enough to split the largest views and the profiles download of the test build. */
const MAX_FILE_BYTES = 260 * 1024;
let dist: string;
let packed: string;
let meta: MetaView;
let slugs: string[];
let files: RunningServer;
let node: RunningServer;

beforeAll(async () => {
  dist = await builtDist();
  packed = mkdtempSync(join(tmpdir(), 'evi-packed-'));
  // Hard links: packing unlinks the copies, never the shared build's files.
  execFileSync('cp', ['-al', `${dist}/.`, packed]);
  packSite(packed, { maxFiles: MAX_FILES, packBytes: 256 * 1024, maxFileBytes: MAX_FILE_BYTES, partBytes: 100 * 1024, entryPartBytes: 16 * 1024 });
  meta = JSON.parse(readFileSync(join(dist, 'views/meta.json'), 'utf8')) as MetaView;
  slugs = readdirSync(join(dist, 'views/company')).map((f) => f.replace(/\.json$/, ''));
  const serve = (distDir: string) => startServer({ distDir, port: 0, log: null, rateLimitPerMinute: 0 });
  [files, node] = await Promise.all([serve(dist), serve(packed)]);
}, 600_000);

afterAll(async () => {
  await Promise.all([files?.close(), node?.close()]);
  rmSync(packed, { recursive: true, force: true });
});

/** Requests that reach every packed group: each profile and its page, past months, boards. */
function targets(): string[] {
  const months = meta.months;
  const past = months.filter((m) => m !== meta.month);
  const codes = meta.countries.map((c) => c.code);
  const out = ['/', '/api/v1', '/api/v1/rankings', '/company/no-such-company/', '/company/no-such-company', `/api/v1/search?q=${encodeURIComponent(meta.examples.search)}`];
  // Searches whose hits' entries are in several parts of each month's search rankings.
  const q = encodeURIComponent(meta.examples.search.slice(0, 3));
  out.push(`/api/v1/search?q=${q}&limit=20`, `/api/v1/search?q=${q}&limit=20&country=${codes[0]}`, ...past.map((m) => `/api/v1/search?q=${q}&limit=20&month=${m}`));
  // Split files (the search index is read by the search above), and a download that is not.
  out.push(`/downloads/${meta.month}/profiles.ndjson.gz`, '/views/search-rankings.json', '/views/search-index.json', '/downloads/manifest.json', '/downloads/no-such-file.gz');
  // Every eighth company, its profile page and view read from their packs (the store test reads
  // every entry), a past month each; a page's other spellings (a redirect, index.html) for a few.
  slugs.filter((_, i) => i % 8 === 0).forEach((slug, i) => {
    out.push(`/company/${slug}/`, `/api/v1/company/${slug}`, `/api/v1/company/${slug}?month=${past[i % past.length]}`);
    if (i % 8 === 0) out.push(`/company/${slug}`, `/company/${slug}/index.html`);
  });
  for (const month of months) {
    meta.industries.slice(0, 3).forEach((industry, i) => {
      const country = codes[i % codes.length];
      out.push(`/api/v1/rankings?month=${month}&country=${country}&industry=${industry.slug}&limit=20`, `/api/v1/rankings?month=${month}&country=${country}&limit=20&offset=5`);
    });
  }
  return out;
}

/** Status, the headers a client reads, and the body of an answer. */
async function answer(res: Response): Promise<string> {
  const headers = ['content-type', 'location', 'access-control-allow-origin', 'cache-control'].map((h) => `${h}: ${res.headers.get(h)}`);
  return `${res.status}\n${headers.join('\n')}\n${await res.text()}`;
}

describe('a packed build', () => {
  it('holds no file per company, and its files stay within the limit and a host’s size per file', () => {
    const all = filesUnder(packed);
    expect(all.length).toBeLessThanOrEqual(MAX_FILES);
    expect(filesUnder(dist).length).toBeGreaterThan(MAX_FILES);
    const manifest = JSON.parse(readFileSync(join(packed, PACK_MANIFEST), 'utf8')) as PackManifest;
    // Only files larger than a pack stay files (a month's search rankings).
    for (const path of manifest.loose) expect(statSync(join(packed, path)).size, path).toBeGreaterThan(256 * 1024);
    const files = all.filter((f) => !manifest.loose.includes(f));
    for (const prefix of ['company/', 'views/company/', 'views/months/', 'views/rankings/', 'api/v1/company/']) expect(files.filter((f) => f.startsWith(prefix)), prefix).toEqual([]);
    expect(Object.keys(manifest.groups)).toEqual(expect.arrayContaining(['company', 'views/company', `views/rankings/${meta.month}`]));
    expect(manifest.groups.company).toBeGreaterThan(1);
    for (const f of all) expect(statSync(join(packed, f)).size, f).toBeLessThanOrEqual(MAX_FILE_BYTES);
    // What was larger is in parts.
    expect(Object.keys(manifest.split)).toEqual(expect.arrayContaining([`downloads/${meta.month}/profiles.ndjson.gz`, 'views/search-index.bin', 'views/search-rankings.json']));
    // Each month's search rankings, read by entry, are in parts too.
    expect(Object.keys(manifest.split)).toEqual(expect.arrayContaining(meta.months.map((m) => (m === meta.month ? 'views/search-rankings.bin' : `views/months/${m}/search-rankings.bin`))));
    for (const [path, split] of Object.entries(manifest.split)) {
      expect(existsSync(join(packed, path)), path).toBe(false);
      expect(split.parts, path).toBeGreaterThan(1);
    }
  });

  it('is read by the store as the files it replaced, to the byte', async () => {
    const store = new PackedStore(new FsStore(packed));
    const plain = new FsStore(dist);
    for (const path of filesUnder(dist).filter((p) => /^(company|views|downloads)\//.test(p))) {
      expect(Buffer.from((await store.bytes(path))!).equals(Buffer.from((await plain.bytes(path))!)), path).toBe(true);
    }
    expect(await store.read('views/company/no-such-company.json')).toBeNull();
  });

  it('the Node server answers every endpoint and page as over the files', async () => {
    for (const path of targets()) {
      const [a, b] = await Promise.all([files, node].map((s) => fetch(`${s.url}${path}`, { redirect: 'manual' }).then(answer)));
      expect(b, path).toBe(a);
    }
    // A page's validator answers 304.
    const page = await fetch(`${node.url}/company/${slugs[0]}/`);
    await page.arrayBuffer();
    const again = await fetch(`${node.url}/company/${slugs[0]}/`, { headers: { 'If-None-Match': page.headers.get('etag')! } });
    expect(again.status).toBe(304);
    // So does a split file's, and HEAD names its whole length.
    const download = `${node.url}/downloads/${meta.month}/profiles.ndjson.gz`;
    const whole = await fetch(download);
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.equals(readFileSync(join(dist, `downloads/${meta.month}/profiles.ndjson.gz`)))).toBe(true);
    expect((await fetch(download, { headers: { 'If-None-Match': whole.headers.get('etag')! } })).status).toBe(304);
    expect((await fetch(download, { method: 'HEAD' })).headers.get('content-length')).toBe(String(bytes.byteLength));
  });
});

describe('a packed build under workerd', () => {
  let mf: Miniflare;
  beforeAll(async () => {
    mf = await startWorker(await bundleWorker('packed-test'), packed);
  }, 120_000);
  afterAll(() => mf?.dispose());
  const call = async (path: string, init?: RequestInit) => (await mf.dispatchFetch(`http://localhost${path}`, init as MiniflareRequestInit)) as unknown as Response;

  apiSuite(() => ({ fetch: call, read: (path) => new PackedStore(new FsStore(packed)).read(path) }));

  it('answers every profile page and past month as the Node server does over the files', async () => {
    for (const path of targets().filter((p) => !p.startsWith('/company/') || p.endsWith('/'))) {
      const [a, b] = await Promise.all([fetch(`${files.url}${path}`, { redirect: 'manual' }).then((r) => r.text()), call(path, { redirect: 'manual' }).then((r) => r.text())]);
      expect(b, path).toBe(a);
    }
  });
});

describe('a packed build under Pages Functions', () => {
  let pages: Preview;
  beforeAll(async () => {
    pages = await startPreview('preview:pages', packed, '/api/v1/health', undefined, { RATE_LIMIT_PER_MINUTE: '0' });
  }, 120_000);
  afterAll(() => pages?.close());

  apiSuite(() => ({ fetch: (path, init) => fetch(`${pages.url}${path}`, init), read: (path) => new PackedStore(new FsStore(packed)).read(path) }));

  it('with RATE_LIMIT_PER_MINUTE=0 (npm run preview:pages as a client’s own test suite runs it), one client gets more than the deployment’s 60 answers a minute', async () => {
    const statuses = await burst(pages.url, RATE_LIMIT_PER_MINUTE + 10, '203.0.113.70');
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('answers the profile pages from the packs', async () => {
    for (const slug of slugs.slice(0, 40)) {
      const [a, b] = await Promise.all([files, pages].map((s) => fetch(`${s.url}/company/${slug}/`).then((r) => r.text())));
      expect(b, slug).toBe(a);
    }
  });
});

describe.skipIf(!existsSync(NGINX_BINARY))('a packed build behind nginx (npm run preview:nginx)', () => {
  let nginx: Preview;
  beforeAll(async () => {
    nginx = await startPreview('preview:nginx', packed, '/api/v1/health', undefined, { RATE_LIMIT_PER_MINUTE: '0' });
  }, 120_000);
  afterAll(() => nginx?.close());

  it('answers the pages, profiles and past months as the Node server does over the files', async () => {
    for (const path of targets().filter((_, i) => i % 3 === 0)) {
      const [a, b] = await Promise.all([files, nginx].map((s) => fetch(`${s.url}${path}`, { redirect: 'manual' }).then(async (r) => `${r.status} ${r.headers.get('location')}\n${await r.text()}`)));
      expect(b, path).toBe(a);
    }
    // The packs are build internals, as the views are.
    expect((await fetch(`${nginx.url}/${PACK_MANIFEST}`)).status).toBe(404);
  });
});
