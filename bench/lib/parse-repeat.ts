/**
 * One or more month files parsed and folded N times in one process and one thread, as a parser
 * worker does (parseMonthFile keeping its memory between months, then the JSON of the cache
 * entry), for A/B runs of whole processes between two checkouts:
 *
 *   node --import tsx bench/lib/parse-repeat.ts DATA_DIR MONTH[,MONTH…] [N=2]
 *
 * (or bundled first, `npx esbuild bench/lib/parse-repeat.ts --bundle --platform=node
 * --format=esm --external:papaparse --outfile=FILE.mjs`, then `node FILE.mjs …`, so that
 * tsx's start stays out of the figures). DATA_DIR holds countries.csv, industries.csv and
 * mentions/MONTH.csv.gz. Prints, per parse, the first 16 hex digits of the aggregate JSON's
 * SHA-256 (two checkouts must agree), the parse's and the JSON's seconds and the JSON's
 * length; then this process's CPU seconds.
 *
 * With EVI_BENCH_STORE=1, each month is the parser worker's whole job instead (runMonthJob:
 * read, fold, the cache entry's bytes written to a temporary folder, removed at the end), and
 * the digest is the entry's bytes' (two checkouts of one entry format must agree).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepBetweenMonths, parseMonthFile, runMonthJob } from '../../src/build/parse-month.ts';
import { readLookups } from './lookups.ts';

const [dir, monthList, n = '2'] = process.argv.slice(2);
if (!dir || !monthList) {
  console.error('usage: parse-repeat.ts DATA_DIR MONTH[,MONTH…] [N]');
  process.exit(2);
}
const lookups = await readLookups(dir);
// A parser worker keeps the gunzip buffer and the accumulator's arrays from one month to the next.
keepBetweenMonths();
const store = process.env.EVI_BENCH_STORE ? mkdtempSync(join(tmpdir(), 'evi-parse-repeat-')) : null;
for (let k = 0; k < Number(n); k++) {
  for (const month of monthList.split(',')) {
    if (store) {
      const path = join(dir, 'mentions', `${month}.csv.gz`);
      const entry = { path: join(store, `${month}.bin`), key: month };
      const t = performance.now();
      const outcome = await runMonthJob({ path, display: month, month, lookups, store: entry });
      const seconds = (performance.now() - t) / 1000;
      if (!outcome.stored) throw new Error(`${month}: ${outcome.issues.length} problem(s), the first: ${outcome.issues[0]?.message}`);
      const hash = createHash('sha256').update(readFileSync(entry.path)).digest('hex').slice(0, 16);
      console.log(`${hash} ${month} job ${seconds.toFixed(3)} s (parse ${outcome.seconds.toFixed(3)} s), ${outcome.rows} rows`);
      continue;
    }
    const data = readFileSync(join(dir, 'mentions', `${month}.csv.gz`));
    const parsed = await parseMonthFile(month, month, month, lookups, data);
    if (!parsed.aggregate) throw new Error(`${month}: ${parsed.issues.length} problem(s), the first: ${parsed.issues[0]?.message}`);
    const t = performance.now();
    const json = JSON.stringify(parsed.aggregate);
    const seconds = (performance.now() - t) / 1000;
    const hash = createHash('sha256').update(json).digest('hex').slice(0, 16);
    console.log(`${hash} ${month} parse ${parsed.seconds.toFixed(3)} s, JSON ${seconds.toFixed(3)} s, ${json.length} characters`);
  }
}
if (store) rmSync(store, { recursive: true, force: true });
const cpu = process.cpuUsage();
console.log(`CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`);
