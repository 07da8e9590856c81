/**
 * Where one month's parse allocates: V8's sampling heap profiler over parseMonthFile and the
 * cache entry (packAggregate), collected objects included, summed by function:
 *
 *   node --import tsx bench/lib/ingest-alloc.ts DATA_DIR MONTH_FILE [N=18]
 *
 * The month is parsed once first, unrecorded, so that the recorded parse runs optimised code.
 * Prints the sampled total and the N functions that allocated most (self size: what the
 * function itself allocated, not its callees); builtins such as `push` show as themselves.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { packAggregate } from '../../src/build/aggregate-file.ts';
import { parseMonthFile } from '../../src/build/parse-month.ts';
import { readLookups } from './lookups.ts';

const [dataDir, file, top = '18'] = process.argv.slice(2);
if (!dataDir || !file) {
  console.error('usage: ingest-alloc.ts DATA_DIR MONTH_FILE [N]');
  process.exit(2);
}
const lookups = await readLookups(dataDir);
const month = /(\d{4}-\d{2})\.csv/.exec(file)![1]!;
const data = readFileSync(file);
await parseMonthFile(file, file, month, lookups, data);

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}
const session = new Session();
session.connect();
// Every 16 KiB allocated on average; objects the collector freed stay in the profile.
await session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as object);
const parsed = await parseMonthFile(file, file, month, lookups, data);
if (!parsed.aggregate) throw new Error(`${file}: ${parsed.issues[0]?.message}`);
packAggregate(parsed.aggregate);
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
session.disconnect();

const bySite = new Map<string, number>();
let total = 0;
const walk = (n: Node) => {
  const where = n.callFrame.url ? ` ${n.callFrame.url.split('/').slice(-2).join('/')}` : '';
  const site = `${n.callFrame.functionName || '(anonymous)'}${where}`;
  bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
  total += n.selfSize;
  n.children.forEach(walk);
};
walk(profile.head);
console.log(`${file}: ${parsed.aggregate.rows} rows, ${(total / 2 ** 20).toFixed(0)} MiB allocated (sampled)`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
  console.log(`${(bytes / 2 ** 20).toFixed(1).padStart(7)} MiB ${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${site}`);
