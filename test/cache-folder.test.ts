/**
 * A folder entry of the build's caches (src/pipeline/cache/cache-file.ts): written with each file's
 * identity, read back without hashing a file that is still the one written, and any other
 * file hashed: kept when its bytes are the ones written, the entry dropped when not.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCacheFolder, writeCacheFolder } from '../src/pipeline/cache/cache-file.ts';

const tmp = mkdtempSync(join(tmpdir(), 'evi-cache-folder-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const files = (): [string, Uint8Array][] => [
  ['a/one.json', Buffer.from('{"one":1}')],
  ['a/b/two.json', Buffer.from('{"two":"Łódź"}')],
  ['three.bin', new Uint8Array(200_000).map((_, i) => i % 251)],
];

describe('cache folder entries', () => {
  it('read back what was written, each file as written, without rewriting the index', async () => {
    const dir = join(tmp, 'entry-1');
    const written = await writeCacheFolder(dir, 'k1', files(), { rows: 3 });
    expect(written.map((f) => [f.path, f.bytes])).toEqual(files().map(([p, b]) => [p, b.byteLength]));
    const index = statSync(join(dir, '.entry.json'), { bigint: true }).mtimeNs;
    const warnings: string[] = [];
    const entry = await readCacheFolder(dir, 'k1', (l) => warnings.push(l));
    expect(entry!.info).toEqual({ rows: 3 });
    expect(entry!.files.map((f) => [f.path, readFileSync(f.file)])).toEqual(files().map(([p, b]) => [p, Buffer.from(b)]));
    // every file's identity was the one recorded: nothing hashed again, the index untouched
    expect(statSync(join(dir, '.entry.json'), { bigint: true }).mtimeNs).toBe(index);
    expect(warnings).toEqual([]);
    expect(await readCacheFolder(dir, 'another key', (l) => warnings.push(l))).toBeNull();
    expect(warnings[0]).toMatch(/was made from other inputs/);
  });

  it('hash a file whose identity changed: the same bytes are kept (their new identity recorded), other bytes drop the entry', async () => {
    const dir = join(tmp, 'entry-2');
    await writeCacheFolder(dir, 'k2', files());
    const two = join(dir, 'a/b/two.json');
    utimesSync(two, new Date(2020, 0, 1), new Date(2020, 0, 1));
    const before = readFileSync(join(dir, '.entry.json'), 'utf8');
    const warnings: string[] = [];
    expect((await readCacheFolder(dir, 'k2', (l) => warnings.push(l)))!.files).toHaveLength(3);
    expect(warnings).toEqual([]);
    const after = readFileSync(join(dir, '.entry.json'), 'utf8');
    expect(after).not.toBe(before);
    expect(after).toContain(`:${statSync(two, { bigint: true }).mtimeNs}`);
    // other bytes of the same length, written in place
    const length = statSync(two).size;
    writeFileSync(two, `{"two":"${'x'.repeat(length - 10)}"}`);
    expect(statSync(two).size).toBe(length);
    expect(await readCacheFolder(dir, 'k2', (l) => warnings.push(l))).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/has a\/b\/two\.json not matching its digest/)]);
    expect(existsSync(dir)).toBe(false);
  });

  it('are read-only, and an edit in place that keeps the size and the modification time is caught', async () => {
    const dir = join(tmp, 'entry-3');
    await writeCacheFolder(dir, 'k3', files());
    const one = join(dir, 'a/one.json');
    expect(statSync(one).mode & 0o222).toBe(0);
    const { atime, mtime, size } = statSync(one);
    // the same length, other bytes; the modification time set back
    chmodSync(one, 0o644);
    writeFileSync(one, '{"one":2}');
    utimesSync(one, atime, mtime);
    expect(statSync(one).size).toBe(size);
    expect(statSync(one).mtimeMs).toBe(mtime.getTime());
    const warnings: string[] = [];
    expect(await readCacheFolder(dir, 'k3', (l) => warnings.push(l))).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/has a\/one\.json not matching its digest/)]);
  });
});
