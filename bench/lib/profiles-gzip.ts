/**
 * The profiles download's compression as the views step does it (src/build/downloads.ts,
 * ProfilesGzip): each line of a finished build's `profiles.ndjson.gz` parsed and written
 * again as JSON (what the views step does to make a line), then added, and the file's bytes
 * compared with the build's. Prints the process's CPU for the whole loop and the finish, and
 * the time spent in `add` (the build thread's share).
 *
 *   node --import tsx bench/lib/profiles-gzip.ts <build output>/downloads/<month>/profiles.ndjson.gz
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ProfilesGzip } from '../../src/build/downloads.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: bench/lib/profiles-gzip.ts <profiles.ndjson.gz>');
const built = readFileSync(file);
const lines = gunzipSync(built).toString('utf8').split('\n');
if (lines.pop() !== '') throw new Error(`${file} does not end with a line break`);

const c0 = process.cpuUsage();
const t0 = performance.now();
const zip = new ProfilesGzip();
let adding = 0;
for (const line of lines) {
  const text = JSON.stringify(JSON.parse(line));
  const a = performance.now();
  zip.add(text);
  adding += performance.now() - a;
}
const { gz, rows } = await zip.finish();
const c = process.cpuUsage(c0);
const same = gz.equals(built);
console.log(
  `${rows.toLocaleString('en-US')} lines, ${(gz.length / 1e6).toFixed(1)} MB: ${((c.user + c.system) / 1e6).toFixed(2)} s of CPU (all threads: zlib runs on libuv's), ${((performance.now() - t0) / 1000).toFixed(2)} s, of which ${(adding / 1000).toFixed(2)} s in add(); ${same ? 'the same bytes as the build' : 'NOT the bytes of the build'}`,
);
if (!same) process.exit(1);
