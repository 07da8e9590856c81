/**
 * The pages of a build, against the shared sample build (an empty cache: Astro compiled the
 * pages, the page workers rendered the profiles and leaderboards, the compiled pages went
 * into its cache):
 *
 * - The compiled pages kept in the build cache (src/pipeline/pages/pages-cache.ts): a build of
 *   the same data with a copy of that cache renders every page from the cached modules and
 *   writes the shared build's files, byte for byte; the entry is keyed by the site origin and
 *   the component's bytes, so another origin, or a component changed, is a miss. That build
 *   passes the file limit: its profile pages go through spools (src/pipeline/write/spool.ts)
 *   into the packs that packing the shared build gives.
 * - The build's order (src/pipeline/run-build.ts, build-pages.ts): with the compiled pages in
 *   the cache the page workers start on the profiles once the current company views and
 *   meta.json are written, take the leaderboards once those are, and render beside the rest
 *   of the views step; without them (the shared build's log), Astro compiles them beside the
 *   views step.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagesInputsKey } from '../src/pipeline/pages/pages-cache.ts';
import { WORKER_ROUTES } from '../src/pipeline/pages/render-pages.ts';
import { BUNDLE_DIR, manifestPath } from '../src/pipeline/workers/bundle-file.mjs';
import { BUILD_NODE_ARGS } from '../src/pipeline/workers/build-command.ts';
import { pagesEntry } from '../src/pipeline/cache/caches.ts';
import { packSite } from '../src/pipeline/write/pack-site.ts';
import { PACK_MANIFEST, type PackManifest } from '../src/core/views/packs.ts';
import { DATA_DIR, ROOT, SITE_URL, SOURCE_DATE_EPOCH, runNode, sharedBuild } from './lib/build-once.ts';
import { filesUnder } from './lib/dist.ts';

let dist: string;
let cache: string;
/** The shared build's log (the compiled pages missing from its cache), and the log of the build with them in its cache. */
let miss: string;
let hit: string;
let tmp: string;
/** Fewer files than the sample site's one per URL: the build with the pages in its cache packs its site. */
const MAX_FILES = 2_000;

beforeAll(async () => {
  const shared = await sharedBuild();
  ({ dist, cache, log: miss } = shared);
  tmp = mkdtempSync(join(tmpdir(), 'evi-order-'));
  // The build writes the ledger into its data folder, and its cache entries: copies.
  cpSync(DATA_DIR, join(tmp, 'data'), { recursive: true });
  cpSync(cache, join(tmp, 'cache'), { recursive: true });
  // Past the file limit (the profile pages go through spools into packs), as a large site is.
  const env = { SOURCE_DATE_EPOCH: String(SOURCE_DATE_EPOCH), EVI_PAGES: '1', EVI_DATA_DIR: join(tmp, 'data'), EVI_CACHE_DIR: join(tmp, 'cache'), EVI_OUT_DIR: join(tmp, 'out'), EVI_MAX_FILES: String(MAX_FILES) };
  hit = await runNode(BUILD_NODE_ARGS, env, 'build');
  // What packing the shared build gives (hard links: packing unlinks the copies, never the shared build's files).
  execFileSync('cp', ['-al', `${dist}/.`, join(tmp, 'packed')]);
  packSite(join(tmp, 'packed'), { maxFiles: MAX_FILES });
}, 600_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("the page workers' bundle", () => {
  // Astro's container and runtime load in ~0.2 s of CPU a thread so, against ~0.9-1.1 s for their ~580 modules from node_modules.
  it("holds Astro's container and runtime, as the page workers of the builds above loaded it", () => {
    const manifest = JSON.parse(readFileSync(manifestPath(join(ROOT, 'src/pipeline/workers/render-worker.ts')), 'utf8')) as { bundle: string; packages?: string; inputs: Record<string, string> };
    expect(manifest.packages).toBe('bundle');
    const inputs = Object.keys(manifest.inputs);
    expect(inputs).toContain('node_modules/astro/dist/container/index.js');
    expect(inputs.some((f) => f.startsWith('node_modules/astro/dist/runtime/server/'))).toBe(true);
    const code = readFileSync(join(BUNDLE_DIR, manifest.bundle), 'utf8');
    // No import of Astro from node_modules (the bundle's doc comments quote some).
    expect(code).not.toMatch(/^import [^\n]*from ["']astro[/"']/m);
    expect(code).not.toMatch(/import\(["']astro[/"']/);
  });
});

describe('compiled pages in the build cache', () => {
  it('a hit skips the compile and writes the same files, byte for byte, as the build that compiled the pages (both packed)', () => {
    expect(miss).toMatch(/astro build/);
    expect(hit).not.toMatch(/astro build/);
    expect(filesUnder(dist).filter((f) => f.startsWith('company/')).length).toBeGreaterThan(100);
    const out = join(tmp, 'out');
    const packed = join(tmp, 'packed');
    const all = filesUnder(packed);
    expect(all.filter((f) => f.startsWith('packs/company/')).length).toBeGreaterThan(1);
    expect(filesUnder(out)).toEqual(all);
    expect(all.filter((f) => f !== PACK_MANIFEST && !readFileSync(join(out, f)).equals(readFileSync(join(packed, f))))).toEqual([]);
    // The manifests differ only by the keys the build records for its past months' packs.
    const manifest = (dir: string) => ({ ...(JSON.parse(readFileSync(join(dir, PACK_MANIFEST), 'utf8')) as PackManifest), frozen: undefined });
    expect(manifest(out)).toEqual(manifest(packed));
  });

  it('the entry is found by the site origin: another origin is a miss', () => {
    const entry = (site: string) => basename(pagesEntry(cache, pagesInputsKey(ROOT, site, WORKER_ROUTES)).path);
    expect(readdirSync(cache).filter((e) => e.startsWith('pages-'))).toEqual([entry(SITE_URL)]);
    expect(entry('https://evi.example')).not.toBe(entry(SITE_URL));
  });

  it("the entry's key changes with a component's bytes, the site origin and the project folder, and only with them", () => {
    const copy = mkdtempSync(join(tmpdir(), 'evi-pages-key-'));
    try {
      for (const f of ['src', 'public', 'astro.config.mjs', 'tsconfig.json', 'package-lock.json']) cpSync(join(ROOT, f), join(copy, f), { recursive: true });
      const key = (root = copy, site = SITE_URL) => pagesInputsKey(root, site, WORKER_ROUTES);
      const before = key();
      expect(key()).toBe(before);
      expect(key(copy, 'https://evi.example')).not.toBe(before);
      expect(pagesInputsKey(ROOT, SITE_URL, WORKER_ROUTES)).not.toBe(before);
      writeFileSync(join(copy, 'README.md'), 'not read by the compile');
      expect(key()).toBe(before);
      const bars = join(copy, 'src/components/bars.ts');
      writeFileSync(bars, readFileSync(bars, 'utf8').replace('class="bars"', 'class="bars2"'));
      expect(key()).not.toBe(before);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe("the build's order", () => {
  it('with the compiled pages in the cache, the page workers start before the views step ends', () => {
    const at = (line: RegExp) => hit.split('\n').findIndex((l) => line.test(l));
    expect(miss).not.toMatch(/Page workers started/);
    // Every month from the cache (a monthly build's case): the page worker loads the compiled pages before the views step.
    expect(at(/page worker thread started: loading the compiled pages/)).toBeGreaterThan(-1);
    expect(at(/page worker thread started: loading the compiled pages/)).toBeLessThan(at(/Writing views/));
    expect(miss).not.toMatch(/loading the compiled pages/);
    // The search index reads the registry only: made while the newest month is still read
    // (in a monthly build, parsed on its worker), not in the views step.
    for (const log of [miss, hit]) {
      const line = log.split('\n');
      const made = line.findIndex((l) => /the search index made, before the newest month is scored/.test(l));
      expect(made).toBeGreaterThan(line.findIndex((l) => /Scoring and ranking/.test(l)));
      expect(made).toBeLessThan(line.findIndex((l) => /Scored \d+ months/.test(l)));
    }
    // Without the compiled pages in the cache, Astro compiles them on its own thread once what
    // the routes without parameters read is written, beside the rest of the views step.
    const inMiss = (line: RegExp) => miss.split('\n').findIndex((l) => line.test(l));
    expect(inMiss(/Astro compiles the pages beside the views step/)).toBeGreaterThan(inMiss(/static answers, OpenAPI/));
    expect(inMiss(/Astro compiles the pages beside the views step/)).toBeLessThan(inMiss(/Building pages/));
    expect(miss).toMatch(/astro build [\d.]+ s wall, on a thread of its own, beside the views step/);
    expect(miss).toMatch(/pages: page workers: \d+ pages in \d+ workers/);
    // The profiles first (they read meta.json and their company's view), batch by batch as
    // the current views are written; the leaderboards once written.
    expect(at(/Page workers started beside the current company views \(the profiles as their views are written\)/)).toBeGreaterThan(at(/Writing views/));
    expect(at(/Page workers started beside/)).toBeLessThan(at(/static answers, OpenAPI/));
    expect(at(/Page workers started beside/)).toBeLessThan(at(/Building pages/));
    expect(at(/Page workers started beside/)).toBeLessThan(at(/the leaderboards handed to the page workers/));
    expect(at(/the leaderboards handed to the page workers/)).toBeLessThan(at(/static answers, OpenAPI/));
  });
});
