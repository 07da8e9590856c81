import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IssueList } from '../../core/data-error.ts';
import { CONTROL_RE } from '../../core/schemas/rows.ts';
import { readCsv } from './read-csv.ts';
import { controlFree } from './utf8.ts';

/** Latin-1 bytes of a string whose characters are all below U+0100. */
const latin1 = (s: string) => Buffer.from(s, 'latin1');

async function read(data: Buffer) {
  const issues = new IssueList();
  const rows: string[][] = [];
  await readCsv('m.csv', data, ['a', 'b'], issues, (f) => rows.push(f));
  return { rows, issues: issues.items };
}

describe('strict UTF-8 input (data-and-rules §1)', () => {
  it('reads UTF-8 with and without a byte order mark, accents and emoji included, plain and gzip', async () => {
    const text = 'a,b\nSociété Générale,Zürich 🚀\n';
    for (const data of [Buffer.from(text), Buffer.from('\uFEFF' + text), gzipSync(Buffer.from(text))]) {
      const r = await read(data);
      expect(r.issues).toEqual([]);
      expect(r.rows).toEqual([['Société Générale', 'Zürich 🚀']]);
    }
  });

  it('keeps a character cut across stream chunks intact', async () => {
    // 70,000 rows of 4-byte characters: the gunzip stream hands them over in 16 KiB chunks.
    const text = 'a,b\n' + 'x,🚀é\n'.repeat(70_000);
    const r = await read(gzipSync(Buffer.from(text)));
    expect(r.issues).toEqual([]);
    expect(r.rows.length).toBe(70_000);
    expect(r.rows.every((row) => row[1] === '🚀é')).toBe(true);
  });

  it('stops a Latin-1 file at the first accented byte with line, column, byte offset and the likely encoding', async () => {
    const r = await read(latin1('a,b\nplain,row\nSociété Latine,x\n'));
    expect(r.issues).toHaveLength(1);
    const [issue] = r.issues;
    expect(issue).toMatchObject({ file: 'm.csv', line: 3, column: 5 });
    // "a,b\n" (4) + "plain,row\n" (10) + "Soci" (4) = byte 18.
    expect(issue!.message).toContain('byte offset 18');
    expect(issue!.message).toMatch(/Latin-1/);
  });

  it('names Windows-1252 for its curly quotes and dashes, also inside gzip', async () => {
    const bytes = Buffer.concat([Buffer.from('a,b\n'), Buffer.from([0x93]), Buffer.from('quoted'), Buffer.from([0x94]), Buffer.from(',x\n')]);
    const r = await read(gzipSync(bytes));
    expect(r.issues[0]).toMatchObject({ line: 2, column: 1 });
    expect(r.issues[0]!.message).toMatch(/Windows-1252/);
  });

  it('names UTF-16 from its byte order mark', async () => {
    const r = await read(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n', 'utf16le')]));
    expect(r.issues[0]!.message).toMatch(/UTF-16/);
  });

  it('rejects overlong forms, surrogates and a sequence cut by the end of the file', async () => {
    for (const bad of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const r = await read(Buffer.concat([Buffer.from('a,b\nx,'), Buffer.from(bad)]));
      expect(r.issues, bad.join(' ')).toHaveLength(1);
      expect(r.issues[0]!.message, bad.join(' ')).toContain('byte offset 6');
    }
  });
});

describe('controlFree', () => {
  // The verdict byte by byte: C0 but \n, DEL, and C2 80 to C2 9F (C1 in UTF-8).
  const reference = (b: Uint8Array, start: number, end: number) => {
    for (let i = start; i < end; i++) {
      const c = b[i]!;
      if ((c < 0x20 && c !== 0x0a) || c === 0x7f || (c === 0xc2 && i + 1 < end && b[i + 1]! >= 0x80 && b[i + 1]! <= 0x9f)) return false;
    }
    return true;
  };

  it('agrees with a byte-by-byte check at any offset and length, the words read four bytes at a time', () => {
    const bytes = [0x0a, 0x20, 0x41, 0x7e, 0x7f, 0x1f, 0x00, 0x09, 0x0d, 0xc2, 0x80, 0x9f, 0xa0, 0xc3, 0xbf, 0xff];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...bytes), { maxLength: 40 }), fc.nat(7), fc.nat(40), fc.nat(40), (values, pad, a, b) => {
        const buf = new Uint8Array(new ArrayBuffer(pad + values.length + 8), pad, values.length);
        buf.set(values);
        const start = Math.min(a, b, values.length);
        const end = Math.min(Math.max(a, b), values.length);
        expect(controlFree(buf, start, end)).toBe(reference(buf, start, end));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds a control character anywhere in a long text, and the text of CONTROL_RE with \\n left out', () => {
    const text = Buffer.from('Société Générale, 日本 😀 plain text\n'.repeat(500));
    expect(controlFree(text, 0, text.length)).toBe(true);
    for (const ch of ['\u0000', '\t', '\r', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f']) {
      for (const at of [0, 1, 2, 3, 4097, text.length - 1]) {
        const bad = Buffer.concat([text.subarray(0, at), Buffer.from(ch), text.subarray(at)]);
        expect(controlFree(bad, 0, bad.length), `${JSON.stringify(ch)} at ${at}`).toBe(!CONTROL_RE.test(bad.toString('utf8').replaceAll('\n', '')));
      }
    }
  });
});
