import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkTree } from '../bench/lib/link-tree.ts';

describe('bench linkTree (the cold cache kept for the next incremental build)', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every file of the tree under the new name, as a link to the same file', () => {
    dir = mkdtempSync(join(tmpdir(), 'evi-link-tree-'));
    const a = join(dir, 'a');
    mkdirSync(join(a, 'month-views-2026-10', 'months', '2026-10'), { recursive: true });
    writeFileSync(join(a, 'scored-2026-10.json'), 'top');
    writeFileSync(join(a, 'month-views-2026-10', '.entry.json'), '{"key":1}');
    writeFileSync(join(a, 'month-views-2026-10', 'months', '2026-10', 'companies-0.json'), '{"x":1}');
    // Three files, each a link (not a copy): the same inode under both names, below.
    expect(linkTree(a, join(dir, 'b'))).toBe(3);
    for (const f of ['scored-2026-10.json', 'month-views-2026-10/.entry.json', 'month-views-2026-10/months/2026-10/companies-0.json']) {
      expect(readFileSync(join(dir, 'b', f), 'utf8')).toBe(readFileSync(join(a, f), 'utf8'));
      expect(statSync(join(dir, 'b', f)).ino).toBe(statSync(join(a, f)).ino);
    }
    // An entry replaced as the cache replaces one (a new file renamed over the name) leaves the snapshot's bytes.
    writeFileSync(join(a, 'scored-2026-10.json.tmp'), 'new');
    renameSync(join(a, 'scored-2026-10.json.tmp'), join(a, 'scored-2026-10.json'));
    rmSync(join(a, 'month-views-2026-10'), { recursive: true });
    expect(readFileSync(join(dir, 'b', 'scored-2026-10.json'), 'utf8')).toBe('top');
    expect(readFileSync(join(dir, 'b', 'month-views-2026-10', 'months', '2026-10', 'companies-0.json'), 'utf8')).toBe('{"x":1}');
  });
});
