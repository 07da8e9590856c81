/**
 * A packed release's past months are frozen: the next build links their packs forward from
 * the live release (no second copy of their bytes), publishes exactly what a cold build of the
 * same data publishes, and packs a month again when a live pack was edited in place.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';

const root = resolve(import.meta.dirname, '..');
const PAST_PACK = 'packs/views/months/2026-02/0.pack';

/** Every file under `dir` -> its bytes. */
function tree(dir: string, prefix = ''): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const d of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    if (d.isDirectory()) for (const [k, v] of tree(dir, rel)) files.set(k, v);
    else files.set(rel, readFileSync(join(dir, rel)));
  }
  return files;
}

/** The paths whose bytes differ between two trees, or that only one has. */
function differences(a: Map<string, Buffer>, b: Map<string, Buffer>): string[] {
  const paths = new Set([...a.keys(), ...b.keys()]);
  return [...paths].filter((p) => !a.get(p) || !b.get(p) || !a.get(p)!.equals(b.get(p)!)).sort();
}

describe.each([
  ['without a cache', false],
  // With one, the past months' files of packs linked forward are left out of the build.
  ['with a cache', true],
])('a packed release links its frozen months forward (%s)', (_, cached) => {
  const tmp = mkdtempSync(join(tmpdir(), 'evi-packed-months-'));
  const data = join(tmp, 'data');
  const out = join(tmp, 'dist');
  let log: string[] = [];
  const build = (outDir = out) => {
    log = [];
    const cacheDir = cached ? join(tmp, `cache-${outDir === out ? 'live' : 'cold'}`) : null;
    return runBuild({ root, dataDir: data, outDir, cacheDir, siteUrl: 'https://evi.example', sourceDateEpoch: 1790000000, pages: false, workers: 1, maxFiles: 1, log: (l) => log.push(l) });
  };
  const inode = (path: string) => statSync(join(out, path)).ino;

  beforeAll(async () => {
    cpSync(join(root, 'test/fixtures/basic'), data, { recursive: true });
    await build();
    // A new month: 2026-02 and 2026-03 are now past months.
    writeFileSync(join(data, 'mentions/2026-04.csv'), readFileSync(join(data, 'mentions/2026-03.csv'), 'utf8').replace(/2026-03-/g, '2026-04-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("links the past month's packs from the live release and publishes what a cold build publishes", async () => {
    const before = inode(PAST_PACK);
    await build();
    expect(inode(PAST_PACK)).toBe(before);
    expect(log.join('\n')).toMatch(/packs of past months linked from the live release/);
    await build(join(tmp, 'cold'));
    expect(differences(tree(out), tree(join(tmp, 'cold')))).toEqual([]);
  });

  it('packs a past month again when a live pack was edited in place', async () => {
    const path = join(out, PAST_PACK);
    const bytes = readFileSync(path);
    const edited = Buffer.from(bytes);
    // One byte of an entry's JSON, past the pack's header: the pack still reads, with a wrong value.
    edited[edited.length - 3] = edited[edited.length - 3] === 0x31 ? 0x32 : 0x31;
    writeFileSync(path, edited);
    await build();
    expect(readFileSync(join(out, PAST_PACK)).equals(bytes)).toBe(true);
    expect(differences(tree(out), tree(join(tmp, 'cold')))).toEqual([]);
  });
});
