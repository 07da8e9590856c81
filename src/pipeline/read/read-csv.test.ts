import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IssueList } from '../../core/data-error.ts';
import { CONTROL_RE } from '../../core/schemas/rows.ts';
import { readCsv, readCsvStream, readText } from './read-csv.ts';

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

describe('readCsv: the synchronous way and the streaming way', () => {
  type Read = (issues: IssueList, onRecord: (f: string[], l: number, plain: boolean) => void) => void | Promise<void>;
  // Records said to be plain (no control character in any field) that are not.
  const notPlain: string[][] = [];
  let plains = 0;
  const collect = async (read: Read) => {
    const issues = new IssueList();
    const rows: [string[], number][] = [];
    await read(issues, (f, l, plain) => {
      rows.push([[...f], l]);
      if (plain) plains++;
      if (plain && f.some((v) => CONTROL_RE.test(v))) notPlain.push([...f]);
    });
    return { rows, issues: issues.items };
  };
  const cols = ['a', 'b', 'c'];
  // Fields with the characters that matter to a CSV reader, non-ASCII text among them.
  const field = fc.oneof(
    fc.stringMatching(/^[a-z0-9 ]{0,12}$/),
    fc.constantFrom('', ' x ', 'é', 'Zürich, AG', 'a "b"', '\u00e6\u00f8', '日本', '😀'),
    fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', 'é', '\t'), maxLength: 8 }),
    // Control characters: C0, DEL, C1 (two bytes in UTF-8, the first of them that of 'é' and others).
    fc.constantFrom('a\u0007b', '\u007f', 'x\u0085', '\u009f', '\u0080y', '\u00a0'),
  );
  const quote = (v: string, always: boolean) => (always || /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const row = fc.tuple(fc.array(field, { minLength: 1, maxLength: 4 }), fc.boolean(), fc.integer({ min: 0, max: 30 }));
  const file = fc.record({
    header: fc.constantFrom('a,b,c', 'c,a,b', '\uFEFFa,b,c', 'a,b', 'A, B ,C'),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
    rows: fc.array(row, { maxLength: 60 }),
    // Now and then a raw line the generator does not quote: broken quoting, stray blank lines.
    raw: fc.array(fc.tuple(fc.nat(), fc.constantFrom('1,"2,3', '', ' ', 'x,"y"z,1', '"a""', ',,', 'p,q,r')), { maxLength: 3 }),
    trailingEol: fc.boolean(),
    piece: fc.integer({ min: 1, max: 64 }),
  });

  it('give the same records, lines and messages, for any piece size, plain and gzipped; a record said to be plain holds no control character', async () => {
    await fc.assert(
      fc.asyncProperty(file, async (f) => {
        const lines = f.rows.map(([fields, always]) => fields.map((v) => quote(v, always)).join(','));
        for (const [at, raw] of f.raw) lines.splice(at % (lines.length + 1), 0, raw);
        const text = Buffer.from(f.header + f.eol + lines.join(f.eol) + (f.trailingEol ? f.eol : ''));
        for (const data of [text, gzipSync(text)]) {
          const gz = data !== text;
          const stream = await collect((issues, on) => readCsvStream('f.csv', data, cols, issues, on));
          expect(await collect((issues, on) => readText('f.csv', text, gz, cols, issues, on, f.piece))).toEqual(stream);
          expect(await collect((issues, on) => readCsv('f.csv', data, cols, issues, on))).toEqual(stream);
        }
      }),
      { numRuns: 300 },
    );
    expect(notPlain).toEqual([]);
    expect(plains).toBeGreaterThan(0);
  });

  it('say which records are plain: none in a piece with a control character, the others when each of their line breaks ends a row', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `${i},Zürich ${i},"c, ${i}"`);
    rows[1500] = '1500,bell\u0007,x';
    rows[6200] = '6200,"two\nlines",x';
    const plainAt: boolean[] = [];
    await readCsv('f.csv', gzipSync('a,b,c\n' + rows.join('\n') + '\n'), cols, new IssueList(), (f, _l, plain) => (plainAt[Number(f[0])] = plain));
    expect(plainAt.length).toBe(10_000);
    expect(plainAt[1500]).toBe(false);
    expect(plainAt[6200]).toBe(false);
    // Ten pieces of ~32 KiB: the one with the bell, the one with the line break and the last one
    // (never said to be plain) are not plain; the others are.
    const plain = plainAt.filter(Boolean).length;
    expect(plain).toBeGreaterThan(5000);
    expect(plain).toBeLessThan(8000);
    expect(plainAt[0]).toBe(true);
  });

  it('read a gzip file of several members (its trailer gives only the last one\'s size) alike', async () => {
    const head = 'a,b,c\n' + Array.from({ length: 3000 }, (_, i) => `${i},é${i},${i % 7}\n`).join('');
    const data = Buffer.concat([gzipSync(head), gzipSync('9,9,9\n')]);
    const stream = await collect((issues, on) => readCsvStream('f.csv', data, cols, issues, on));
    expect(stream.rows.length).toBe(3001);
    expect(await collect((issues, on) => readCsv('f.csv', data, cols, issues, on))).toEqual(stream);
  });

  it('give the same messages for bytes that are not UTF-8 and a damaged gzip file', async () => {
    const latin1 = Buffer.from('a,b,c\n1,Z\xfcrich,3\n', 'latin1');
    const whole = gzipSync('a,b,c\n' + Array.from({ length: 5000 }, (_, i) => `${i},${i * 7},${i % 13}\n`).join(''));
    const cut = whole.subarray(0, whole.length >> 1);
    for (const data of [latin1, gzipSync(latin1), cut]) {
      const stream = await collect((issues, on) => readCsvStream('f.csv', data, cols, issues, on));
      expect(stream.issues.length).toBe(1);
      expect(await collect((issues, on) => readCsv('f.csv', data, cols, issues, on))).toEqual(stream);
    }
  });
});
