/**
 * The releases behind the live one are removed on a thread of their own (remove-trees.ts):
 * the folders are gone, missing ones are fine, a failure is reported, a file other links keep
 * has the move of its change time reported (own-changes.ts), and no request of the
 * removal goes through this thread's file system calls on libuv's pool, where a release's
 * ~70,000 of them held back the build's own reads.
 */
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTrees } from './remove-trees.ts';

const tmp = mkdtempSync(join(tmpdir(), 'evi-remove-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A folder of `folders` folders of 50 files each. */
function tree(name: string, folders: number): string {
  const root = join(tmp, name);
  for (let d = 0; d < folders; d++) {
    mkdirSync(join(root, `d${d}`, 'sub'), { recursive: true });
    for (let f = 0; f < 50; f++) writeFileSync(join(root, `d${d}`, f % 2 ? 'sub' : '', `f${f}.json`), `{"f":${f}}`);
  }
  return root;
}

describe('removeTrees', () => {
  it('removes every folder given, and takes missing ones as removed', async () => {
    const a = tree('a', 3);
    const b = tree('b', 2);
    await removeTrees([a, join(tmp, 'never-made'), b]);
    expect(existsSync(a)).toBe(false);
    expect(existsSync(b)).toBe(false);
    expect(existsSync(tmp)).toBe(true);
  });

  it('sends no file system request through this thread while it removes', async () => {
    const big = tree('big', 40);
    const seen = new Set<string>();
    let polling = true;
    const poll = () => {
      for (const r of process.getActiveResourcesInfo()) seen.add(r);
      if (polling) setImmediate(poll);
    };
    poll();
    await removeTrees([big]);
    polling = false;
    expect(existsSync(big)).toBe(false);
    // fs.promises.rm over the same tree shows its requests here (FSReqCallback).
    expect([...seen].filter((r) => r.startsWith('FSReq'))).toEqual([]);
  });

  it('removes a link, given or inside the tree, and never what it points to', async () => {
    const kept = tree('kept', 2);
    const before = readdirSync(kept, { recursive: true }).length;
    const link = join(tmp, 'link');
    symlinkSync(kept, link);
    const withLinks = tree('with-links', 1);
    symlinkSync(kept, join(withLinks, 'd0', 'to-kept'));
    symlinkSync(join(kept, 'd0', 'f0.json'), join(withLinks, 'd0', 'sub', 'to-file'));
    await removeTrees([link, withLinks]);
    expect(existsSync(link)).toBe(false);
    expect(existsSync(withLinks)).toBe(false);
    expect(readdirSync(kept, { recursive: true }).length).toBe(before);
  });

  it("answers how the removal moved the change time of each file that other links keep", async () => {
    const t = tree('shared', 1);
    const kept = join(tmp, 'kept-link.json');
    linkSync(join(t, 'd0', 'f0.json'), kept);
    const before = statSync(kept, { bigint: true });
    const moved = await removeTrees([t]);
    const after = statSync(kept, { bigint: true });
    expect(after.nlink).toBe(1n);
    // only the file that another link keeps
    expect(moved).toEqual([[`${before.dev}:${before.ino}`, String(before.ctimeNs), String(after.ctimeNs)]]);
  });

  it('removes a file given', async () => {
    const file = join(tmp, 'one-file');
    writeFileSync(file, 'x');
    await removeTrees([file]);
    expect(existsSync(file)).toBe(false);
  });

  it('rejects with what went wrong', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'x');
    await expect(removeTrees([join(file, 'below')])).rejects.toThrow(/ENOTDIR/);
  });
});
