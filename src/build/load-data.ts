/**
 * Reads the data folder (data-and-rules §1): the registry, then every month through
 * the content-hash cache, parsing the months that changed in worker threads.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Lookups, MonthAggregate } from '../core/aggregate.ts';
import { DataError, IssueList, type DataIssue } from '../core/data-error.ts';
import { buildRegistry, type Registry } from '../core/registry.ts';
import { COMPANY_COLUMNS, COUNTRY_COLUMNS, INDUSTRY_COLUMNS } from '../core/schemas/rows.ts';
import { peekCacheEntry, readCacheJson } from './cache-file.ts';
import { isParsedMonthEntry, lookupsHash, parsedMonthEntry } from './caches.ts';
import { parseMonthFile, runMonthJob, type MonthJob } from './parse-month.ts';
import { readTable } from './read-csv.ts';
import { WorkerPool, defaultWorkers, workerHeapMb } from './worker-pool.ts';

const MONTH_FILE_RE = /^(\d{4}-(0[1-9]|1[0-2]))\.csv(\.gz)?$/;

/**
 * A parser worker's young generation (V8 makes it three semi-spaces): a month's rows and
 * substrings are short-lived (in the build's thread, with 16 MiB semi-spaces, one month's
 * parse runs ~75 scavenges), and once no kept value holds the month's text few of them
 * survive one. With 32 MiB semi-spaces (instead of what V8 derives from the worker's
 * old-generation cap), a cold ingest of 24 reference months took 46.5-47.8 s of CPU
 * instead of 48.3-50.5 s, for 107-210 MB more peak RSS in the ingest phase (BENCHMARKS.md,
 * "Build: ingest, third round").
 */
const PARSER_YOUNG_GENERATION_MB = 96;

export interface MonthFile {
  month: string;
  path: string;
  display: string;
}

export interface LoadOptions {
  dataDir: string;
  cacheDir: string | null;
  /** Shown instead of absolute paths in messages. */
  root: string;
  workers?: number;
  log?: (line: string) => void;
  /**
   * Return before the newest month's parse ends when it runs ahead on its own worker (a
   * monthly build: see {@link loadData}); `aggregate` of that month and `ready` wait for it.
   */
  early?: boolean;
}

export interface LoadedData {
  registry: Registry;
  months: MonthFile[];
  /** Month `i`'s aggregate: read back from the cache when there is one, so that one month is in memory at a time. */
  aggregate(i: number): Promise<MonthAggregate>;
  /** Where month `i`'s aggregate is, for a worker thread to read it ({@link readAggregate}). */
  aggregateSource(i: number): AggregateSource;
  cacheHits: number;
  /** Month `i`'s content hash (file and lookups), null without a cache: keys what is derived from it. */
  contentKey: (string | null)[];
  /**
   * Settled once every month is read: rejects with the {@link DataError} of the months'
   * problems. Already settled unless `early` let the newest month's parse run on.
   */
  ready: Promise<void>;
}

async function readRegistry(dataDir: string, show: (p: string) => string, issues: IssueList): Promise<Registry> {
  const table = async (name: string, columns: readonly string[]) => {
    const path = join(dataDir, name);
    const file = show(path);
    if (!existsSync(path)) {
      issues.add({ file, message: `missing file: the data folder must hold ${name} with columns "${columns.join(',')}"` });
      return { file, header: [...columns], rows: [] };
    }
    return { file, header: [...columns], rows: await readTable(file, await readFile(path), columns, issues) };
  };
  const countries = await table('countries.csv', COUNTRY_COLUMNS);
  const industries = await table('industries.csv', INDUSTRY_COLUMNS);
  const companies = await table('companies.csv', COMPANY_COLUMNS);
  return buildRegistry({ countries, industries, companies }, issues);
}

export async function listMonths(dataDir: string, show: (p: string) => string, issues: IssueList): Promise<MonthFile[]> {
  const dir = join(dataDir, 'mentions');
  if (!existsSync(dir)) {
    issues.add({ file: show(dir), message: 'missing folder: the data folder must hold mentions/YYYY-MM.csv or .csv.gz files' });
    return [];
  }
  const out: MonthFile[] = [];
  for (const name of (await readdir(dir)).sort()) {
    if (name.startsWith('.')) continue;
    const m = MONTH_FILE_RE.exec(name);
    const path = join(dir, name);
    if (!m) {
      issues.add({ file: show(path), message: `bad month file name "${name}": expected YYYY-MM.csv or YYYY-MM.csv.gz with a month 01-12` });
      continue;
    }
    if (out.some((f) => f.month === m[1])) {
      issues.add({ file: show(path), message: `month ${m[1]} has two files; keep one of .csv and .csv.gz` });
      continue;
    }
    out.push({ month: m[1]!, path, display: show(path) });
  }
  if (!out.length && !issues.items.length) issues.add({ file: show(dir), message: 'no month files: add mentions/YYYY-MM.csv' });
  return out;
}

/**
 * Parser workers started before anything is read (a worker's start, ~0.4 s of CPU and more
 * than 1 s of wall here, then overlaps the registry's read), from what the folders' names
 * say, with two months or more:
 * - `spare`: when the cache has an entry for the month before the newest (a monthly build,
 *   most likely), one worker for the newest month file (its path as {@link listMonths} will
 *   name it);
 * - `pool`: otherwise (a cold build, most likely: every month to parse), the `most` workers
 *   that parse the months, which used to start once two months were known to need it.
 * Either is only a head start: {@link loadData} still decides from the content hashes.
 */
function earlyWorkers(dataDir: string, cacheDir: string, most: number): { spare?: { path: string; pool: WorkerPool }; pool?: WorkerPool } {
  const dir = join(dataDir, 'mentions');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => MONTH_FILE_RE.test(n)).sort();
  } catch {
    return {};
  }
  if (names.length < 2) return {};
  const before = MONTH_FILE_RE.exec(names.at(-2)!)![1]!;
  let cached = false;
  try {
    cached = readdirSync(cacheDir).some((n) => isParsedMonthEntry(n, before));
  } catch {
    // no cache folder yet: a cold build
  }
  const more = { youngGenerationMb: PARSER_YOUNG_GENERATION_MB };
  if (cached) {
    const path = join(dir, names.at(-1)!);
    return { spare: { path, pool: new WorkerPool(1, workerHeapMb([path]), undefined, more) } };
  }
  return { pool: new WorkerPool(Math.min(most, names.length), workerHeapMb(names.map((n) => join(dir, n))), undefined, more) };
}

/** Loads everything or throws a {@link DataError} listing every problem found (up to the cap). */
export async function loadData(opts: LoadOptions): Promise<LoadedData> {
  const log = opts.log ?? (() => {});
  const show = (p: string) => relative(opts.root, p) || '.';
  const issues = new IssueList();
  const most = opts.workers ?? defaultWorkers();
  // Workers started before anything is read (earlyWorkers): the spare is used when this is a
  // monthly build (below), else closed once that is known; the early pool takes every month to parse.
  const early = opts.cacheDir && most > 1 ? earlyWorkers(opts.dataDir, opts.cacheDir, most) : {};
  const spare = early.spare ?? null;
  if (early.pool) log(`  ${early.pool.size} parser workers started before the registry is read (no month before the newest in the cache: every month may need parsing)`);
  let registry: Registry;
  let months: MonthFile[];
  try {
    registry = await readRegistry(opts.dataDir, show, issues);
    months = await listMonths(opts.dataDir, show, issues);
    issues.throwIfAny();
  } catch (e) {
    await spare?.pool.close();
    await early.pool?.close();
    throw e;
  }

  const lookups: Lookups = { countries: registry.countries, industries: registry.industries };
  const lookupsKey = lookupsHash(lookups);
  const aggregates: (MonthAggregate | null)[] = months.map(() => null);
  const cachePaths: (string | null)[] = months.map(() => null);
  const contentKey: (string | null)[] = months.map(() => null);
  let cacheHits = 0;
  const all: DataIssue[] = [];
  let truncated = false;
  let pool: WorkerPool | null = early.pool ?? null;
  // The first month to parse waits for a second: alone (a monthly build), it is parsed in this thread.
  let held: { i: number; key: string | null } | null = null;
  const parsing: Promise<void>[] = [];
  // Handled at once (the loop below still awaits its reads): Promise.all at the end reports the first failure.
  const start = (job: { i: number; key: string | null }) => {
    const p = parseOne(job);
    p.catch(() => {});
    parsing.push(p);
  };
  const parseOne = async ({ i, key }: { i: number; key: string | null }, on: WorkerPool | null = pool) => {
    const f = months[i]!;
    const job: MonthJob = { path: f.path, display: f.display, month: f.month, lookups, store: key ? { path: key, key: contentKey[i]! } : null };
    const parsed = on ? await on.run(job) : await runMonthJob(job);
    if (parsed.issues.length) {
      all.push(...parsed.issues);
      truncated ||= parsed.truncated;
      log(`  ${f.month}: ${parsed.issues.length}${parsed.truncated ? '+' : ''} problem(s)`);
      return;
    }
    const s = parsed.seconds;
    log(`  ${f.month}: ${parsed.rows.toLocaleString('en-US')} rows read in ${s.toFixed(1)} s (${Math.round(parsed.rows / s).toLocaleString('en-US')} rows/s)`);
    if (parsed.stored) cachePaths[i] = key;
    else aggregates[i] = parsed.aggregate;
  };
  const parsedEntryOf = async (i: number) => {
    const f = months[i]!;
    const entry = parsedMonthEntry(opts.cacheDir!, f.month, lookupsKey, await readFile(f.path));
    contentKey[i] = entry.key;
    return { entry, head: await peekCacheEntry(entry.path, entry.key, log) };
  };
  const looked = new Map<number, Awaited<ReturnType<typeof parsedEntryOf>>>();
  // A monthly build (the newest month new, the one before it in the cache): the newest
  // month is parsed on a worker of its own from the start, while this thread hashes and
  // looks up the other months (and, with `early`, the build scores the cached months
  // and digests them for the ledger).
  let ahead: Promise<void> | null = null;
  const newest = months.length - 1;
  try {
    if (spare && spare.path === months[newest]?.path && newest > 0) {
      looked.set(newest, await parsedEntryOf(newest));
      if (!looked.get(newest)!.head) {
        looked.set(newest - 1, await parsedEntryOf(newest - 1));
        if (looked.get(newest - 1)!.head) {
          const own = spare.pool;
          ahead = parseOne({ i: newest, key: looked.get(newest)!.entry.path }, own).finally(() => own.close());
          ahead.catch(() => {}); // awaited below
        }
      }
    }
  } finally {
    if (!ahead) void spare?.pool.close();
  }
  try {
    // Months are hashed one after the other in this thread; each month to parse goes to the
    // parser workers as soon as it is known, so that hashing the later months, the workers'
    // start and the parsing overlap (a cold build used to hash all 24 months first).
    for (const [i, f] of months.entries()) {
      if (ahead && i === newest) break;
      let key: string | null = null;
      if (opts.cacheDir) {
        const { entry, head } = looked.get(i) ?? (await parsedEntryOf(i));
        if (head) {
          cachePaths[i] = entry.path;
          cacheHits++;
          log(`  ${f.month}: ${Number(head.info?.rows ?? 0).toLocaleString('en-US')} rows (cached, unchanged)`);
          continue;
        }
        key = entry.path;
      }
      const job = { i, key };
      if (pool) start(job);
      else if (!held) held = job;
      else {
        // At most the months from the first to parse onwards are left: no more workers than that,
        // and the heap cap follows the largest of them.
        const size = Math.min(most, (ahead ? newest : months.length) - held.i);
        if (size > 1) {
          pool = new WorkerPool(size, workerHeapMb(months.slice(held.i).map((m) => m.path)), undefined, { youngGenerationMb: PARSER_YOUNG_GENERATION_MB });
          start(held);
          start(job);
        } else {
          // One worker at most: in this thread, one month at a time so that each one's timing means something.
          await parseOne(held);
          await parseOne(job);
        }
        held = null;
      }
    }
    if (held) await parseOne(held);
    await Promise.all(parsing);
  } finally {
    await pool?.close();
  }
  const check = () => {
    if (!all.length) return;
    all.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0)));
    throw new DataError(all.slice(0, 50), truncated || all.length > 50);
  };
  // The other months' problems wait for the newest month's, so that the list is the same either way.
  if (ahead && (all.length || !opts.early)) {
    try {
      await ahead;
    } catch (e) {
      if (!all.length) throw e;
    }
  }
  check();
  const ready = ahead ? ahead.then(check) : Promise.resolve();
  ready.catch(() => {}); // the caller's to await
  const aggregateSource = (i: number): AggregateSource => {
    const inMemory = aggregates[i];
    return inMemory ? { aggregate: inMemory } : { entry: { path: cachePaths[i]!, key: contentKey[i]! }, file: months[i]!, lookups };
  };
  const aggregate = async (i: number) => {
    await ready;
    return readAggregate(aggregateSource(i), log);
  };
  return { registry, months, aggregate, aggregateSource, cacheHits, contentKey, ready };
}

/**
 * Where a month's aggregate is: in memory (no cache), or in its parsed-month cache entry.
 * A plain value, so that a worker thread can read the month itself.
 */
export type AggregateSource = { aggregate: MonthAggregate } | { entry: { path: string; key: string }; file: MonthFile; lookups: Lookups };

export async function readAggregate(src: AggregateSource, log: (line: string) => void): Promise<MonthAggregate> {
  if ('aggregate' in src) return src.aggregate;
  const f = src.file;
  const stored = await readCacheJson<MonthAggregate>(src.entry.path, src.entry.key, log);
  if (stored) return { ...stored, file: f.display };
  // Damaged since it was looked up: parse the month again (its problems were all reported on the first read).
  const parsed = await parseMonthFile(f.path, f.display, f.month, src.lookups);
  if (!parsed.aggregate) throw new DataError(parsed.issues, parsed.truncated);
  return parsed.aggregate;
}
