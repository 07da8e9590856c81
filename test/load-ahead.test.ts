/**
 * A monthly build's read (src/build/load-data.ts): the newest month new, the one before
 * it in the cache, so the newest month is parsed on a worker of its own while the build's
 * thread looks up the cached months (and, with `early`, scores them). What it reads must
 * equal a read without the cache, and a bad newest month must stop the build with the
 * same problems, the output folder untouched.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEarlyWorkers, earlyWorkers, PARSER_YOUNG_GENERATION_MB, SPARE_YOUNG_GENERATION_MB } from '../src/build/early-workers.ts';
import { loadData } from '../src/build/load-data.ts';
import { runBuild } from '../src/build/run-build.ts';
import { DataError } from '../src/core/data-error.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-ahead-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The sample data without its newest month (the cache's state after last month's build), and that month. */
function monthlyData(name: string) {
  const dir = join(tmp, name);
  cpSync(join(root, 'data'), dir, { recursive: true });
  const months = readdirSync(join(dir, 'mentions')).sort();
  const newest = join(dir, 'mentions', months.at(-1)!);
  const text = gunzipSync(readFileSync(newest));
  rmSync(newest);
  return { dir, newest, text };
}

/**
 * Last month's build done (its months in a new cache), then this month's file added:
 * `newestText` (the month's own rows by default) as the newest month.
 */
async function monthlyBuild(name: string, newestText?: (text: Buffer) => string | Buffer) {
  const { dir, newest, text } = monthlyData(name);
  const cache = join(tmp, `cache-${name}`);
  await (await load(dir, cache)).ready;
  writeFileSync(newest, gzipSync(newestText ? newestText(text) : text));
  return { dir, newest, cache };
}

const load = (dataDir: string, cacheDir: string | null, early = false) => loadData({ dataDir, cacheDir, root, workers: 2, log: () => {}, early });

async function caught(p: Promise<unknown>): Promise<DataError> {
  try {
    await p;
  } catch (e) {
    return e as DataError;
  }
  throw new Error('expected a DataError');
}

describe('a cold build: parser workers started before the registry is read', () => {
  it('reads what a build without the cache reads, on the workers started first; a read with every month cached starts no early pool', async () => {
    const dir = join(tmp, 'cold');
    cpSync(join(root, 'data'), dir, { recursive: true });
    const cache = join(tmp, 'cache-cold');
    // A cold build's pool: the parser workers' young generation, not a spare's.
    const cold = earlyWorkers(dir, cache, 2);
    expect(cold.spare).toBeUndefined();
    expect(cold.pool?.resourceLimits?.maxYoungGenerationSizeMb).toBe(PARSER_YOUNG_GENERATION_MB);
    await closeEarlyWorkers(cold);
    // What npm run build starts before loading the build: not a cold build's pool, which loadData then starts.
    const none = earlyWorkers(dir, cache, 2, { pool: false });
    expect(none).toEqual({});
    const lines: string[] = [];
    const data = await loadData({ dataDir: dir, cacheDir: cache, root, workers: 2, log: (l) => lines.push(l), earlyWorkers: none });
    expect(lines.filter((l) => l.includes('parser workers started before the registry is read'))).toHaveLength(1);
    expect(data.cacheHits).toBe(0);
    const plain = await load(dir, null);
    for (let i = 0; i < data.months.length; i++) expect(await data.aggregate(i)).toEqual(await plain.aggregate(i));
    // The same data again, every month cached: no early pool.
    lines.length = 0;
    const again = await loadData({ dataDir: dir, cacheDir: cache, root, workers: 2, log: (l) => lines.push(l) });
    expect(again.cacheHits).toBe(again.months.length);
    expect(lines.some((l) => l.includes('parser workers started before'))).toBe(false);
  });

  it('stops with the same problems, the first months sent to the pool before companies.csv is read', async () => {
    // A problem in companies.csv (read while the first months are parsed), and one in the first month itself.
    const dir = join(tmp, 'cold-bad');
    cpSync(join(root, 'data'), dir, { recursive: true });
    const companies = join(dir, 'companies.csv');
    writeFileSync(companies, `${readFileSync(companies, 'utf8').trimEnd()}\n,Zyx Aerospace Holdings,zyx.example,Aerospce,us,,\n`);
    const first = join(dir, 'mentions', readdirSync(join(dir, 'mentions')).sort()[0]!);
    writeFileSync(first, gzipSync(`${gunzipSync(readFileSync(first)).toString('utf8').trimEnd()}\nbad-answer,2026-13-45,ChatGPT,us,Aerospace,Leadership,q1,Kestrel\n`));
    const plain = await caught(load(dir, null));
    expect(plain.message).toMatch(/unknown industry "Aerospce"/);
    const lines: string[] = [];
    const cached = await caught(loadData({ dataDir: dir, cacheDir: join(tmp, 'cache-cold-bad'), root, workers: 2, log: (l) => lines.push(l) }));
    expect(lines.filter((l) => l.includes('parser workers started before the registry is read'))).toHaveLength(1);
    expect(cached.message).toBe(plain.message);
    // companies.csv mended: the first month's problem, as a read without the cache gives it.
    writeFileSync(companies, readFileSync(join(root, 'data', 'companies.csv')));
    const month = await caught(load(dir, null));
    expect(month.message).toMatch(/collected_at/);
    expect((await caught(loadData({ dataDir: dir, cacheDir: join(tmp, 'cache-cold-bad-2'), root, workers: 2, log: () => {} }))).message).toBe(month.message);
  });
});

describe('a monthly build: the newest month parsed ahead', () => {
  it('reads what a build without the cache reads', async () => {
    const { dir, cache } = await monthlyBuild('good');
    const data = await load(dir, cache, true);
    // returned while the newest month is still parsed on its worker
    expect(await Promise.race([data.ready.then(() => 'read'), new Promise((r) => setTimeout(r, 5, 'parsing'))])).toBe('parsing');
    const plain = await load(dir, null);
    expect(data.cacheHits).toBe(data.months.length - 1);
    for (let i = 0; i < data.months.length; i++) expect(await data.aggregate(i)).toEqual(await plain.aggregate(i));
    await data.ready;
  });

  it('stops on a bad newest month with the same problems, early or not, and leaves the output alone', async () => {
    const { dir, cache } = await monthlyBuild('bad', (text) => `${text}x1,not-a-date,ChatGPT,us,Aerospace,Leadership,q1,\n`);
    const plain = await caught(load(dir, null));
    expect(plain).toBeInstanceOf(DataError);
    expect(plain.message).toMatch(/must be a date/);
    const waited = await caught(load(dir, cache));
    expect(waited.message).toBe(plain.message);
    const data = await load(dir, cache, true);
    expect((await caught(data.ready)).message).toBe(plain.message);
    expect((await caught(data.aggregate(data.months.length - 1))).message).toBe(plain.message);
    const out = join(tmp, 'out');
    const e = await caught(runBuild({ root, dataDir: dir, outDir: out, cacheDir: cache, siteUrl: 'http://localhost:4321', pages: false, workers: 2 }));
    expect(e.message).toBe(plain.message);
    expect(readdirSync(tmp).filter((n) => n.includes('out') || n.includes('.stage-'))).toEqual([]);
  });
  it('takes over the parser workers its caller started before loading the build (as npm run build does)', async () => {
    const { dir, newest, cache } = await monthlyBuild('caller');
    const early = earlyWorkers(dir, cache, 2);
    // the month before the newest is in the cache: one spare worker, for the newest month,
    // with the small young generation of a thread that parses one month
    expect(early.spare?.path).toBe(newest);
    expect(early.pool).toBeUndefined();
    expect(early.spare!.pool.resourceLimits?.maxYoungGenerationSizeMb).toBe(SPARE_YOUNG_GENERATION_MB);
    expect(SPARE_YOUNG_GENERATION_MB).toBeLessThan(PARSER_YOUNG_GENERATION_MB);
    const data = await loadData({ dataDir: dir, cacheDir: cache, root, workers: 2, log: () => {}, early: true, earlyWorkers: early });
    const plain = await load(dir, null);
    expect(data.cacheHits).toBe(data.months.length - 1);
    for (let i = 0; i < data.months.length; i++) expect(await data.aggregate(i)).toEqual(await plain.aggregate(i));
    await data.ready;
  });

  it('stops on a problem in companies.csv with the same problems while the newest month is parsed ahead', async () => {
    const { dir, cache } = await monthlyBuild('badreg');
    // The newest month's parse starts once the countries and industries are read; companies.csv is read after.
    const companies = join(dir, 'companies.csv');
    writeFileSync(companies, `${readFileSync(companies, 'utf8').trimEnd()}\n,Zyx Aerospace Holdings,zyx.example,Aerospce,us,,\n`);
    const plain = await caught(load(dir, null));
    expect(plain).toBeInstanceOf(DataError);
    expect(plain.message).toMatch(/unknown industry "Aerospce"/);
    expect((await caught(load(dir, cache, true))).message).toBe(plain.message);
    expect((await caught(loadData({ dataDir: dir, cacheDir: cache, root, workers: 2, log: () => {}, early: true, earlyWorkers: earlyWorkers(dir, cache, 2) }))).message).toBe(plain.message);
  });
});
