import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import Papa from 'papaparse';
import type { IssueList } from '../../core/data-error.ts';
import { ByteBuilder } from '../write/byte-builder.ts';
import { EncodingError, controlFree, utf8Check } from './utf8.ts';

/** A record's fields, its first line, and `plain`: true when no field is known to hold a control character. */
type OnRecord = (fields: string[], line: number, plain: boolean) => void;
type Results = Papa.ParseResult<string[]>;

/**
 * Reads the records of a `.csv` or `.csv.gz` buffer (gzip recognised by its magic bytes),
 * header checked against `columns` (any order), each record trimmed, in `columns` order, with
 * its line. Structural problems go to `issues`; stops once `issues` is full.
 *
 * A valid gzip of UTF-8 text is read whole in one synchronous pass (cheaper than a stream);
 * any other file takes the streaming path, which reports exactly where it failed.
 */
export function readCsv(file: string, data: Buffer, columns: readonly string[], issues: IssueList, onRecord: OnRecord): Promise<void> {
  return withText(data, (text, gzip) => (text && isUtf8(text) ? readText(file, text, gzip, columns, issues, onRecord) : readCsvStream(file, data, columns, issues, onRecord)));
}

/** `use` over the text of a `.csv` or `.csv.gz` file's bytes; null when it is not valid gzip. */
export async function withText<T>(data: Buffer, use: (text: Buffer | null, gzip: boolean) => T | Promise<T>): Promise<T> {
  const gzip = isGzip(data);
  return use(gzip ? gunzip(data) : data, gzip);
}

/** `gz` gunzipped into one buffer sized from its trailer; null when not valid gzip. */
function gunzip(gz: Buffer): Buffer | null {
  const size = gunzippedSize(gz);
  try {
    return gunzipSync(gz, { chunkSize: size + (size >> 3) });
  } catch {
    return null;
  }
}

/** The length of a `.csv` or `.csv.gz` file's text as its bytes say: a size to make room for, not a fact. */
export function textSizeOf(data: Buffer): number {
  return isGzip(data) ? gunzippedSize(data) : data.length;
}

/** Whether `data` starts with gzip's magic bytes. */
function isGzip(data: Buffer): boolean {
  return data[0] === 0x1f && data[1] === 0x8b;
}

/** The trailer's size plus one, bounded by deflate's largest ratio; a wrong size only grows the buffer. */
function gunzippedSize(gz: Buffer): number {
  const isize = gz.length >= 18 ? gz.readUInt32LE(gz.length - 4) : 0;
  return Math.max(64, Math.min(isize + 1, gz.length * 1032, 1 << 30));
}

/** Text pieces handed to the parser, cut after a line break; small enough to stay out of V8's large-object space. */
const PIECE = 32768;

/** The synchronous way over gunzipped UTF-8 `text` (exported with `piece` for the tests). */
export function readText(file: string, text: Buffer, gzip: boolean, columns: readonly string[], issues: IssueList, onRecord: OnRecord, piece = PIECE): void {
  const records = recordReader(file, columns, issues, onRecord);
  if (!parseText(text, gzip, (results, oneLine, plain) => records.chunk(results, oneLine, plain), piece)) records.end();
}

/**
 * PapaParse over `text` in pieces: `onChunk` gets each piece's rows, whether each is on one
 * line and plain (no control character), and answers true to stop.
 */
export function parseText(text: Buffer, gzip: boolean, onChunk: (results: Results, oneLine: boolean, plain: boolean) => boolean, piece = PIECE): boolean {
  const config: Papa.ParseConfig<string[]> = { delimiter: ',' };
  const handle = new (Papa as unknown as { ParserHandle: new (c: object) => { parse(input: string, base: number, ignoreLastRow: boolean): Results; guessLineEndings(input: string, quote: string): string } }).ParserHandle(config);
  // The line ending is guessed from the same first chunk the streaming path's parser sees.
  const first = cutCharacter(text.subarray(0, gzip ? 16384 : 4 << 20));
  config.newline = handle.guessLineEndings(first.toString('utf8'), '"') as Papa.ParseConfig['newline'];
  const lf = config.newline !== '\r';
  let partial = '';
  let partialClean = true;
  let base = 0;
  for (let start = 0; start < text.length || start === 0; ) {
    let end = Math.min(text.length, start + piece);
    if (end < text.length) {
      const nl = text.indexOf(0x0a, end);
      end = nl === -1 ? text.length : nl + 1;
    }
    const last = end >= text.length;
    const input = partial + text.toString('utf8', start, end);
    const results = handle.parse(input, base, !last);
    const used = results.meta.cursor - base;
    // As many \n as rows: no field holds a line break, so the per-field search is skipped.
    const oneLine = !last && newlines(input, used) === (lf ? results.data.length : 0);
    // No control character in the text (the carried-over part included): the rows are plain.
    const clean: boolean = controlFree(text, start, end) && (partial === '' || partialClean);
    if (!last) {
      partial = input.substring(used);
      partialClean = clean;
      base = results.meta.cursor;
    }
    if (onChunk(results, oneLine, oneLine && clean)) return true;
    start = end;
    if (last) break;
  }
  return false;
}

function newlines(s: string, end: number): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1 && i < end; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** `b` less a multi-byte UTF-8 character at its end, as utf8Check holds one back for the next chunk. */
function cutCharacter(b: Buffer): Buffer {
  let k = b.length - 1;
  while (k >= 0 && k >= b.length - 3 && (b[k]! & 0xc0) === 0x80) k--;
  return k >= 0 && b[k]! >= 0xc0 ? b.subarray(0, k) : b;
}

/** What both ways do with the parser's chunks; `chunk` answers true once reading must stop. */
function recordReader(file: string, columns: readonly string[], issues: IssueList, onRecord: OnRecord) {
  let perm: number[] | null = null;
  let identity = true;
  let line = 0;
  let stopped = false;
  return {
    get stopped() {
      return stopped;
    },
    stop() {
      stopped = true;
    },
    end() {
      if (perm === null && !stopped && !issues.full) issues.add({ file, line: 1, message: `empty file: expected the header "${columns.join(',')}"` });
    },
    chunk(results: Results, oneLine = false, plain = false): boolean {
      if (stopped) return true;
      const errorsAt = new Map<number, string>();
      for (const e of results.errors) if (e.row !== undefined && !errorsAt.has(e.row)) errorsAt.set(e.row, `malformed CSV: ${e.message}`);
      const rows = results.data;
      for (let r = 0; r < rows.length; r++) {
        const record = rows[r]!;
        line++;
        const at = line;
        for (let i = 0; i < record.length; i++) {
          const f = record[i]!;
          if (!oneLine && f.includes('\n')) line += f.split('\n').length - 1;
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
          if (!identity) issues.columnsInFile(file, header);
          continue;
        }
        if (record.length !== columns.length) issues.add({ file, line: at, message: `expected ${columns.length} fields, found ${record.length}` });
        else onRecord(identity ? record : perm.map((p) => record[p]!), at, plain);
        if (issues.full) {
          stopped = true;
          break;
        }
      }
      return stopped;
    },
  };
}

/** The streaming way: gunzip, UTF-8 check and decoding as a stream, for files that fail either. */
export function readCsvStream(file: string, data: Buffer, columns: readonly string[], issues: IssueList, onRecord: OnRecord): Promise<void> {
  const gzip = isGzip(data);
  const raw = Readable.from([data]);
  const gunzip = gzip ? createGunzip() : null;
  const bytes = gunzip ? raw.pipe(gunzip) : raw;
  const checked = utf8Check();
  bytes.on('error', (e) => checked.destroy(e));
  const text = bytes.pipe(checked).setEncoding('utf8');
  const records = recordReader(file, columns, issues, onRecord);

  return new Promise<void>((resolve) => {
    const finish = () => {
      records.end();
      resolve();
    };
    text.on('error', (e: Error & { code?: string }) => {
      if (!records.stopped)
        issues.add(
          e instanceof EncodingError ? { file, line: e.line, column: e.column, message: e.message } : { file, message: gzipProblem(e, gunzip?.bytesWritten, data.length) },
        );
      records.stop();
      text.destroy();
      resolve();
    });
    Papa.parse<string[]>(text as unknown as NodeJS.ReadableStream, {
      delimiter: ',',
      chunk: (results, parser) => {
        if (records.chunk(results)) {
          parser.abort();
          text.destroy();
          finish();
        }
      },
      complete: finish,
    });
  });
}

/** A gzip error with the byte of the compressed file where it was found. */
function gzipProblem(e: Error, at: number | undefined, size: number): string {
  if (at === undefined) return `not a valid gzip file (${e.message})`;
  const truncated = at >= size ? ': the file ends there (truncated?)' : '';
  return `not a valid gzip file: ${e.message} at byte ${at.toLocaleString('en-US')} of ${size.toLocaleString('en-US')}${truncated}`;
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
