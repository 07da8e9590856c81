/**
 * The page workers (src/pipeline/pages/render-pages.ts) write what Astro's own pipeline writes:
 * the shared sample build (profiles and leaderboards rendered by the workers, the
 * default) against the pages step alone over the same views with `EVI_PAGE_WORKERS=0`
 * (every page through Astro's pipeline), every file of the step compared byte for byte.
 *
 * The compiled pages kept in the build cache (src/pipeline/pages/pages-cache.ts): the shared
 * build compiled them into its cache; the pages step run over its views with that cache
 * renders every file from the cached modules, the same bytes; the entry is keyed by the
 * site origin and the component's bytes, so another origin, or a component changed, is a miss.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagesInputsKey } from '../src/pipeline/pages/pages-cache.ts';
import { WORKER_ROUTES } from '../src/pipeline/pages/render-pages.ts';
import { BUNDLE_DIR, manifestPath } from '../src/pipeline/workers/bundle-file.mjs';
import { pagesEntry } from '../src/pipeline/cache/caches.ts';
import { ROOT, SITE_URL, sharedBuild } from './lib/build-once.ts';

let dist: string;
const scratch = join(ROOT, '.cache', `pages-test-${process.pid}`);
const astroOnly = join(scratch, 'astro-only');
let cache: string;
const logs: Record<string, string> = {};

function files(dir: string, ext = ''): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function pagesStep(from: string, out: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/build-pages.ts', from, out], { cwd: ROOT, env: { ...process.env, SITE_URL, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (b: Buffer) => (log += b));
    child.stderr.on('data', (b: Buffer) => (log += b));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(log) : fail(new Error(`pages step failed (exit ${code}):\n${log.slice(-4000)}`))));
  });
}

beforeAll(async () => {
  ({ dist, cache } = await sharedBuild());
  mkdirSync(scratch, { recursive: true });
  await pagesStep(dist, astroOnly, { EVI_PAGE_WORKERS: '0', EVI_CACHE_DIR: 'off' });
  logs.hit = await pagesStep(dist, join(scratch, 'hit'), { EVI_CACHE_DIR: cache });
}, 600_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('page workers', () => {
  it('write every file of the pages step byte for byte as Astro renders it alone', () => {
    const built = files(dist, '.html');
    expect(files(astroOnly, '.html')).toEqual(built);
    const profiles = built.filter((p) => p.startsWith('company/'));
    const boards = built.filter((p) => p.startsWith('leaderboards/'));
    expect(profiles.length).toBe(readdirSync(join(dist, 'views/company')).length);
    expect(boards.length).toBeGreaterThan(100);
    // Every output of the step: pages, endpoints, 404, client assets, public files.
    const all = files(astroOnly);
    for (const f of ['index.html', '404.html', 'search/index.html', 'api-docs/index.html', 'llms.txt', 'llms-full.txt', 'robots.txt', 'sitemap.xml', 'favicon.ico']) expect(all).toContain(f);
    expect(all.some((f) => f.startsWith('_astro/') && f.endsWith('.css'))).toBe(true);
    const differ = all.filter((p) => !existsSync(join(dist, p)) || !readFileSync(join(dist, p)).equals(readFileSync(join(astroOnly, p))));
    expect(differ).toEqual([]);
  });
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
  it('a hit skips the compile and writes every file of the pages step as a compile does', () => {
    expect(logs.hit).toMatch(/pages step \(compiled pages from the cache\)/);
    expect(logs.hit).not.toMatch(/astro build/);
    const all = files(astroOnly);
    const dir = join(scratch, 'hit');
    expect(files(dir)).toEqual(all);
    expect(all.filter((f) => !readFileSync(join(dir, f)).equals(readFileSync(join(astroOnly, f))))).toEqual([]);
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
