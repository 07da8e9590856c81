/**
 * The scoring step (src/pipeline/score/score-months.ts): past months scored on worker threads, each
 * reading its parsed month from the cache, must give what the build's thread gives, write
 * the same scored cache entries, and be read back from them by the next build.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCacheJson, writeCacheEntry } from '../src/pipeline/cache/cache-file.ts';
import { monthRecord } from '../src/pipeline/release/ledger.ts';
import { loadData } from '../src/pipeline/read/load-data.ts';
import { scoreMonths } from '../src/pipeline/score/score-months.ts';
import { storeMonthResult, universes } from '../src/core/score.ts';
import { sampleData } from './lib/sample-data.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-score-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
/** Four months of the sample data: three past months and the current one. */
const sample = sampleData(join(tmp, 'sample'), 4);

/** Every month scored from the sample through `cacheDir`: the stored form, the stats, whether cached, whether it carries board details. */
async function score(cacheDir: string, workers: number) {
  const data = await loadData({ dataDir: sample, cacheDir, root, workers: 1, log: () => {} });
  const out = [];
  // poolMinBytes 0: the pool even for the sample data's small months
  for await (const s of scoreMonths(data, universes(data.registry), cacheDir, () => {}, workers, 0)) {
    // The ledger record handed with each month (stored in its entry, or computed) is the one computed from its result.
    expect(s.record).toEqual(monthRecord(data.registry, s.result));
    out.push({ result: storeMonthResult(s.result), stats: s.stats, cached: s.cached, details: [...s.result.boards.values()].every((b) => b.detail !== undefined), record: s.record });
  }
  return out;
}

const scoredEntries = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith('scored-'))
    .sort()
    .map((f) => [f, readFileSync(join(dir, f), 'utf8')]);

describe('scoring the months', () => {
  it('gives the same results on the workers as in the build thread, and the same cache entries', async () => {
    const onPool = await score(join(tmp, 'pool'), 2);
    const inThread = await score(join(tmp, 'thread'), 1);
    expect(onPool.length).toBeGreaterThan(3);
    expect(onPool).toEqual(inThread);
    expect(onPool.map((s) => s.cached)).toEqual(onPool.map(() => false));
    // only the current month carries board details
    expect(onPool.map((s) => s.details)).toEqual(onPool.map((_, i) => i === onPool.length - 1));
    const entries = scoredEntries(join(tmp, 'pool'));
    expect(entries.length).toBe(onPool.length);
    expect(entries).toEqual(scoredEntries(join(tmp, 'thread')));
  });

  it('reads the past months back from the entries the workers wrote', async () => {
    const again = await score(join(tmp, 'pool'), 2);
    const first = await score(join(tmp, 'thread'), 1);
    expect(again.map((s) => s.cached)).toEqual(again.map((_, i) => i < again.length - 1));
    expect(again.map(({ result, stats }) => ({ result, stats }))).toEqual(first.map(({ result, stats }) => ({ result, stats })));
    expect(again.map((s) => s.record)).toEqual(first.map((s) => s.record));
  });

  it('stores the ledger record of each month with its result, and computes it for an entry written without one', async () => {
    const dir = join(tmp, 'records');
    const first = await score(dir, 1);
    const [name] = scoredEntries(dir)[0]!;
    const path = join(dir, name!);
    const key = (JSON.parse(readFileSync(path, 'utf8').split('\n', 1)[0]!) as { key: string }).key;
    const stored = (await readCacheJson<{ record?: unknown }>(path, key, () => {}))!;
    expect(stored.record).toEqual(first[0]!.record);
    // As the entries were before the record was stored with them.
    delete stored.record;
    await writeCacheEntry(path, key, JSON.stringify(stored));
    const again = await score(dir, 1);
    expect(again[0]!.cached).toBe(true);
    expect(again.map((s) => s.record)).toEqual(first.map((s) => s.record));
  });
});
