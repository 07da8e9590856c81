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
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepBetweenMonths, parseMonthFile } from '../../src/build/parse-month.ts';
import { readLookups } from './lookups.ts';

const [dir, monthList, n = '2'] = process.argv.slice(2);
if (!dir || !monthList) {
  console.error('usage: parse-repeat.ts DATA_DIR MONTH[,MONTH…] [N]');
  process.exit(2);
}
const lookups = await readLookups(dir);
// A parser worker keeps the gunzip buffer and the accumulator's arrays from one month to the next.
keepBetweenMonths();
for (let k = 0; k < Number(n); k++) {
  for (const month of monthList.split(',')) {
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
const cpu = process.cpuUsage();
console.log(`CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`);
