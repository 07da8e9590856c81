/**
 * bench:build's one-month ingest profile, in one process and one thread, stage by stage:
 *
 *   node --import tsx --expose-gc bench/lib/ingest-profile.ts DATA_DIR MONTH_FILE
 *
 * Each stage re-does the ones before it, so the differences are the costs:
 * gunzip (withText, as readCsv calls it) -> + Node's UTF-8 check and the CSV parser alone, fed
 * 32 KiB pieces as src/build/read-csv.ts feeds it -> + readCsv (trimming, line counting, header
 * mapping) -> + MonthAccumulator (validation and
 * aggregation) = parseMonthFile. The accumulator is also timed alone over records already
 * in memory, and the heap held at the end of a month's fold (heapHeldBytes, with --expose-gc); then the cache entry (packAggregate and its
 * SHA-256, written by the parser worker itself since the workers store their months; read back
 * by unpackAggregate; the same as JSON, as it was, for comparison) and the structured clone a worker hand-off would
 * cost (the build no longer makes it when it has a cache); and csv-parse, the parser
 * before PapaParse, for comparison. Each stage is run EVI_PROFILE_REPS times (default 2),
 * best time kept, with its CPU time (user + system, this process: on a shared machine the
 * steadier figure; it includes V8's helper threads, so GC running beside the main thread
 * counts) beside the wall time. EVI_PROFILE_CSV_PARSE=0 skips the csv-parse stage.
 * Prints one JSON object on stdout.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import Papa from 'papaparse';
import { packAggregate, unpackAggregate } from '../../src/build/aggregate-file.ts';
import { keepBetweenMonths, parseMonthFile } from '../../src/build/parse-month.ts';
import { parseText, readCsv, withText } from '../../src/build/read-csv.ts';
import { MonthAccumulator, type Lookups, type MonthAggregate } from '../../src/core/aggregate.ts';
import { IssueList } from '../../src/core/data-error.ts';
import { MENTION_COLUMNS } from '../../src/core/schemas/rows.ts';
import { readLookups } from './lookups.ts';

// As a parser worker does: the memory of one month's reading is kept for the next (each stage runs several times).
keepBetweenMonths();

const [dataDir, file] = process.argv.slice(2);
if (!dataDir || !file) {
  console.error('usage: ingest-profile.ts DATA_DIR MONTH_FILE');
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const lookups: Lookups = await readLookups(dataDir);
const month = /(\d{4}-\d{2})\.csv/.exec(file)![1]!;
const gz = readFileSync(file);

// Best of REPS (default 2): on a shared machine the minimum is the least disturbed run.
const reps = Math.max(1, Number(process.env.EVI_PROFILE_REPS ?? 2));
const stages: { name: string; seconds: number; cpuSeconds: number; runs: number[]; cpuRuns: number[] }[] = [];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
async function stage<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
  const runs: number[] = [];
  const cpuRuns: number[] = [];
  let r: T;
  for (let i = 0; i < reps; i++) {
    gc();
    const c = cpu();
    const t = performance.now();
    r = await fn();
    runs.push((performance.now() - t) / 1000);
    cpuRuns.push(cpu() - c);
  }
  stages.push({ name, seconds: Math.min(...runs), cpuSeconds: Math.min(...cpuRuns), runs, cpuRuns });
  return r!;
}

const text = () => {
  const raw = Readable.from([gz]);
  return (gz[0] === 0x1f && gz[1] === 0x8b ? raw.pipe(createGunzip()) : raw).setEncoding('utf8');
};
const isGzip = gz[0] === 0x1f && gz[1] === 0x8b;
const csvBytes = await stage('gunzip', () => withText(gz, (text) => text!.length));
await stage('gunzip + UTF-8 check + PapaParse alone (as readCsv sets it up)', () =>
  withText(gz, (text) => {
    if (!text || !isUtf8(text)) throw new Error(`${file} is not UTF-8`);
    let n = 0;
    parseText(text, isGzip, (r) => {
      n += r.data.length;
      return false;
    });
    return n;
  }),
);
await stage('gunzip + PapaParse + readCsv (trim, lines, header)', async () => {
  let n = 0;
  await readCsv(file, gz, MENTION_COLUMNS, new IssueList(), () => void n++);
  return n;
});
const parsed = await stage('parseMonthFile (all of the above + MonthAccumulator)', () => parseMonthFile(file, file, month, lookups, gz));
const rows = parsed.aggregate!.rows;
// The heap a month holds at the end of its fold (the accumulator alive, all else collected):
// text of the month kept alive by a value cut from it and kept would show here.
gc();
const heapBefore = process.memoryUsage().heapUsed;
const folding = new MonthAccumulator(file, month, lookups, new IssueList());
await readCsv(file, gz, MENTION_COLUMNS, new IssueList(), (f, line) => folding.add(f, line));
gc();
const heapHeldBytes = process.memoryUsage().heapUsed - heapBefore;
folding.finish();
const records: string[][] = [];
await readCsv(file, gz, MENTION_COLUMNS, new IssueList(), (f) => void records.push(f));
const agg = await stage('MonthAccumulator alone (records in memory)', () => {
  const acc = new MonthAccumulator(file, month, lookups, new IssueList());
  for (let i = 0; i < records.length; i++) acc.add(records[i]!, i + 2);
  return acc.finish();
});
records.length = 0;
const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const packed = await stage('packAggregate + SHA-256 (the cache entry, as the parser worker writes it)', () => {
  const bytes = packAggregate(agg);
  digest(bytes);
  return bytes;
});
await stage('unpackAggregate (the cache entry read back for scoring)', () => unpackAggregate(packed).contexts.length);
const json = await stage('for comparison: JSON.stringify + UTF-8 + SHA-256 (the entry as JSON, before)', () => {
  const bytes = Buffer.from(JSON.stringify(agg), 'utf8');
  digest(bytes);
  return bytes;
});
await stage('for comparison: JSON.parse (the JSON entry read back, before)', () => (JSON.parse(json.toString('utf8')) as MonthAggregate).contexts.length);
await stage('structuredClone(aggregate) (a hand-off without a cache)', () => structuredClone(agg as MonthAggregate).contexts.length);
// The parser before PapaParse, for comparison (skipped if csv-parse is no longer installed).
if (process.env.EVI_PROFILE_CSV_PARSE !== '0') {
  try {
    const { parse } = await import('csv-parse');
    await stage('for comparison: gunzip + csv-parse alone (the parser before PapaParse)', async () => {
      const parser = parse({ bom: true, trim: true, relax_column_count: true });
      text().pipe(parser);
      let n = 0;
      for await (const _ of parser) n++;
      return n;
    });
  } catch {
    // not installed
  }
}
console.log(JSON.stringify({ file, rows, gzBytes: gz.length, csvBytes, aggregateBytes: packed.length, aggregateJsonBytes: json.length, heapHeldBytes, contexts: agg.contexts.length, stages }));
