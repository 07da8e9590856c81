import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MonthAccumulator, type Lookups } from '../../core/aggregate.ts';
import { IssueList } from '../../core/data-error.ts';
import { MENTION_COLUMNS } from '../../core/schemas/rows.ts';
import { readCsv } from './read-csv.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const LOOKUPS: Lookups = { countries: [{ code: 'us', name: 'United States', aliases: [] }], industries: [{ name: 'Aerospace', slug: 'aerospace' }] };

/**
 * A month of `answers` answers of 8 rows each, long rows whose values a parser cuts as views
 * into its text (13 characters or more): answer ids, date-times (one a second, so every
 * answer has its own), themes and company names. Few answers for much text, so that the
 * aggregate stays small beside the text.
 */
function month(answers: number): Buffer {
  const lines = [MENTION_COLUMNS.join(',')];
  for (let a = 0; a < answers; a++) {
    const id = `answer-2026-10-${String(a).padStart(8, '0')}`;
    const s = a % 86400;
    const at = `2026-10-07T${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}Z`;
    for (let r = 0; r < 8; r++) lines.push(`${id},${at},ChatGPT,us,Aerospace,Career Opportunities and Growth Paths ${'x'.repeat(60)},career-${a % 7},Company Number ${(a * 8 + r) % 500} Holdings International ${'y'.repeat(60)}`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

describe('reading a month', () => {
  it('keeps nothing of the month text alive while the month is folded (only what the aggregate needs)', async () => {
    // ~56 MB of text. Any value cut by the parser and kept for the month (a memo key, an answer
    // id) keeps its ~32 KiB piece of the text alive in the heap until the month is done; values
    // spread over the month keep all of it (so it was with the memo of date-times and the answer
    // ids: 224 MB of heap at the end of a reference month instead of 92).
    const data = month(25_000);
    const issues = new IssueList();
    gc();
    const before = process.memoryUsage().heapUsed;
    const acc = new MonthAccumulator('m.csv', '2026-10', LOOKUPS, issues);
    await readCsv('m.csv', data, MENTION_COLUMNS, issues, (fields, line) => acc.add(fields, line));
    gc();
    const held = process.memoryUsage().heapUsed - before;
    expect(issues.items).toEqual([]);
    expect(acc.finish().rows).toBe(200_000);
    expect(held).toBeLessThan(data.length / 4);
  });
});
