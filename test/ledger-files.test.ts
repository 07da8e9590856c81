/**
 * The release ledger covers every file a past month publishes (src/pipeline/release/published-files.ts):
 * one more scored answer without a company in a past month changes no leaderboard's ranks
 * but its evidence, CSV download, manifest and profile shards, and stops the build naming
 * the files and fields; a correction naming the change publishes it and the changelog lists
 * it. The ledger is written only with a release that went live.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';
import { releasesDir } from '../src/pipeline/release/release.ts';
import { LedgerSchema } from '../src/core/schemas/ledger.ts';
import { FrozenMonthError } from '../src/pipeline/release/ledger.ts';
import { createHandler } from '../src/api/index.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { CACHE_IMMUTABLE, CACHE_SUCCESS } from '../src/core/policy.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-ledger-files-'));
const data = join(tmp, 'data');
const out = join(tmp, 'dist');
let log: string[] = [];
const build = () => {
  log = [];
  return runBuild({ root, dataDir: data, outDir: out, cacheDir: null, siteUrl: 'https://evi.example', sourceDateEpoch: 1790000000, pages: false, workers: 1, log: (l) => log.push(l) });
};
const ledgerText = () => readFileSync(join(data, 'releases.json'), 'utf8');
const ledger = () => LedgerSchema.parse(JSON.parse(ledgerText()));
const aerospace = () => JSON.parse(readFileSync(join(out, 'views/rankings/2026-02/us/aerospace.json'), 'utf8'));

beforeAll(async () => {
  cpSync(join(root, 'test/fixtures/basic'), data, { recursive: true });
  await build();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the ledger covers every published file of a past month', () => {
  it('records the files of the past month on the next build without stopping (a ledger of the older form)', () => {
    const feb = ledger().months.find((m) => m.month === '2026-02')!;
    expect(Object.keys(feb.files ?? {})).toEqual(['downloads/2026-02', 'views/months/2026-02', 'views/months/2026-02/companies', 'views/rankings/2026-02/us']);
    // the newest month stays provisional
    expect(ledger().months.find((m) => m.month === '2026-03')!.files).toBeUndefined();
  });

  let digest = '';
  it('stops one more scored answer without a company in a past month, naming files and fields', async () => {
    const before = ledgerText();
    const scored = aerospace().evidence;
    writeFileSync(join(data, 'mentions/2026-02.csv'), `${readFileSync(join(data, 'mentions/2026-02.csv'), 'utf8')}b9,2026-02-15,ChatGPT,us,Aerospace,Leadership,q0-leadership,\n`);
    const err = await build().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FrozenMonthError);
    const message = (err as Error).message;
    expect(message).toContain('2026-02: published files changed in downloads/2026-02, views/months/2026-02/companies, views/rankings/2026-02/us');
    expect(message).toContain('downloads/2026-02/leaderboards.csv.gz: content changed');
    expect(message).toMatch(/downloads\/2026-02\/manifest\.json: files\[0\]\.sha256/);
    expect(message).toMatch(/views\/rankings\/2026-02\/us\/aerospace\.json: .*2 -> 3/);
    expect(message).toMatch(/views\/months\/2026-02\/companies\/0\.json: companies\./);
    digest = /"month": "2026-02", .*"digest": "([0-9a-f]{16})"/.exec(message)![1]!;
    // nothing published, nothing recorded
    expect(aerospace().evidence).toEqual(scored);
    expect(ledgerText()).toBe(before);
    expect(log.join('\n')).not.toContain('recorded');
  });

  // With a cache, too: the past months' files that come from it as they were are left out of a packed build.
  it.each([
    ['', null],
    [', with a cache', 'cache'],
  ])('names the same files and fields when the live release is packed%s', async (_, cache) => {
    const packedData = join(tmp, `packed-data${cache ?? ''}`);
    const packedOut = join(tmp, `packed-dist${cache ?? ''}`);
    const cacheDir = cache && join(tmp, cache);
    cpSync(join(root, 'test/fixtures/basic'), packedData, { recursive: true });
    const packedBuild = () => runBuild({ root, dataDir: packedData, outDir: packedOut, cacheDir, siteUrl: 'https://evi.example', sourceDateEpoch: 1790000000, pages: false, workers: 1, maxFiles: 1 });
    await packedBuild();
    expect(existsSync(join(packedOut, 'views/rankings/2026-02/us/aerospace.json'))).toBe(false);
    cpSync(join(data, 'mentions/2026-02.csv'), join(packedData, 'mentions/2026-02.csv'));
    const message = ((await packedBuild().catch((e: unknown) => e)) as Error).message;
    expect(message).toMatch(/views\/rankings\/2026-02\/us\/aerospace\.json: .*2 -> 3/);
    expect(message).toMatch(/views\/months\/2026-02\/companies\/0\.json: companies\./);
    expect(message).not.toMatch(/: (added|removed)$/m);
  });

  it('publishes it once a correction names it; the ledger and the changelog list the correction', async () => {
    const reason = 'one answer without a company was left out';
    writeFileSync(join(data, 'corrections.json'), JSON.stringify([{ month: '2026-02', date: '2026-09-20', reason, digest }]));
    await build();
    const feb = ledger().months.find((m) => m.month === '2026-02')!;
    expect(feb.corrections).toMatchObject([{ reason, changedBoards: [], changedFiles: ['downloads/2026-02', 'views/months/2026-02/companies', 'views/rankings/2026-02/us'] }]);
    const changelog = JSON.parse(readFileSync(join(out, 'views/changelog.json'), 'utf8'));
    expect(changelog.releases[1].corrections).toEqual([{ date: '2026-09-20', reason, changedLeaderboards: [] }]);
    // the month's permanent answers carry the change, name the correction and are cached like current answers
    const handle = createHandler(new FsStore(out));
    const res = await handle(new Request('https://evi.example/api/v1/months/2026-02/company/orbital-works'));
    expect(res.status).toBe(200);
    expect(res.headers.get('evi-corrected')).toBe('2026-09-20');
    expect(res.headers.get('link')).toBe('<https://evi.example/api/v1/changelog>; rel="corrections"');
    expect(res.headers.get('cache-control')).toBe(CACHE_SUCCESS);
    expect(JSON.stringify(await res.json())).toContain('"evidence":{"combinationsNamed":1,"combinations":2,"scoredAnswers":3}');
    const march = await handle(new Request('https://evi.example/api/v1/months/2026-03/rankings/aerospace/us'));
    expect(march.headers.get('cache-control')).toBe(CACHE_IMMUTABLE);
    expect(march.headers.get('evi-corrected')).toBeNull();
    // a rebuild of the same data changes nothing
    const text = ledgerText();
    await build();
    expect(ledgerText()).toBe(text);
  });

  it('a build for another site origin (whose manifests name other URLs) finds the same files', async () => {
    const before = ledgerText();
    await runBuild({ root, dataDir: data, outDir: join(tmp, 'preview'), cacheDir: null, siteUrl: 'http://localhost:4999', sourceDateEpoch: 1790000000, pages: false, workers: 1 });
    expect(readFileSync(join(tmp, 'preview/downloads/2026-02/manifest.json'), 'utf8')).toContain('http://localhost:4999/');
    expect(ledgerText()).toBe(before);
  });

  it('a build that fails after scoring (at the swap) leaves the ledger untouched and says nothing recorded', async () => {
    // A new month, so that the ledger would record it; the releases folder is a file, so the swap fails.
    writeFileSync(join(data, 'mentions/2026-04.csv'), readFileSync(join(data, 'mentions/2026-03.csv'), 'utf8').replace(/2026-03-/g, '2026-04-'));
    const before = ledgerText();
    const releases = releasesDir(out);
    rmSync(releases, { recursive: true, force: true });
    rmSync(out, { force: true });
    writeFileSync(releases, 'not a folder');
    await expect(build()).rejects.toThrow(/EEXIST|ENOTDIR/);
    expect(ledgerText()).toBe(before);
    expect(log.join('\n')).not.toContain('recorded');
    rmSync(releases);
    await build();
    expect(ledger().months.map((m) => m.month)).toEqual(['2026-02', '2026-03', '2026-04']);
    expect(log.join('\n')).toContain('release ledger: recorded 2026-04');
  });
});
