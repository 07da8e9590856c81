import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { IssueList } from '../core/data-error.ts';

export interface CsvRecord {
  fields: string[];
  line: number;
}

/**
 * Streams the records of a `.csv` or `.csv.gz` buffer, header checked against `columns`
 * (any order, exactly those names) and fields returned in `columns` order.
 * Structural problems (bad quoting, wrong field count, wrong header) go to `issues`.
 */
export async function* readCsv(file: string, data: Buffer, columns: readonly string[], issues: IssueList): AsyncGenerator<CsvRecord> {
  const source = file.endsWith('.gz') ? Readable.from([data]).pipe(createGunzip()) : Readable.from([data]);
  const parser = parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true });
  source.on('error', (e) => parser.destroy(e));
  source.pipe(parser);
  let perm: number[] | null = null;
  let identity = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (perm === null) {
        const header = record.map((h) => h.trim().toLowerCase());
        const missing = columns.filter((c) => !header.includes(c));
        const extra = header.filter((h) => !columns.includes(h));
        if (missing.length || extra.length || header.length !== columns.length) {
          issues.add({
            file,
            line: info.lines,
            message: `wrong columns: expected "${columns.join(',')}"${missing.length ? `; missing ${missing.map((m) => `"${m}"`).join(', ')}` : ''}${extra.length ? `; unexpected ${extra.map((m) => `"${m}"`).join(', ')}` : ''}`,
          });
          return;
        }
        perm = columns.map((c) => header.indexOf(c));
        identity = perm.every((p, i) => p === i);
        continue;
      }
      if (record.length !== columns.length) {
        issues.add({ file, line: info.lines, message: `expected ${columns.length} fields, found ${record.length}` });
        if (issues.full) return;
        continue;
      }
      yield { fields: identity ? record : perm.map((p) => record[p]!), line: info.lines };
    }
  } catch (e) {
    const err = e as Error & { lines?: number; code?: string };
    issues.add({ file, line: err.lines, message: err.code === 'Z_DATA_ERROR' || /incorrect header|unexpected end/i.test(err.message) ? `not a valid gzip file (${err.message})` : `malformed CSV: ${err.message}` });
  }
  if (perm === null && !issues.full) issues.add({ file, line: 1, message: `empty file: expected the header "${columns.join(',')}"` });
}

/** Records as plain objects keyed by column, for the small registry files. */
export async function readTable(file: string, data: Buffer, columns: readonly string[], issues: IssueList) {
  const rows: { line: number; record: Record<string, string> }[] = [];
  for await (const r of readCsv(file, data, columns, issues)) {
    const record: Record<string, string> = {};
    columns.forEach((c, i) => (record[c] = r.fields[i]!));
    rows.push({ line: r.line, record });
  }
  return rows;
}
