/**
 * The page workers (src/pipeline/pages/render-pages.ts) write what Astro's own pipeline
 * writes: the pages step alone over the shared build's views with `EVI_PAGE_WORKERS=0`
 * (every page through Astro's pipeline), every file of the step compared byte for byte.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runNode, sharedBuild } from './lib/build-once.ts';
import { filesUnder } from './lib/dist.ts';

let dist: string;
let scratch: string;
let astroOnly: string;

beforeAll(async () => {
  ({ dist } = await sharedBuild());
  // Inside the project, as the shared build is: Astro's server chunks go under the working directory.
  scratch = mkdtempSync(join(ROOT, '.cache', 'pages-astro-'));
  astroOnly = join(scratch, 'out');
  await runNode(['--import', 'tsx', 'scripts/build-pages.ts', dist, astroOnly], { EVI_PAGE_WORKERS: '0', EVI_CACHE_DIR: 'off' }, 'pages step');
}, 600_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('page workers', () => {
  it('write every file of the pages step byte for byte as Astro renders it alone', () => {
    const built = filesUnder(dist).filter((p) => p.endsWith('.html'));
    expect(filesUnder(astroOnly).filter((p) => p.endsWith('.html'))).toEqual(built);
    const profiles = built.filter((p) => p.startsWith('company/'));
    const boards = built.filter((p) => p.startsWith('leaderboards/'));
    expect(profiles.length).toBe(readdirSync(join(dist, 'views/company')).length);
    expect(boards.length).toBeGreaterThan(100);
    // Every output of the step: pages, endpoints, 404, client assets, public files.
    const all = filesUnder(astroOnly);
    for (const f of ['index.html', '404.html', 'search/index.html', 'api-docs/index.html', 'llms.txt', 'llms-full.txt', 'robots.txt', 'sitemap.xml', 'favicon.ico']) expect(all).toContain(f);
    expect(all.some((f) => f.startsWith('_astro/') && f.endsWith('.css'))).toBe(true);
    const differ = all.filter((p) => !existsSync(join(dist, p)) || !readFileSync(join(dist, p)).equals(readFileSync(join(astroOnly, p))));
    expect(differ).toEqual([]);
  });
});

