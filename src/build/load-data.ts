/**
 * Reads the data folder (data-and-rules §1): the registry, then every month through
 * the content-hash cache, parsing the months that changed in worker threads.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { aggregateOf, columnsOf, type Lookups, type MonthAggregate, type MonthColumns } from '../core/aggregate.ts';
import { DataError, IssueList, type DataIssue } from '../core/data-error.ts';
import { buildLookups, buildRegistry, type Registry } from '../core/registry.ts';
import { COMPANY_COLUMNS, COUNTRY_COLUMNS, INDUSTRY_COLUMNS } from '../core/schemas/rows.ts';
import { unpackColumns } from './aggregate-file.ts';
import { peekCacheEntry, readCacheWith } from './cache-file.ts';
import { lookupsHash, parsedMonthEntry, type CacheEntryRef } from './caches.ts';
import { parseMonthFile, runMonthJob, type MonthJob, type MonthOutcome } from './parse-month.ts';
import { readTable } from './read-csv.ts';
import { defaultWorkers, type WorkerPool } from './worker-pool.ts';
import { MONTH_FILE_RE, monthOfFile } from './build-folders.mjs';
import { closeEarlyWorkers, earlyWorkers, parserPool, type EarlyWorkers } from './early-workers.ts';

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
  /**
   * Parser workers the caller started before this (earlyWorkers, with this call's data and
   * cache folders and number of workers): taken over, used or closed here. Without them,
   * loadData starts them itself.
   */
  earlyWorkers?: EarlyWorkers;
}

export interface LoadedData {
  registry: Registry;
  months: MonthFile[];
  /** Month `i`'s aggregate: read back from the cache when there is one, so that one month is in memory at a time. */
  aggregate(i: number): Promise<MonthAggregate>;
  /** Month `i`'s columns, as the scoring reads them ({@link readColumns}). */
  columns(i: number): Promise<MonthColumns>;
  /** Where month `i`'s aggregate is, for a worker thread to read it ({@link readColumns}). */
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

/** Loads everything or throws a {@link DataError} listing every problem found (up to the cap). */
export async function loadData(opts: LoadOptions): Promise<LoadedData> {
  const log = opts.log ?? (() => {});
  const show = (p: string) => relative(opts.root, p) || '.';
  const issues = new IssueList();
  const most = opts.workers ?? defaultWorkers();
  // Workers started before anything is read (earlyWorkers, by the caller or here): the spare
  // is used when this is a monthly build (below), else closed once that is known; the early
  // pool takes every month to parse. A caller that started none (npm run build starts only a
  // monthly build's spare) leaves the pool to this.
  const given = opts.earlyWorkers?.spare || opts.earlyWorkers?.pool ? opts.earlyWorkers : null;
  const early = given ?? (opts.cacheDir && most > 1 ? earlyWorkers(opts.dataDir, opts.cacheDir, most) : {});
  const spare = early.spare ?? null;
  if (early.pool) log(`  ${early.pool.size} parser workers started before the registry is read (no month before the newest in the cache: every month may need parsing)`);
  const cacheDir = opts.cacheDir;
  const entryOf = async (path: string, lookupsKey: string) => {
    const entry = parsedMonthEntry(cacheDir!, monthOfFile(path), lookupsKey, await readFile(path));
    return { entry, head: await peekCacheEntry(entry.path, entry.key, log) };
  };
  type Looked = Awaited<ReturnType<typeof entryOf>>;
  let registry: Registry;
  let months: MonthFile[];
  let lookups: Lookups;
  let lookupsKey: string;
  /** A month to parse, with the lookups, and the cache entry to store it as (null: none). */
  const monthJob = (f: Pick<MonthFile, 'path' | 'display' | 'month'>, store: CacheEntryRef | null): MonthJob => ({ path: f.path, display: f.display, month: f.month, lookups, store });
  // A monthly build (the newest month new, the one before it in the cache): the newest
  // month's parse starts on the spare worker as soon as the countries and industries are
  // read (the months are resolved through them alone), while this thread reads companies.csv
  // and cross-checks the registry (~0.5 s at reference scale), then hashes and looks up the
  // other months (and, with `early`, the build scores the cached months and digests them for
  // the ledger). Should the registry or the folder listing have a problem, the worker is
  // closed with the build's DataError.
  let headStart: { newest: Looked; before: Looked | null; run: Promise<MonthOutcome> | null } | null = null;
  // A cold build's pool (every month may need parsing): as many months as it has workers go to
  // it as soon as the lookups are known, by the same rule (their parse started ~0.7 s sooner at
  // reference scale); the loop below takes them over by path.
  const firstRuns = new Map<string, { looked: Looked; run: Promise<MonthOutcome> }>();
  try {
    const countries = await readRegistryTable(opts.dataDir, 'countries.csv', COUNTRY_COLUMNS, show, issues);
    const industries = await readRegistryTable(opts.dataDir, 'industries.csv', INDUSTRY_COLUMNS, show, issues);
    const base = buildLookups({ countries, industries }, issues);
    lookups = { countries: base.countries, industries: base.industries };
    lookupsKey = lookupsHash(lookups);
    if (spare && cacheDir && !issues.items.length) {
      const newest = await entryOf(spare.path, lookupsKey);
      const before = newest.head ? null : await entryOf(spare.before, lookupsKey);
      let run: Promise<MonthOutcome> | null = null;
      if (before?.head) {
        run = spare.pool.run(monthJob({ path: spare.path, display: show(spare.path), month: monthOfFile(spare.path) }, newest.entry));
        run.catch(() => {}); // awaited below
      }
      headStart = { newest, before, run };
    }
    if (early.pool && cacheDir && !issues.items.length) {
      // The listing's problems, if any, are reported by the listing below.
      for (const f of (await listMonths(opts.dataDir, show, new IssueList())).slice(0, early.pool.size)) {
        const l = await entryOf(f.path, lookupsKey);
        if (l.head) continue;
        const run = early.pool.run(monthJob(f, l.entry));
        run.catch(() => {}); // awaited below
        firstRuns.set(f.path, { looked: l, run });
      }
    }
    const companies = await readRegistryTable(opts.dataDir, 'companies.csv', COMPANY_COLUMNS, show, issues);
    registry = buildRegistry({ countries, industries, companies }, issues, base);
    months = await listMonths(opts.dataDir, show, issues);
    issues.throwIfAny();
  } catch (e) {
    await closeEarlyWorkers(early);
    throw e;
  }

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
  /** Month `i`'s parse (`outcome`) taken in: its problems, or its aggregate or cache entry. */
  const settle = async (i: number, key: string | null, outcome: Promise<MonthOutcome>) => {
    const f = months[i]!;
    const parsed = await outcome;
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
  const parseOne = ({ i, key }: { i: number; key: string | null }) => {
    const f = months[i]!;
    const job = monthJob(f, key ? { path: key, key: contentKey[i]! } : null);
    return settle(i, key, pool ? pool.run(job) : runMonthJob(job));
  };
  const looked = new Map<number, Looked>();
  const look = (i: number, l: Looked) => {
    looked.set(i, l);
    contentKey[i] = l.entry.key;
    return l;
  };
  const lookUp = async (i: number) => look(i, await entryOf(months[i]!.path, lookupsKey));
  let ahead: Promise<void> | null = null;
  const newest = months.length - 1;
  try {
    // The head start's files are the listing's newest two (they are, but for a folder changed in between).
    if (headStart && spare!.path === months[newest]?.path && newest > 0) {
      look(newest, headStart.newest);
      if (headStart.before && spare!.before === months[newest - 1]!.path) look(newest - 1, headStart.before);
      if (headStart.run && looked.has(newest - 1)) {
        const own = spare!.pool;
        ahead = settle(newest, headStart.newest.entry.path, headStart.run).finally(() => own.close());
        ahead.catch(() => {}); // awaited below
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
      const first = firstRuns.get(f.path);
      if (opts.cacheDir) {
        const { entry, head } = looked.get(i) ?? (first ? look(i, first.looked) : await lookUp(i));
        if (head) {
          cachePaths[i] = entry.path;
          cacheHits++;
          log(`  ${f.month}: ${Number(head.info?.rows ?? 0).toLocaleString('en-US')} rows (cached, unchanged)`);
          continue;
        }
        key = entry.path;
      }
      const job = { i, key };
      if (first) {
        const p = settle(i, key, first.run);
        p.catch(() => {});
        parsing.push(p);
      } else if (pool) start(job);
      else if (!held) held = job;
      else {
        // At most the months from the first to parse onwards are left: no more workers than that,
        // and the heap cap follows the largest of them.
        const size = Math.min(most, (ahead ? newest : months.length) - held.i);
        if (size > 1) {
          pool = parserPool(size, months.slice(held.i).map((m) => m.path));
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
  const columns = async (i: number) => {
    await ready;
    return readColumns(aggregateSource(i), log);
  };
  return { registry, months, aggregate, columns, aggregateSource, cacheHits, contentKey, ready };
}

/**
 * Where a month's aggregate is: in memory (no cache), or in its parsed-month cache entry.
 * A plain value, so that a worker thread can read the month itself.
 */
export type AggregateSource = { aggregate: MonthAggregate } | { entry: { path: string; key: string }; file: MonthFile; lookups: Lookups };

export async function readAggregate(src: AggregateSource, log: (line: string) => void): Promise<MonthAggregate> {
  return 'aggregate' in src ? src.aggregate : aggregateOf(await readColumns(src, log));
}

/**
 * A month's columns, as the scoring reads them: from its cache entry, the names' lists left
 * where the entry holds them (unpackColumns), instead of an array each.
 */
export async function readColumns(src: AggregateSource, log: (line: string) => void): Promise<MonthColumns> {
  if ('aggregate' in src) return columnsOf(src.aggregate);
  const f = src.file;
  const stored = await readCacheWith(src.entry.path, src.entry.key, log, unpackColumns, 'is not a parsed month');
  if (stored) return { ...stored, file: f.display };
  // Damaged since it was looked up: parse the month again (its problems were all reported on the first read).
  const parsed = await parseMonthFile(f.path, f.display, f.month, src.lookups);
  if (!parsed.aggregate) throw new DataError(parsed.issues, parsed.truncated);
  return columnsOf(parsed.aggregate);
}
