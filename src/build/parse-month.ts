import { readFile } from 'node:fs/promises';
import { MonthAccumulator, type Lookups, type MonthAggregate } from '../core/aggregate.ts';
import { IssueList, type DataIssue } from '../core/data-error.ts';
import { MENTION_COLUMNS } from '../core/schemas/rows.ts';
import { readCsv } from './read-csv.ts';

export interface ParsedMonth {
  aggregate: MonthAggregate | null;
  issues: DataIssue[];
  truncated: boolean;
}

/** Reads and folds one month file; `display` is the path shown in messages. */
export async function parseMonthFile(path: string, display: string, month: string, lookups: Lookups, data?: Buffer): Promise<ParsedMonth> {
  const issues = new IssueList();
  const acc = new MonthAccumulator(display, month, lookups, issues);
  for await (const r of readCsv(display, data ?? (await readFile(path)), MENTION_COLUMNS, issues)) {
    acc.add(r.fields, r.line);
    if (issues.full) break;
  }
  return issues.items.length ? { aggregate: null, issues: issues.items, truncated: issues.truncated } : { aggregate: acc.finish(), issues: [], truncated: false };
}
