import { readFile } from 'node:fs/promises';
import { MonthAccumulator, type Lookups, type MonthAggregate } from '../core/aggregate.ts';
import { IssueList, type DataIssue } from '../core/data-error.ts';
import { MENTION_COLUMNS } from '../core/schemas/rows.ts';
import { readCsv } from './read-csv.ts';

export interface ParsedMonth {
  aggregate: MonthAggregate | null;
  /** Reading and folding time. */
  seconds: number;
  issues: DataIssue[];
  truncated: boolean;
}

/** Reads and folds one month file; `display` is the path shown in messages. */
export async function parseMonthFile(path: string, display: string, month: string, lookups: Lookups, data?: Buffer): Promise<ParsedMonth> {
  const t0 = performance.now();
  const issues = new IssueList();
  const acc = new MonthAccumulator(display, month, lookups, issues);
  await readCsv(display, data ?? (await readFile(path)), MENTION_COLUMNS, issues, (fields, line) => acc.add(fields, line));
  const seconds = (performance.now() - t0) / 1000;
  return issues.items.length ? { aggregate: null, seconds, issues: issues.items, truncated: issues.truncated } : { aggregate: acc.finish(), seconds, issues: [], truncated: false };
}
