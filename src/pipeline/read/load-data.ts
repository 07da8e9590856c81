/**
 * Reads the data folder (data-and-rules §1): the registry, then every month through
 * the content-hash cache, parsing the months that changed in worker threads.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { aggregateOf, columnsOf, type Lookups, type MonthAggregate, type MonthColumns } from '../../core/aggregate.ts';
import { DataError, IssueList, type DataIssue } from '../../core/data-error.ts';
import { buildLookups, buildRegistry, type Registry } from '../../core/registry.ts';
import { COMPANY_COLUMNS, COUNTRY_COLUMNS, INDUSTRY_COLUMNS } from '../../core/schemas/rows.ts';
import { unpackColumns } from './aggregate-file.ts';
import { peekCacheEntry, readCacheWith } from '../cache/cache-file.ts';
import { lookupsHash, parsedMonthEntry } from '../cache/caches.ts';
import { parseMonthFile, runMonthJob, type MonthJob } from './parse-month.ts';
import { readTable } from './read-csv.ts';
import { defaultWorkers, WorkerPool, workerHeapMb } from '../workers/worker-pool.ts';

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
}

export interface LoadedData {
  registry: Registry;
  months: MonthFile[];
  /** Month `i`'s aggregate, read back from the cache so that one month is in memory at a time. */
  aggregate(i: number): Promise<MonthAggregate>;
  /** Month `i`'s columns, as the scoring reads them ({@link readColumns}). */
  columns(i: number): Promise<MonthColumns>;
  /** Where month `i`'s aggregate is, for a worker thread to read it ({@link readColumns}). */
  aggregateSource(i: number): AggregateSource;
  cacheHits: number;
  /** Month `i`'s content hash (file and lookups), null without a cache. */
  contentKey: (string | null)[];
  /**
   * Settled once every month is read; rejects with the {@link DataError} of the newest
   * month's problems when that month was parsed on while the build went on.
   */
  ready: Promise<void>;
}

/** One of the registry's tables; a missing file is a problem in `issues` (and no rows). */
export async function readRegistryTable(dataDir: string, name: string, columns: readonly string[], show: (p: string) => string, issues: IssueList) {
  const path = join(dataDir, name);
  const file = show(path);
  if (!existsSync(path)) {
    issues.add({ file, message: `missing file: the data folder must hold ${name} with columns "${columns.join(',')}"` });
    return { file, header: [...columns], rows: [] };
  }
  return { file, header: [...columns], rows: await readTable(file, await readFile(path), columns, issues) };
}

/** A month file's name: YYYY-MM.csv or YYYY-MM.csv.gz. */
const MONTH_FILE_RE = /^(\d{4}-(0[1-9]|1[0-2]))\.csv(\.gz)?$/;

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

/** Parser workers get a large young generation: a month's rows are short-lived. */
const PARSER_YOUNG_GENERATION_MB = 96;
/**
 * A monthly build's worker for its newest month parses beside the scoring of the cached
 * months: a small young generation keeps the two from adding up to the build's peak memory.
 */
const AHEAD_YOUNG_GENERATION_MB = 12;

/** A pool of `size` parser workers, their heap cap set by the largest month file. */
export function parserPool(size: number, paths: string[], youngGenerationMb = PARSER_YOUNG_GENERATION_MB): WorkerPool {
  return new WorkerPool(size, workerHeapMb(paths), undefined, { youngGenerationMb });
}

/** Loads everything or throws a {@link DataError} listing every problem found (up to the cap). */
export async function loadData(opts: LoadOptions): Promise<LoadedData> {
  const log = opts.log ?? (() => {});
  const show = (p: string) => relative(opts.root, p) || '.';
  const issues = new IssueList();
  const most = opts.workers ?? defaultWorkers();
  const countries = await readRegistryTable(opts.dataDir, 'countries.csv', COUNTRY_COLUMNS, show, issues);
  const industries = await readRegistryTable(opts.dataDir, 'industries.csv', INDUSTRY_COLUMNS, show, issues);
  const base = buildLookups({ countries, industries }, issues);
  const lookups: Lookups = { countries: base.countries, industries: base.industries };
  const lookupsKey = lookupsHash(lookups);
  const companies = await readRegistryTable(opts.dataDir, 'companies.csv', COMPANY_COLUMNS, show, issues);
  const registry = buildRegistry({ countries, industries, companies }, issues, base);
  const months = await listMonths(opts.dataDir, show, issues);
  issues.throwIfAny();

  const aggregates: (MonthAggregate | null)[] = months.map(() => null);
  const cachePaths: (string | null)[] = months.map(() => null);
  const contentKey: (string | null)[] = months.map(() => null);
  let cacheHits = 0;
  const all: DataIssue[] = [];
  let truncated = false;
  let pool: WorkerPool | null = null;
  // The first month to parse waits for a second: alone (a monthly build), it is parsed in this thread.
  let held: { i: number; key: string | null } | null = null;
  const parsing: Promise<void>[] = [];
  const newest = months.length - 1;
  let ahead: Promise<void> | null = null;
  const parseOne = async ({ i, key }: { i: number; key: string | null }, on: WorkerPool | null = pool) => {
    const f = months[i]!;
    const job: MonthJob = { path: f.path, display: f.display, month: f.month, lookups, store: key ? { path: key, key: contentKey[i]! } : null };
    const parsed = await (on ? on.run(job) : runMonthJob(job));
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
  // Promise.all at the end reports the first failure.
  const start = (job: { i: number; key: string | null }) => {
    const p = parseOne(job);
    p.catch(() => {});
    parsing.push(p);
  };
  /** Month `i`'s cache entry and, when it is there and intact, its header: looked up once. */
  const looked: Promise<{ entry: { path: string; key: string }; head: Awaited<ReturnType<typeof peekCacheEntry>> }>[] = [];
  const look = (i: number, cacheDir: string) =>
    (looked[i] ??= (async () => {
      const entry = parsedMonthEntry(cacheDir, months[i]!.month, lookupsKey, await readFile(months[i]!.path));
      return { entry, head: await peekCacheEntry(entry.path, entry.key, log) };
    })());
  try {
    // A monthly build (the newest month new, the one before it cached): the newest month is
    // looked up first and parsed on a worker of its own while the other months are looked up
    // and the cached ones scored; its columns, and `ready`, wait for it.
    if (opts.cacheDir && newest > 0 && most > 1) {
      const last = await look(newest, opts.cacheDir);
      if (!last.head && (await look(newest - 1, opts.cacheDir)).head) {
        contentKey[newest] = last.entry.key;
        const own = parserPool(1, [months[newest]!.path], AHEAD_YOUNG_GENERATION_MB);
        ahead = parseOne({ i: newest, key: last.entry.path }, own).finally(() => own.close());
        ahead.catch(() => {}); // awaited below or through `ready`
      }
    }
    // Each month to parse goes to the workers as soon as it is known: hashing and parsing overlap.
    for (const [i, f] of months.entries()) {
      if (ahead && i === newest) break;
      let key: string | null = null;
      if (opts.cacheDir) {
        const { entry, head } = await look(i, opts.cacheDir);
        contentKey[i] = entry.key;
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
        // No more workers than months left from the first to parse onwards.
        const size = Math.min(most, (ahead ? newest : months.length) - held.i);
        if (size > 1) {
          pool = parserPool(size, months.slice(held.i).map((m) => m.path));
          start(held);
          start(job);
        } else {
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
  // The other months' problems wait for the newest month's, so that the list is the same either way.
  if (ahead && all.length) await ahead;
  const check = () => {
    if (!all.length) return;
    all.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0)));
    throw new DataError(all.slice(0, 50), truncated || all.length > 50);
  };
  check();
  const ready = ahead ? ahead.then(check) : Promise.resolve();
  ready.catch(() => {}); // the caller's to await
  const aggregateSource = (i: number): AggregateSource => {
    const inMemory = aggregates[i];
    return inMemory ? { aggregate: inMemory } : { entry: { path: cachePaths[i]!, key: contentKey[i]! }, file: months[i]!, lookups };
  };
  return {
    registry,
    months,
    aggregate: async (i) => {
      if (i === newest) await ready;
      return readAggregate(aggregateSource(i), log);
    },
    columns: async (i) => {
      if (i === newest) await ready;
      return readColumns(aggregateSource(i), log);
    },
    aggregateSource,
    cacheHits,
    contentKey,
    ready,
  };
}

/** Where a month's aggregate is: in memory, or in its cache entry (a plain value a worker can read). */
export type AggregateSource = { aggregate: MonthAggregate } | { entry: { path: string; key: string }; file: MonthFile; lookups: Lookups };

export async function readAggregate(src: AggregateSource, log: (line: string) => void): Promise<MonthAggregate> {
  return 'aggregate' in src ? src.aggregate : aggregateOf(await readColumns(src, log));
}

/** A month's columns, as the scoring reads them, from its cache entry when there is one. */
export async function readColumns(src: AggregateSource, log: (line: string) => void): Promise<MonthColumns> {
  if ('aggregate' in src) return columnsOf(src.aggregate);
  const f = src.file;
  const stored = await readCacheWith(src.entry.path, src.entry.key, log, unpackColumns, 'is not a parsed month');
  if (stored) return { ...stored, file: f.display };
  // Damaged since it was looked up: parse the month again.
  const parsed = await parseMonthFile(f.path, f.display, f.month, src.lookups);
  if (!parsed.aggregate) throw new DataError(parsed.issues, parsed.truncated);
  return columnsOf(parsed.aggregate);
}
