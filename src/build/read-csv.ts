import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import Papa from 'papaparse';
import type { IssueList } from '../core/data-error.ts';
import { EncodingError, utf8Check } from './utf8.ts';

/**
 * Reads the records of a `.csv` or `.csv.gz` buffer (gzip recognised by its magic bytes,
 * so a misnamed file still reads), header checked against `columns` (any order, exactly
 * those names), each record handed to `onRecord` trimmed and in `columns` order with the
 * line it starts on. Structural problems (bad quoting, wrong field count, wrong header,
 * bad gzip, bytes that are not UTF-8) go to `issues`. Stops early once `issues` is full.
 *
 * PapaParse streams the gunzipped text at about 750k rows/s here against csv-parse's 115k
 * (one reference-scale month, BENCHMARKS.md), which made csv-parse most of the ingest time.
 */
export function readCsv(
  file: string,
  data: Buffer,
  columns: readonly string[],
  issues: IssueList,
  onRecord: (fields: string[], line: number) => void,
): Promise<void> {
  const gzip = data[0] === 0x1f && data[1] === 0x8b;
  const raw = Readable.from([data]);
  const bytes = gzip ? raw.pipe(createGunzip()) : raw;
  const checked = utf8Check();
  bytes.on('error', (e) => checked.destroy(e));
  const text = bytes.pipe(checked).setEncoding('utf8');
  let perm: number[] | null = null;
  let identity = true;
  let line = 0;
  let stopped = false;

  return new Promise<void>((resolve) => {
    const finish = () => {
      if (perm === null && !stopped && !issues.full) issues.add({ file, line: 1, message: `empty file: expected the header "${columns.join(',')}"` });
      resolve();
    };
    text.on('error', (e: Error & { code?: string }) => {
      if (!stopped)
        issues.add(
          e instanceof EncodingError ? { file, line: e.line, column: e.column, message: e.message } : { file, message: `not a valid gzip file (${e.message})` },
        );
      stopped = true;
      text.destroy();
      resolve();
    });
    Papa.parse<string[]>(text as unknown as NodeJS.ReadableStream, {
      delimiter: ',',
      chunk: (results, parser) => {
        if (stopped) return;
        const errorsAt = new Map<number, string>();
        for (const e of results.errors) if (e.row !== undefined && !errorsAt.has(e.row)) errorsAt.set(e.row, `malformed CSV: ${e.message}`);
        const rows = results.data;
        for (let r = 0; r < rows.length; r++) {
          const record = rows[r]!;
          line++;
          const at = line;
          for (let i = 0; i < record.length; i++) {
            const f = record[i]!;
            if (f.includes('\n')) line += f.split('\n').length - 1;
            // Trim only what needs it: most fields have no surrounding blanks.
            if (f.length && (f.charCodeAt(0) <= 32 || f.charCodeAt(f.length - 1) <= 32)) record[i] = f.trim();
          }
          const problem = errorsAt.get(r);
          if (problem) {
            issues.add({ file, line: at, message: problem });
            continue;
          }
          if (record.length === 1 && record[0] === '') continue;
          if (perm === null) {
            const header = record.map((h) => h.replace(/^\uFEFF/, '').toLowerCase());
            const missing = columns.filter((c) => !header.includes(c));
            const extra = header.filter((h) => !columns.includes(h));
            if (missing.length || extra.length || header.length !== columns.length) {
              issues.add({
                file,
                line: at,
                message: `wrong columns: expected "${columns.join(',')}"${missing.length ? `; missing ${missing.map((m) => `"${m}"`).join(', ')}` : ''}${extra.length ? `; unexpected ${extra.map((m) => `"${m}"`).join(', ')}` : ''}`,
              });
              stopped = true;
              break;
            }
            perm = columns.map((c) => header.indexOf(c));
            identity = perm.every((p, i) => p === i);
            continue;
          }
          if (record.length !== columns.length) issues.add({ file, line: at, message: `expected ${columns.length} fields, found ${record.length}` });
          else onRecord(identity ? record : perm.map((p) => record[p]!), at);
          if (issues.full) {
            stopped = true;
            break;
          }
        }
        if (stopped) {
          parser.abort();
          text.destroy();
          finish();
        }
      },
      complete: finish,
    });
  });
}

/** Records as plain objects keyed by column, for the small registry files. */
export async function readTable(file: string, data: Buffer, columns: readonly string[], issues: IssueList) {
  const rows: { line: number; record: Record<string, string> }[] = [];
  await readCsv(file, data, columns, issues, (fields, line) => {
    const record: Record<string, string> = {};
    columns.forEach((c, i) => (record[c] = fields[i]!));
    rows.push({ line, record });
  });
  return rows;
}
