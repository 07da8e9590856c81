import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { IssueList } from '../core/data-error.ts';
import { readLookups } from '../../bench/lib/lookups.ts';
import { keepBetweenMonths, parseMonthFile } from './parse-month.ts';
import { readCsv, readCsvStream } from './read-csv.ts';

const data = join(import.meta.dirname, '../../data');

afterEach(() => keepBetweenMonths(false));

/** Records and messages of one read. */
async function read(how: typeof readCsv, bytes: Buffer) {
  const issues = new IssueList();
  const rows: [string[], number][] = [];
  await how('f.csv.gz', bytes, ['a', 'b', 'c'], issues, (f, line) => rows.push([[...f], line]));
  return { rows, issues: issues.items };
}

describe('a parser worker keeps the memory of one month for the next', () => {
  it('each sample month parsed after the others, on what they left, gives the aggregate it gives alone', async () => {
    const lookups = await readLookups(data);
    const names = readdirSync(join(data, 'mentions'));
    expect(names.length).toBeGreaterThan(1);
    const parse = (name: string) => parseMonthFile(join(data, 'mentions', name), name, name.slice(0, 7), lookups);
    const alone = new Map<string, unknown>();
    for (const name of names) alone.set(name, (await parse(name)).aggregate);
    keepBetweenMonths();
    // Forwards, then backwards: each month starts on a larger or a smaller month's leftovers.
    for (const name of [...names, ...names.slice().reverse()]) {
      const parsed = await parse(name);
      expect(parsed.issues, name).toEqual([]);
      expect(parsed.aggregate, name).toEqual(alone.get(name));
    }
  });

  it('a file read into the kept text buffer, larger or smaller than the one before, damaged or not, reads as the streaming way reads it', async () => {
    const csv = (n: number, tag: string) => 'a,b,c\n' + Array.from({ length: n }, (_, i) => `${i},${tag} é ${i},"${i % 7}, x"\n`).join('');
    const big = gzipSync(csv(40_000, 'big'));
    const small = gzipSync(csv(300, 'small'));
    // Two members: the trailer gives the size of the second one only, so the buffer must grow.
    const members = Buffer.concat([gzipSync(csv(20_000, 'first')), gzipSync('9,9,9\n')]);
    const cut = big.subarray(0, big.length >> 1);
    const latin1 = gzipSync(Buffer.from('a,b,c\n1,Z\xfcrich,3\n', 'latin1'));
    keepBetweenMonths();
    for (const bytes of [small, big, small, members, cut, big, latin1, members, small]) {
      const stream = await read(readCsvStream, bytes);
      expect(stream.rows.length + stream.issues.length).toBeGreaterThan(0);
      expect(await read(readCsv, bytes)).toEqual(stream);
    }
  });

  it("a small file's text, which Node may cut from its shared pool of small buffers, is kept without the bytes after it", async () => {
    const tiny = (tag: string) => gzipSync(`a,b,c\n1,${tag},3\n`);
    keepBetweenMonths();
    const first = await read(readCsv, tiny('x'));
    // Cut from the pool right after the first file's text, if the pool had room for it.
    const neighbour = Buffer.from('the bytes after it');
    // Longer than the first: it must not be written past the first's text.
    const second = await read(readCsv, tiny('y'.repeat(200)));
    expect(neighbour.toString()).toBe('the bytes after it');
    expect(first.rows).toEqual([[['1', 'x', '3'], 2]]);
    expect(second.rows).toEqual([[['1', 'y'.repeat(200), '3'], 2]]);
  });
});
