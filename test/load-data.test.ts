/**
 * The build's read of the data folder (src/pipeline/read/load-data.ts) through the month cache:
 * a cold read and a monthly read (every month but the newest cached) give what a read
 * without the cache gives, and stop with the same problems, the output folder untouched.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadData, type LoadedData } from '../src/pipeline/read/load-data.ts';
import { runBuild } from '../src/pipeline/run-build.ts';
import { DataError } from '../src/core/data-error.ts';
import { sampleData } from './lib/sample-data.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-ahead-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Four months of the sample data: in a monthly read, three from the cache and the newest parsed. */
const sample = sampleData(join(tmp, 'sample'), 4);

/** Memoizes an async step that several tests share, whichever of them runs first. */
const once = <T>(make: () => Promise<T>): (() => Promise<T>) => {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
};

/** A read of the sample without the cache: what every read of the same files must give. */
const plainRead = once(() => load(sample, null));

/** A cold read of the sample through a new cache, which then holds every month. */
const coldRead = once(async () => {
  const cache = join(tmp, 'cache-cold');
  return { cache, data: await load(sample, cache) };
});

/** Last month's cache: the cold read's, without the newest month's entry. */
async function monthlyCache(name: string): Promise<string> {
  const cache = join(tmp, `cache-${name}`);
  cpSync((await coldRead()).cache, cache, { recursive: true });
  const newest = readdirSync(join(sample, 'mentions')).sort().at(-1)!.slice(0, 'YYYY-MM'.length);
  for (const f of readdirSync(cache)) if (f.startsWith(`${newest}-`)) rmSync(join(cache, f), { recursive: true });
  return cache;
}

/** Last month's read done, then this month's file added, with `newestText` (of the month's own rows) as its text; in a copy of the sample. */
async function monthlyBuild(name: string, newestText: (text: Buffer) => string | Buffer = (text) => text) {
  const dir = join(tmp, name);
  cpSync(sample, dir, { recursive: true });
  const newest = join(dir, 'mentions', readdirSync(join(dir, 'mentions')).sort().at(-1)!);
  writeFileSync(newest, gzipSync(newestText(gunzipSync(readFileSync(newest)))));
  return { dir, newest, cache: await monthlyCache(name) };
}

/** The sample with a bad row in its newest month, last month's cache, and the stop of a read without the cache. */
const badNewest = once(async () => {
  const bad = await monthlyBuild('bad', (text) => `${text}x1,not-a-date,ChatGPT,us,Aerospace,Leadership,q1,\n`);
  return { ...bad, plain: await caught(load(bad.dir, null)) };
});

async function load(dataDir: string, cacheDir: string | null): Promise<LoadedData> {
  const data = await loadData({ dataDir, cacheDir, root, workers: 2, log: () => {} });
  await data.ready;
  return data;
}

async function caught(p: Promise<unknown>): Promise<DataError> {
  try {
    await p;
  } catch (e) {
    return e as DataError;
  }
  throw new Error('expected a DataError');
}

describe('a cold read through the cache', () => {
  it('reads what a read without the cache reads, and then every month from the cache', async () => {
    const { cache, data } = await coldRead();
    expect(data.cacheHits).toBe(0);
    const plain = await plainRead();
    for (let i = 0; i < data.months.length; i++) expect(await data.aggregate(i)).toEqual(await plain.aggregate(i));
    const again = await load(sample, cache);
    expect(again.cacheHits).toBe(again.months.length);
    for (let i = 0; i < again.months.length; i++) expect(await again.aggregate(i)).toEqual(await plain.aggregate(i));
  });

  it('stops with the same problems as a read without the cache', async () => {
    // A problem in companies.csv, and one in the first month itself.
    const dir = join(tmp, 'cold-bad');
    cpSync(sample, dir, { recursive: true });
    const companies = join(dir, 'companies.csv');
    writeFileSync(companies, `${readFileSync(companies, 'utf8').trimEnd()}\n,Zyx Aerospace Holdings,zyx.example,Aerospce,us,,\n`);
    const first = join(dir, 'mentions', readdirSync(join(dir, 'mentions')).sort()[0]!);
    writeFileSync(first, gzipSync(`${gunzipSync(readFileSync(first)).toString('utf8').trimEnd()}\nbad-answer,2026-13-45,ChatGPT,us,Aerospace,Leadership,q1,Kestrel\n`));
    const plain = await caught(load(dir, null));
    expect(plain.message).toMatch(/unknown industry "Aerospce"/);
    expect((await caught(load(dir, join(tmp, 'cache-cold-bad')))).message).toBe(plain.message);
    // companies.csv mended: the first month's problem, as a read without the cache gives it.
    writeFileSync(companies, readFileSync(join(sample, 'companies.csv')));
    const month = await caught(load(dir, null));
    expect(month.message).toMatch(/collected_at/);
    expect((await caught(load(dir, join(tmp, 'cache-cold-bad-2')))).message).toBe(month.message);
  });
});

describe('a monthly read: every month but the newest in the cache', () => {
  it('reads what a read without the cache reads', async () => {
    const data = await load(sample, await monthlyCache('good'));
    const plain = await plainRead();
    expect(data.cacheHits).toBe(data.months.length - 1);
    for (let i = 0; i < data.months.length; i++) expect(await data.aggregate(i)).toEqual(await plain.aggregate(i));
  });

  it('stops on a bad newest month with the same problems and leaves the output alone', async () => {
    const { dir, cache, plain } = await badNewest();
    expect(plain).toBeInstanceOf(DataError);
    expect(plain.message).toMatch(/must be a date/);
    expect((await caught(load(dir, cache))).message).toBe(plain.message);
    const out = join(tmp, 'out');
    const e = await caught(runBuild({ root, dataDir: dir, outDir: out, cacheDir: cache, siteUrl: 'http://localhost:4321', pages: false, workers: 2 }));
    expect(e.message).toBe(plain.message);
    expect(readdirSync(tmp).filter((n) => n.includes('out') || n.includes('.stage-'))).toEqual([]);
  });

  it('returns before the newest month is parsed (on a worker of its own), which its columns and ready wait for', async () => {
    const { dir, cache, plain } = await badNewest();
    const data = await loadData({ dataDir: dir, cacheDir: cache, root, workers: 2, log: () => {} });
    expect(data.cacheHits).toBe(data.months.length - 1);
    expect((await caught(data.ready)).message).toBe(plain.message);
    expect((await caught(data.columns(data.months.length - 1))).message).toBe(plain.message);
  });

  it('stops on a problem in companies.csv with the same problems', async () => {
    const { dir, cache } = await monthlyBuild('badreg');
    const companies = join(dir, 'companies.csv');
    writeFileSync(companies, `${readFileSync(companies, 'utf8').trimEnd()}\n,Zyx Aerospace Holdings,zyx.example,Aerospce,us,,\n`);
    const plain = await caught(load(dir, null));
    expect(plain).toBeInstanceOf(DataError);
    expect(plain.message).toMatch(/unknown industry "Aerospce"/);
    expect((await caught(load(dir, cache))).message).toBe(plain.message);
  });
});
