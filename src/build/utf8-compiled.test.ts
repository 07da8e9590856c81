import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProbe } from '../../test/lib/node-probe.ts';
import { BUILD_V8_FLAGS } from './build-command.ts';

/**
 * V8's tracing flags are the process's: the probe runs in a process of its own, fresh as a
 * parser worker's thread is, and reads a text as read-csv.ts reads a month's (parseText: ~32
 * KiB pieces cut at line breaks, each checked by controlFree before PapaParse's rows are
 * handed on): rows of a mentions file, one in 29 with an accented name.
 */
const PROBE = (readCsvModule: string) => `
import { parseText } from ${JSON.stringify(readCsvModule)};
const row = 'a-2026-10-000001,2026-10-13,ChatGPT,au,Aerospace,Career Opportunities,career-1,Ithenwyn Brands\\n';
const accented = 'a-2026-10-000002,2026-10-11,Copilot,AU,Aerospace,Leadership,lead-2,Gilándor Mobility\\n';
const text = Buffer.from((row.repeat(28) + accented).repeat(3000));
let pieces = 0;
let plain = 0;
parseText(text, false, (results, oneLine, clean) => {
  pieces++;
  if (clean) plain++;
  return false;
});
console.log(JSON.stringify({ pieces, plain }));
`;

describe('controlFree, compiled', () => {
  it("keeps its word loop's compiled code over a fresh thread's pieces of text: no bailout of it piece after piece", () => {
    // With the build's V8 flags (--single-threaded: V8 compiles on the thread itself).
    const out = runProbe(PROBE(pathToFileURL(join(import.meta.dirname, 'read-csv.ts')).href), [...BUILD_V8_FLAGS, '--trace-deopt']);
    const lines = out.trim().split('\n');
    const result = JSON.parse(lines.at(-1)!) as { pieces: number; plain: number };
    expect(result.pieces).toBeGreaterThan(200);
    // Every piece but the last (its rows are not counted as one per line) holds no control character.
    expect(result.plain).toBe(result.pieces - 1);
    // Each bailout out of the checking functions' optimized code, as V8 traces it.
    const bailouts = lines.filter((l) => /\bdeoptimizing\b.*<JSFunction (controlFree|wordsFree)\b/.test(l));
    expect(bailouts.length, bailouts.slice(0, 3).join('\n')).toBeLessThanOrEqual(5);
  });
});
