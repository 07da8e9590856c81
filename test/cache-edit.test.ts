/**
 * The live release links the cache's files (src/pipeline/cache/cache-file.ts): they are read-only,
 * and a cache file edited in place with its size and modification time kept is caught by
 * the next build (its change time moved), which makes it again and publishes the right
 * bytes. The build's own links and removals move those change times too: each build ends
 * with every cached file recorded as it then is, so the next one need not read them again.
 */
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { identityOf } from '../src/pipeline/cache/own-changes.ts';
import { runBuild } from '../src/pipeline/run-build.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-cache-edit-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const data = join(tmp, 'data');
const out = join(tmp, 'dist');
const cache = join(tmp, 'cache');
let log: string[] = [];
const build = () => {
  log = [];
  return runBuild({ root, dataDir: data, outDir: out, cacheDir: cache, siteUrl: 'https://evi.example', sourceDateEpoch: 1790000000, pages: false, workers: 1, log: (l) => log.push(l) });
};

/** The cached files whose recorded identity is not their present one. */
function movedSinceRecorded(): string[] {
  const moved: string[] = [];
  for (const entry of readdirSync(cache)) {
    const index = join(cache, entry, '.entry.json');
    if (!existsSync(index)) continue;
    for (const f of (JSON.parse(readFileSync(index, 'utf8')) as { files: { path: string; stat: string }[] }).files) {
      if (identityOf(statSync(join(cache, entry, f.path), { bigint: true })) !== f.stat) moved.push(`${entry}/${f.path}`);
    }
  }
  return moved;
}

describe('cached files linked into the releases', () => {
  it('are recorded as they are after each build, the release behind the live one removed or not', async () => {
    cpSync(join(root, 'test/fixtures/basic'), data, { recursive: true });
    // the first build, one with a live release, one that also removes the release behind it
    for (let n = 0; n < 3; n++) {
      await build();
      expect(readdirSync(cache).filter((e) => e.startsWith('boards-'))).toHaveLength(2);
      expect(movedSinceRecorded()).toEqual([]);
    }
    expect(log.join('\n')).not.toMatch(/warning/);
  });
});

describe('a cache file edited in place', () => {
  it('is read-only, caught by the next build although its size and modification time are kept, and made again', async () => {
    cpSync(join(root, 'test/fixtures/basic'), data, { recursive: true });
    await build();
    const board = 'views/rankings/2026-02/us/aerospace.json';
    const right = readFileSync(join(out, board), 'utf8');
    const entry = readdirSync(cache).find((e) => e.startsWith('boards-2026-02-'))!;
    const file = join(cache, entry, board);
    // the very file the live release publishes
    expect(statSync(file).ino).toBe(statSync(join(out, board)).ino);
    expect(statSync(file).mode & 0o222).toBe(0);
    const { atime, mtime } = statSync(file);
    chmodSync(file, 0o644);
    writeFileSync(file, right.replace('"orbital-works"', '"orbital-wurks"'));
    utimesSync(file, atime, mtime);
    await build();
    expect(log.join('\n')).toMatch(/cache entry boards-2026-02-\w+ has views\/rankings\/2026-02\/us\/aerospace\.json not matching its digest/);
    expect(readFileSync(join(out, board), 'utf8')).toBe(right);
  });
});
