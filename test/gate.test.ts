/**
 * The publish gate (src/core/gate.ts): a new current month without leaderboards or
 * with a sharp drop stops the build with a report and leaves the live output as it
 * was; a reviewed acceptance publishes it, and health says so.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';
import { DataError } from '../src/core/data-error.ts';
import { PublishGateError, checkRelease } from '../src/pipeline/release/gate.ts';
import type { HealthResponse } from '../src/core/schemas/responses.ts';
import { reportPath } from '../src/pipeline/write/report.ts';

const root = resolve(import.meta.dirname, '..');
const fixture = join(root, 'test/fixtures/basic');
const tmp = mkdtempSync(join(tmpdir(), 'evi-gate-'));
const out = join(tmp, 'dist');
const HEADER = 'answer_id,collected_at,model,country,industry,theme,question_id,company\n';
/** The fixture's 2026-03 rows (without the header), dated April: a healthy next month. */
const march = readFileSync(join(fixture, 'mentions/2026-03.csv'), 'utf8').split('\n').slice(1).filter(Boolean);
const april = (rows: string[]) => HEADER + rows.map((r) => r.replace(/2026-03-(\d\d)/, '2026-04-$1')).join('\n') + '\n';

const build = (dataDir: string) => runBuild({ root, dataDir, outDir: out, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers: 1 });
const dataWith = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmp, 'data-'));
  cpSync(fixture, dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};
const health = () => JSON.parse(readFileSync(join(out, 'views/meta.json'), 'utf8')).health as HealthResponse;

async function expectStop(dir: string, ...patterns: RegExp[]) {
  const before = readFileSync(join(out, 'views/meta.json'));
  const err = await build(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PublishGateError);
  for (const p of patterns) expect((err as Error).message).toMatch(p);
  expect(readFileSync(join(out, 'views/meta.json'))).toEqual(before);
}

beforeAll(async () => {
  await build(fixture);
});
afterEach(() => {
  delete process.env.EVI_ACCEPT_DROP;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('publish gate', () => {
  it('publishes a healthy month, and health reports its leaderboards and ranked companies', async () => {
    await build(dataWith({ 'mentions/2026-04.csv': april(march) }));
    expect(health()).toMatchObject({ month: '2026-04', leaderboards: 6, rankedCompanies: 8 });
    expect(health().acceptedDrop).toBeUndefined();
  });

  it('stops a header-only month, even when accepted', async () => {
    const dir = dataWith({ 'mentions/2026-04.csv': HEADER, 'accept-drops.json': JSON.stringify([{ month: '2026-04', reason: 'testing the gate here' }]) });
    await expectStop(dir, /2026-04 has 0 scored rows and 0 leaderboards/, /cannot be published/);
  });

  it('stops a month holding only research-model rows', async () => {
    const research = march.map((r) => r.replace(/,(ChatGPT|chatgpt|Perplexity|Google Gemini),/, ',Claude,'));
    await expectStop(dataWith({ 'mentions/2026-04.csv': april(research) }), /0 leaderboards/);
  });

  it('stops a sharp drop with a report of what dropped, naming a country and an industry that disappeared', async () => {
    const usOnlyAerospace = march.filter((r) => /,(us|USA|United States),aerospace,/i.test(r));
    await expectStop(
      dataWith({ 'mentions/2026-04.csv': april(usOnlyAerospace) }),
      /leaderboards: 6 in 2026-03 -> 1 in 2026-04 \(17%, below 50%\)/,
      /countries with leaderboards in 2026-03 but none in 2026-04: fr, gb/,
      /industries with leaderboards in 2026-03 but none in 2026-04: manufacturing-industrial, retail/,
      /accept-drops\.json/,
    );
  });

  it('publishes a drop accepted in data/accept-drops.json, and health carries the reason', async () => {
    const usOnly = march.filter((r) => /,(us|USA|United States),/i.test(r));
    const reason = 'France and the UK were paused this month';
    await build(dataWith({ 'mentions/2026-04.csv': april(usOnly), 'accept-drops.json': JSON.stringify([{ month: '2026-04', reason }]) }));
    expect(health()).toMatchObject({ month: '2026-04', acceptedDrop: reason });
    const report = JSON.parse(readFileSync(reportPath(out), 'utf8'));
    expect(report.gate.acceptedBecause).toBe(reason);
    expect(report.gate.findings.join('\n')).toMatch(/countries .* fr, gb/);
  });

  it('an acceptance of another month does not count; EVI_ACCEPT_DROP naming the month does', async () => {
    const usOnly = march.filter((r) => /,(us|USA|United States),/i.test(r));
    const dir = dataWith({ 'mentions/2026-04.csv': april(usOnly), 'accept-drops.json': JSON.stringify([{ month: '2026-05', reason: 'a different month entirely' }]) });
    await expectStop(dir, /countries/);
    process.env.EVI_ACCEPT_DROP = '2026-04';
    try {
      await build(dir);
    } finally {
      delete process.env.EVI_ACCEPT_DROP;
    }
    expect(health().acceptedDrop).toMatch(/EVI_ACCEPT_DROP=2026-04/);
  });

  it('a malformed acceptance file is a data error naming it', async () => {
    const err = await build(dataWith({ 'mentions/2026-04.csv': april(march.slice(0, 3)), 'accept-drops.json': '[{"month":"2026-4","reason":"x"}]' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as Error).message).toMatch(/accept-drops\.json: 0\.month: must be YYYY-MM/);
  });

  it('checkRelease passes a month equal to the last and flags each measure under half', () => {
    const prev = { month: '2026-03', scoredRows: 100, leaderboards: 10, rankedCompanies: 50, countries: ['us'], industries: ['a'] };
    expect(checkRelease(prev, { ...prev, month: '2026-04' })).toEqual([]);
    expect(checkRelease(prev, { ...prev, month: '2026-04', scoredRows: 50 })).toEqual([]);
    expect(checkRelease(prev, { ...prev, month: '2026-04', scoredRows: 49, rankedCompanies: 24 }).map((f) => f.check)).toEqual(['scored rows', 'ranked companies']);
    expect(checkRelease(null, { ...prev, scoredRows: 1 })).toEqual([]);
  });
});
