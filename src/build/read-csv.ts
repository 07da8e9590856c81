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
/** A `.csv.gz` is recognised by its gzip magic bytes, so a misnamed file still reads. */
export async function* readCsv(file: string, data: Buffer, columns: readonly string[], issues: IssueList): AsyncGenerator<CsvRecord> {
  const gzip = data[0] === 0x1f && data[1] === 0x8b;
  const source = gzip ? Readable.from([data]).pipe(createGunzip()) : Readable.from([data]);
  // No `info` and no `skip_empty_lines`: csv-parse's per-record info halves its speed, so
  // lines are counted here (one per record plus the newlines inside quoted fields).
  const parser = parse({ bom: true, trim: true, relax_column_count: true });
  source.on('error', (e) => parser.destroy(e));
  source.pipe(parser);
  let perm: number[] | null = null;
  let identity = true;
  let line = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      line++;
      const at = line;
      for (const f of record) if (f.includes('\n')) line += f.split('\n').length - 1;
      if (record.length === 1 && record[0] === '') continue;
      if (perm === null) {
        const header = record.map((h) => h.trim().toLowerCase());
        const missing = columns.filter((c) => !header.includes(c));
        const extra = header.filter((h) => !columns.includes(h));
        if (missing.length || extra.length || header.length !== columns.length) {
          issues.add({
            file,
            line: at,
            message: `wrong columns: expected "${columns.join(',')}"${missing.length ? `; missing ${missing.map((m) => `"${m}"`).join(', ')}` : ''}${extra.length ? `; unexpected ${extra.map((m) => `"${m}"`).join(', ')}` : ''}`,
          });
          return;
        }
        perm = columns.map((c) => header.indexOf(c));
        identity = perm.every((p, i) => p === i);
        continue;
      }
      if (record.length !== columns.length) {
        issues.add({ file, line: at, message: `expected ${columns.length} fields, found ${record.length}` });
        if (issues.full) return;
        continue;
      }
      yield { fields: identity ? record : perm.map((p) => record[p]!), line: at };
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
