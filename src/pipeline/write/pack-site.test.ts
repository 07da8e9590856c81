import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

  it('stops naming each file a host cannot take, whatever the count', () => {
    const root = site({ ...files, 'downloads/big.csv': 'x'.repeat(100) });
    expect(() => packSite(root, { maxFiles: 100, maxFileBytes: 50 })).toThrow('downloads/big.csv (100)');
  });
});
