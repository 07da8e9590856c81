import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { IssueList } from '../core/data-error.ts';
import { readCsv } from './read-csv.ts';

async function read(text: string | Buffer, columns = ['a', 'b', 'c']) {
  const issues = new IssueList();
  const rows: [string[], number][] = [];
  await readCsv('f.csv', Buffer.isBuffer(text) ? text : Buffer.from(text), columns, issues, (f, l) => rows.push([f, l]));
  return { rows, issues: issues.items.map((i) => `${i.line ?? '-'}: ${i.message}`) };
}

describe('readCsv', () => {
  it('counts lines across quoted newlines, blank lines and CRLF, and trims fields', async () => {
    const r = await read('\uFEFFa,b,c\r\n1, two ,3\r\n\r\n"x\ny",2,3\r\n4,5,6\r\n');
    expect(r.issues).toEqual([]);
    expect(r.rows).toEqual([
      [['1', 'two', '3'], 2],
      [['x\ny', '2', '3'], 4],
      [['4', '5', '6'], 6],
    ]);
  });

  it('maps columns given in another order', async () => {
    expect((await read('c,a,b\n3,1,2\n')).rows).toEqual([[['1', '2', '3'], 2]]);
  });

  it('reads gzip by its magic bytes', async () => {
    expect((await read(gzipSync('a,b,c\n1,2,3\n'))).rows).toEqual([[['1', '2', '3'], 2]]);
  });

  it('reports wrong headers, field counts, bad quoting, bad gzip and empty files with their lines', async () => {
    expect((await read('a,b\n1,2\n')).issues).toEqual(['1: wrong columns: expected "a,b,c"; missing "c"']);
    expect((await read('a,b,c\n1,2\n1,2,3,4\n')).issues).toEqual(['2: expected 3 fields, found 2', '3: expected 3 fields, found 4']);
    expect((await read('a,b,c\n1,"2,3\n')).issues[0]).toMatch(/^2: malformed CSV/);
    expect((await read(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).issues[0]).toMatch(/not a valid gzip file/);
    expect((await read('')).issues).toEqual(['1: empty file: expected the header "a,b,c"']);
  });
});
