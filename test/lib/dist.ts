/**
 * The built site the HTTP and workerd suites run over: the one shared test build of
 * `build-once.ts` (pages included), or the folder named by `EVI_TEST_DIST`, so that
 * the deploy workflow tests the very `dist/` it ships.
 */
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { viewPaths, type MetaView } from '../../src/core/views/layout.ts';
import { ROOT, buildSite } from './build-once.ts';

export async function builtDist(): Promise<string> {
  const given = process.env.EVI_TEST_DIST;
  return given ? resolve(ROOT, given) : buildSite();
}

/** Every file under `dir`, as paths relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/**
 * A copy of the meta view and one company view of `dist`, plus a truncated view of another
 * company: the store of the "a corrupt view stays local" tests.
 */
export function corruptCopy(dist: string, prefix: string): { dir: string; bad: string; good: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const meta = JSON.parse(readFileSync(join(dist, viewPaths.meta()), 'utf8')) as MetaView;
  const [bad, good] = meta.examples.compare as [string, string];
  for (const path of [viewPaths.meta(), viewPaths.company(good)]) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(join(dist, path), join(dir, path));
  }
  writeFileSync(join(dir, viewPaths.company(bad)), '{"slug": "truncated');
  return { dir, bad, good };
}

/** The trees of one file per company, leaderboard or past month. */
const PER_ITEM = /^(company|leaderboards|views\/company|views\/months|views\/rankings|api\/v1\/company|api\/v1\/rankings|api\/v1\/months)\//;

/**
 * `dist` without its trees of one file per company, leaderboard or past month (hard links, in
 * a new temporary folder): the site's own files, the meta and search views, the downloads.
 * For a local deployment whose start reads every file (wrangler hashes each asset) where the
 * tests ask for no profile or leaderboard.
 */
export function slimCopy(dist: string, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const e of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    const path = relative(dist, join(e.parentPath, e.name));
    if (!e.isFile() || PER_ITEM.test(path)) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    try {
      linkSync(join(dist, path), join(dir, path));
    } catch {
      copyFileSync(join(dist, path), join(dir, path)); // another file system
    }
  }
  return dir;
}
