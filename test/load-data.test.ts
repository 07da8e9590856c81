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
import { loadData } from '../src/pipeline/read/load-data.ts';
import { runBuild } from '../src/pipeline/run-build.ts';
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
  await load(dir, cache);
  writeFileSync(newest, gzipSync(newestText ? newestText(text) : text));
  return { dir, newest, cache };
}

async function load(dataDir: string, cacheDir: string | null) {
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
    const dir = join(tmp, 'cold');
    cpSync(join(root, 'data'), dir, { recursive: true });
    const cache = join(tmp, 'cache-cold');
    const data = await load(dir, cache);
    expect(data.cacheHits).toBe(0);
    const plain = await load(dir, null);
    for (let i = 0; i < data.months.length; i++) expect(await data.aggregate(i)).toEqual(await plain.aggregate(i));
    const again = await load(dir, cache);
    expect(again.cacheHits).toBe(again.months.length);
    for (let i = 0; i < again.months.length; i++) expect(await again.aggregate(i)).toEqual(await plain.aggregate(i));
  });

  it('stops with the same problems as a read without the cache', async () => {
    // A problem in companies.csv, and one in the first month itself.
    const dir = join(tmp, 'cold-bad');
    cpSync(join(root, 'data'), dir, { recursive: true });
    const companies = join(dir, 'companies.csv');
    writeFileSync(companies, `${readFileSync(companies, 'utf8').trimEnd()}\n,Zyx Aerospace Holdings,zyx.example,Aerospce,us,,\n`);
    const first = join(dir, 'mentions', readdirSync(join(dir, 'mentions')).sort()[0]!);
    writeFileSync(first, gzipSync(`${gunzipSync(readFileSync(first)).toString('utf8').trimEnd()}\nbad-answer,2026-13-45,ChatGPT,us,Aerospace,Leadership,q1,Kestrel\n`));
    const plain = await caught(load(dir, null));
    expect(plain.message).toMatch(/unknown industry "Aerospce"/);
    expect((await caught(load(dir, join(tmp, 'cache-cold-bad')))).message).toBe(plain.message);
    // companies.csv mended: the first month's problem, as a read without the cache gives it.
    writeFileSync(companies, readFileSync(join(root, 'data', 'companies.csv')));
    const month = await caught(load(dir, null));
    expect(month.message).toMatch(/collected_at/);
    expect((await caught(load(dir, join(tmp, 'cache-cold-bad-2')))).message).toBe(month.message);
  });
});

describe('a monthly read: every month but the newest in the cache', () => {
  it('reads what a read without the cache reads', async () => {
    const { dir, cache } = await monthlyBuild('good');
    const data = await load(dir, cache);
    const plain = await load(dir, null);
    expect(data.cacheHits).toBe(data.months.length - 1);
    for (let i = 0; i < data.months.length; i++) expect(await data.aggregate(i)).toEqual(await plain.aggregate(i));
  });

  it('stops on a bad newest month with the same problems and leaves the output alone', async () => {
    const { dir, cache } = await monthlyBuild('bad', (text) => `${text}x1,not-a-date,ChatGPT,us,Aerospace,Leadership,q1,\n`);
    const plain = await caught(load(dir, null));
    expect(plain).toBeInstanceOf(DataError);
    expect(plain.message).toMatch(/must be a date/);
    expect((await caught(load(dir, cache))).message).toBe(plain.message);
    const out = join(tmp, 'out');
    const e = await caught(runBuild({ root, dataDir: dir, outDir: out, cacheDir: cache, siteUrl: 'http://localhost:4321', pages: false, workers: 2 }));
    expect(e.message).toBe(plain.message);
    expect(readdirSync(tmp).filter((n) => n.includes('out') || n.includes('.stage-'))).toEqual([]);
  });

  it('returns before the newest month is parsed (on a worker of its own), which its columns and ready wait for', async () => {
    const { dir, cache } = await monthlyBuild('ahead', (text) => `${text}x1,not-a-date,ChatGPT,us,Aerospace,Leadership,q1,\n`);
    const plain = await caught(load(dir, null));
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
