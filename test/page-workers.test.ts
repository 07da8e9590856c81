/**
 * The page workers (src/build/render-pages.ts) write what Astro's own pipeline writes:
 * the shared sample build (profiles and leaderboards rendered by the workers, the
 * default) against the pages step alone over the same views with `EVI_PAGE_WORKERS=0`
 * (every page through Astro's pipeline), every page compared byte for byte.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SITE_URL, buildSite } from './lib/build-once.ts';

let dist: string;
const astroOnly = join(ROOT, '.cache', `pages-astro-only-${process.pid}`);

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function pagesStep(from: string, out: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/build-pages.ts', from, out], { cwd: ROOT, env: { ...process.env, SITE_URL, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (b: Buffer) => (log += b));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`pages step failed (exit ${code}):\n${log.slice(-4000)}`))));
  });
}

beforeAll(async () => {
  dist = await buildSite();
  await pagesStep(dist, astroOnly, { EVI_PAGE_WORKERS: '0' });
}, 600_000);

afterAll(() => rmSync(astroOnly, { recursive: true, force: true }));

describe('page workers', () => {
  it('write every page byte for byte as Astro renders it alone', () => {
    const built = htmlFiles(dist);
    expect(htmlFiles(astroOnly)).toEqual(built);
    const profiles = built.filter((p) => p.startsWith('company/'));
    const boards = built.filter((p) => p.startsWith('leaderboards/'));
    expect(profiles.length).toBe(readdirSync(join(dist, 'views/company')).length);
    expect(boards.length).toBeGreaterThan(100);
    const differ = built.filter((p) => !readFileSync(join(dist, p)).equals(readFileSync(join(astroOnly, p))));
    expect(differ).toEqual([]);
  });
});
