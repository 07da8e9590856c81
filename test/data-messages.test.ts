/**
 * A build's stop on bad input names the place an operator can act on: with the columns of a
 * month file reordered, the column where the bad value is in that file; an unknown country
 * code with no near one, no suggestion; a truncated gzip file, the byte where it ends.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-messages-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dataWith(name: string, content: string | Buffer): string {
  const dir = mkdtempSync(join(tmp, 'data-'));
  cpSync(join(root, 'test/fixtures/basic'), dir, { recursive: true });
  rmSync(join(dir, 'mentions/2026-02.csv'));
  writeFileSync(join(dir, 'mentions', name), content);
  return dir;
}
const stop = (dataDir: string) => runBuild({ root, dataDir, outDir: join(tmp, 'dist'), cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers: 1 }).then(() => '', (e: Error) => e.message);

describe('bad input', () => {
  it('reordered columns: the column of the file; an unknown code: no far-fetched suggestion', async () => {
    const csv = 'answer_id,collected_at,company,model,country,industry,theme,question_id\nb1,2026-02-03,Orbital Works,ChatGPT,zz,Aerospace,Leadership,q1\n';
    const message = await stop(dataWith('2026-02.csv', csv));
    expect(message).toMatch(/2026-02\.csv:2:5 \(country\): unknown country "zz"$/m);
  });

  it('a truncated gzip file: the byte where it ends', async () => {
    const rows = readFileSync(join(root, 'test/fixtures/basic/mentions/2026-03.csv'), 'utf8').replace(/2026-03-/g, '2026-02-').repeat(40);
    const gz = gzipSync(rows);
    const cut = gz.subarray(0, Math.floor(gz.byteLength * 0.6));
    const message = await stop(dataWith('2026-02.csv.gz', cut));
    expect(message).toContain(`2026-02.csv.gz: not a valid gzip file: unexpected end of file at byte ${cut.byteLength.toLocaleString('en-US')} of ${cut.byteLength.toLocaleString('en-US')}: the file ends there (truncated?)`);
  });
});
