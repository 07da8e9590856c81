/**
 * Frozen months (src/core/ledger.ts): a registry change that would re-score a published
 * month stops the build, naming the leaderboards and entries that would change; a
 * correction recorded for exactly that change publishes it, and the changelog and the
 * Atom feed list it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../src/api/index.ts';
import { runBuild } from '../src/pipeline/run-build.ts';
import { LedgerSchema } from '../src/core/schemas/ledger.ts';
import { FrozenMonthError } from '../src/pipeline/release/ledger.ts';
import { ChangelogResponseSchema } from '../src/core/schemas/responses.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-ledger-'));
const data = join(tmp, 'data');
const out = join(tmp, 'dist');
const build = () => runBuild({ root, dataDir: data, outDir: out, cacheDir: null, siteUrl: 'https://evi.example', sourceDateEpoch: 1790000000, pages: false, workers: 1 });
const ledger = () => LedgerSchema.parse(JSON.parse(readFileSync(join(data, 'releases.json'), 'utf8')));

beforeAll(async () => {
  cpSync(join(root, 'test/fixtures/basic'), data, { recursive: true });
  rmSync(join(data, 'releases.json'), { force: true });
  await build();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('release ledger', () => {
  it('records every month on the first build, and a rebuild of the same data changes nothing', async () => {
    const first = readFileSync(join(data, 'releases.json'), 'utf8');
    expect(ledger().months.map((m) => [m.month, m.published])).toEqual([
      ['2026-02', '2026-02-05'],
      ['2026-03', '2026-09-21'],
    ]);
    await build();
    expect(readFileSync(join(data, 'releases.json'), 'utf8')).toBe(first);
  });

  let digest = '';
  it('stops a registry change that would re-score a published month, naming the leaderboard and the entry', async () => {
    const before = readFileSync(join(out, 'views/meta.json'));
    // Northwind is tracked from 2026-03; tracking it from the start puts it on February's retail board.
    const companies = join(data, 'companies.csv');
    writeFileSync(companies, readFileSync(companies, 'utf8').replace('Retail,us,Northwind,2026-03', 'Retail,us,Northwind,'));
    const err = await build().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FrozenMonthError);
    const message = (err as Error).message;
    expect(message).toMatch(/2026-02: 1 leaderboard\(s\) changed: us\/retail/);
    expect(message).toMatch(/us\/retail: .*northwind: absent -> rank 1, score 100/);
    digest = /"month": "2026-02", .*"digest": "([0-9a-f]{16})"/.exec(message)![1]!;
    expect(readFileSync(join(out, 'views/meta.json'))).toEqual(before);
  });

  it('publishes it once a correction names the month and the new digest; the changelog and the feed list it', async () => {
    const reason = 'Northwind was tracked from the wrong month';
    writeFileSync(join(data, 'corrections.json'), JSON.stringify([{ month: '2026-02', date: '2026-09-20', reason, digest }]));
    await build();
    const feb = ledger().months.find((m) => m.month === '2026-02')!;
    expect(feb.corrections).toMatchObject([{ month: '2026-02', reason, changedBoards: ['us/retail'] }]);
    const handle = createHandler(new FsStore(out));
    const changelog = ChangelogResponseSchema.parse(await (await handle(new Request('https://evi.example/api/v1/changelog'))).json());
    expect(changelog.releases.map((r) => r.month)).toEqual(['2026-03', '2026-02']);
    expect(changelog.releases[1]!.corrections).toEqual([{ date: '2026-09-20', reason, changedLeaderboards: ['us/retail'] }]);
    expect(changelog.releases[0]!.companiesAdded).toContain('gamma-forge');
    const feed = readFileSync(join(out, 'feed.xml'), 'utf8');
    expect(feed).toMatch(/^<\?xml version="1\.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom">/);
    expect(feed).toContain('<title>Employer Visibility Index: correction to 2026-02</title>');
    expect(feed).toContain(`<summary>${reason} (1 leaderboards changed).</summary>`);
    // RFC 4287: the feed and each entry carry id, title and updated; the feed an author.
    const entries = feed.split('<entry>').slice(1);
    expect(entries.length).toBe(3);
    for (const e of entries) expect(e).toMatch(/<id>[^<]+<\/id>[\s\S]*<title>[^<]+<\/title>[\s\S]*<updated>\d{4}-\d\d-\d\dT00:00:00Z<\/updated>/);
    expect(feed).toMatch(/<author><name>[^<]+<\/name><\/author>/);
  });

  it('a correction does not cover a further change of the same month', async () => {
    const companies = join(data, 'companies.csv');
    writeFileSync(companies, readFileSync(companies, 'utf8').replace('Aerospace,us,,\n', 'Aerospace,us,Orbital Works Inc,\n'));
    writeFileSync(join(data, 'mentions/2026-02.csv'), `${readFileSync(join(data, 'mentions/2026-02.csv'), 'utf8')}b4,2026-02-06,ChatGPT,us,Aerospace,Inclusion,q2,Zeta 10 Labs\n`);
    await expect(build()).rejects.toThrow(/2026-02: 1 leaderboard\(s\) changed: us\/aerospace/);
  });
});
