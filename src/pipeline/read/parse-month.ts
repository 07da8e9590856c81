import { readFile } from 'node:fs/promises';
import { MonthAccumulator, aggregateOf, arraysFor, type Lookups, type MonthAggregate, type MonthColumns } from '../../core/aggregate.ts';
import { IssueList, type DataIssue } from '../../core/data-error.ts';
import { MENTION_COLUMNS } from '../../core/schemas/rows.ts';
import { packColumns } from './aggregate-file.ts';
import { writeCacheEntry } from '../cache/cache-file.ts';
import type { CacheEntryRef } from '../cache/caches.ts';
import { readCsv, textSizeOf } from './read-csv.ts';

export interface ParsedMonth {
  aggregate: MonthAggregate | null;
  /** Reading and folding time. */
  seconds: number;
  issues: DataIssue[];
  truncated: boolean;
}

/** A month file read and folded into its columns (null when it has problems: `issues`). */
interface ReadMonth extends Omit<ParsedMonth, 'aggregate'> {
  columns: MonthColumns | null;
}

async function readMonth(path: string, display: string, month: string, lookups: Lookups, data?: Buffer): Promise<ReadMonth> {
  const t0 = performance.now();
  const issues = new IssueList();
  const bytes = data ?? (await readFile(path));
  // A thread's first month: arrays sized from the text's length, not grown from small ones.
  const acc = new MonthAccumulator(display, month, lookups, issues, arraysFor(textSizeOf(bytes)));
  await readCsv(display, bytes, MENTION_COLUMNS, issues, (fields, line, plain) => acc.add(fields, line, plain));
  const seconds = (performance.now() - t0) / 1000;
  const read: ReadMonth = issues.items.length ? { columns: null, seconds, issues: issues.items, truncated: issues.truncated } : { columns: acc.columns(), seconds, issues: [], truncated: false };
  return read;
}

/** Reads and folds one month file; `display` is the path shown in messages. */
export async function parseMonthFile(path: string, display: string, month: string, lookups: Lookups, data?: Buffer): Promise<ParsedMonth> {
  const { columns, ...rest } = await readMonth(path, display, month, lookups, data);
  return { ...rest, aggregate: columns && aggregateOf(columns) };
}

/** One month to parse: where it is, how it is shown, and the cache entry to store it as (null: no cache). */
export interface MonthJob {
  path: string;
  display: string;
  month: string;
  lookups: Lookups;
  store: CacheEntryRef | null;
}

/** A parsed month: its aggregate, or null when it went to the cache (or had problems: `issues`). */
export interface MonthOutcome extends ParsedMonth {
  rows: number;
  stored: boolean;
}

/**
 * Parses a month and, when valid and `job.store` is set, writes its cache entry from the
 * parsing thread, from the columns: a worker hands back only the row count, not the aggregate.
 */
export async function runMonthJob(job: MonthJob): Promise<MonthOutcome> {
  const { columns, ...parsed } = await readMonth(job.path, job.display, job.month, job.lookups);
  if (!columns) return { ...parsed, aggregate: null, rows: 0, stored: false };
  if (!job.store) return { ...parsed, aggregate: aggregateOf(columns), rows: columns.rows, stored: false };
  await writeCacheEntry(job.store.path, job.store.key, packColumns(columns), { rows: columns.rows });
  return { ...parsed, aggregate: null, rows: columns.rows, stored: true };
}
