import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FsStore } from '../../adapters/node/fs-store.ts';
import { PackedStore } from '../../api/packed-store.ts';
import { BinarySearchRankings, encodeSearchRankings } from '../../core/search/rankings.ts';
import { writeSections } from '../../core/search/sections.ts';
import { PACK_MANIFEST } from '../../core/views/packs.ts';
import { packSite } from './pack-site.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function site(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'evi-pack-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('packSite', () => {
  const files = { 'index.html': 'home', 'company/a/index.html': 'A', 'company/b/index.html': 'B', 'views/company/a.json': '{}', 'api/v1/company/a.json': '{}' };

  it('leaves a site within its file limit as it is', () => {
    const root = site(files);
    expect(packSite(root, { maxFiles: 5 })).toEqual({ filesBefore: 5, files: 5, packs: 0 });
    expect(readdirSync(join(root, 'company'))).toEqual(['a', 'b']);
  });

  it('stops naming each file a host cannot take that the function does not answer, whatever the count', () => {
    const root = site({ ...files, 'feed.xml': 'x'.repeat(100) });
    expect(() => packSite(root, { maxFiles: 100, maxFileBytes: 50 })).toThrow('feed.xml (100)');
  });

  it('splits a larger download or view into parts, which the store reads joined', async () => {
    const big = Array.from({ length: 130 }, (_, i) => String.fromCharCode(65 + (i % 26))).join('');
    const root = site({ ...files, 'downloads/2026-10/profiles.ndjson.gz': big, 'views/search-index.bin': `${big}!` });
    expect(packSite(root, { maxFiles: 100, maxFileBytes: 50, partBytes: 40 })).toEqual({ filesBefore: 7, files: 5 + 4 + 4 + 1, packs: 0 });
    expect(existsSync(join(root, 'downloads/2026-10/profiles.ndjson.gz'))).toBe(false);
    expect(JSON.parse(readFileSync(join(root, PACK_MANIFEST), 'utf8')).split['views/search-index.bin'].parts).toBe(4);
    const store = new PackedStore(new FsStore(root));
    expect(await store.read('downloads/2026-10/profiles.ndjson.gz')).toBe(big);
    expect(await store.read('views/search-index.bin')).toBe(`${big}!`);
    expect(await store.read('views/company/a.json')).toBe('{}');
  });

  it('cuts a binary view between its sections, each part within the part size', async () => {
    const root = site(files);
    const sections = [new Uint8Array(30).fill(1), new Uint8Array(30).fill(2), new Uint8Array(70).fill(3), new Uint8Array(10).fill(4)];
    const bytes = writeSections('TEST', 1, sections);
    writeFileSync(join(root, 'views/search-index.bin'), bytes);
    packSite(root, { maxFiles: 100, maxFileBytes: 50, partBytes: 64 });
    const store = new PackedStore(new FsStore(root));
    const parts = (await store.chunks('views/search-index.bin'))!;
    // the header (44 bytes), the first two sections (each at a multiple of 4), the third cut at the part size, the rest of it and the fourth
    expect(parts.map((p) => p.byteLength)).toEqual([44, 32 + 32, 64, 6 + 2 + 10 + 2]);
    expect(Buffer.concat(parts)).toEqual(Buffer.from(bytes));
    expect(await store.bytes('views/search-index.bin')).toEqual(new Uint8Array(bytes));
  });

  it('keeps search rankings in small parts on a host with a file limit, read one at a time', async () => {
    const entries = Array.from({ length: 300 }, (_, i) => [`company-${String(i).padStart(3, '0')}`, { company: `Company ${i}`, website: `c${i}.example`, industries: ['Retail'], defaultCountry: 'us', rankings: { us: { industry: 'Retail', rank: i + 1, industryRank: i + 1, totalCompaniesInIndustry: 300, visibilityScore: 300 - i } } }]);
    const bytes = encodeSearchRankings({ month: '2026-10', companies: Object.fromEntries(entries) });
    const root = site({ ...files, 'views/search-index.bin': 'x'.repeat(100) });
    writeFileSync(join(root, 'views/search-rankings.bin'), bytes);
    packSite(root, { maxFiles: 100, maxFileBytes: 50, entryPartBytes: 4096 });
    const store = new PackedStore(new FsStore(root));
    const parts = (await store.partsOf('views/search-rankings.bin'))!;
    expect(parts.ends.at(-1)).toBe(bytes.byteLength);
    // the sections before the entries in one part, the entries in parts of at most 4096 bytes
    const sizes = parts.ends.map((end, n) => end - (n === 0 ? 0 : parts.ends[n - 1]!));
    expect(sizes.length).toBeGreaterThan(3);
    for (const size of sizes.slice(1)) expect(size).toBeLessThanOrEqual(4096);
    expect(await store.bytes('views/search-rankings.bin')).toEqual(new Uint8Array(bytes));
    const rankings = await BinarySearchRankings.open(parts);
    await rankings.prepare(['company-042']);
    expect(rankings.company('company-042')?.rankings.us?.rank).toBe(43);
  });
});
