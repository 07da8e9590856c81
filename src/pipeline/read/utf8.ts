/**
 * Strict UTF-8 for the data files (data-and-rules §1): a stream check that passes valid bytes
 * through and stops at the first invalid sequence with its line, column and offset, and a guess
 * of the file's encoding. Node's native `isUtf8` checks each chunk; the slow scan only locates an error.
 */
import { isUtf8 } from 'node:buffer';
import { Transform } from 'node:stream';

export class EncodingError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly offset: number,
    message: string,
  ) {
    super(message);
    this.name = 'EncodingError';
  }
}

/** Length of the valid UTF-8 prefix of `b`, and whether the rest is a cut sequence. */
function scan(b: Uint8Array): { valid: number; incomplete: boolean } {
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number, min: number;
    if (c >= 0xc2 && c <= 0xdf) (need = 1), (min = 0x80);
    else if (c >= 0xe0 && c <= 0xef) (need = 2), (min = 0x800);
    else if (c >= 0xf0 && c <= 0xf4) (need = 3), (min = 0x10000);
    else return { valid: i, incomplete: false };
    if (i + need >= n) {
      // Fewer bytes left than the sequence needs: a cut sequence if all present are continuations.
      for (let k = i + 1; k < n; k++) if ((b[k]! & 0xc0) !== 0x80) return { valid: i, incomplete: false };
      return { valid: i, incomplete: true };
    }
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const d = b[i + k]!;
      if ((d & 0xc0) !== 0x80) return { valid: i, incomplete: false };
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return { valid: i, incomplete: false };
    i += need + 1;
  }
  return { valid: n, incomplete: false };
}

/** What a file that is not UTF-8 most likely is, from its first bytes and the bad byte. */
export function guessEncoding(head: Uint8Array, bad: number): string {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return 'UTF-16 (it starts with a UTF-16 byte order mark)';
  if (bad >= 0x80 && bad <= 0x9f) return 'Windows-1252 (byte 0x' + bad.toString(16).toUpperCase() + ' is a Windows-1252 character such as a curly quote or a dash)';
  return 'Latin-1 (ISO-8859-1) or Windows-1252 (byte 0x' + bad.toString(16).toUpperCase() + ' is an accented letter there)';
}

/** A pass-through stream that fails with an {@link EncodingError} at the first non-UTF-8 byte; a BOM is fine. */
export function utf8Check(): Transform {
  let carry: Buffer = Buffer.alloc(0);
  let offset = 0; // bytes passed on so far
  let line = 1;
  let lineStart = 0; // offset where the current line starts
  let head: Uint8Array | null = null;

  // Line breaks found by indexOf (memchr), not byte by byte.
  const count = (b: Uint8Array, upto: number) => {
    for (let i = b.indexOf(0x0a); i !== -1 && i < upto; i = b.indexOf(0x0a, i + 1)) {
      line++;
      lineStart = offset + i + 1;
    }
  };

  const fail = (b: Uint8Array, at: number): EncodingError => {
    count(b, at);
    const where = offset + at;
    const column = new TextDecoder().decode(b.subarray(Math.max(0, lineStart - offset), at)).length + 1;
    return new EncodingError(line, column, where, `not valid UTF-8 at byte offset ${where}: the file looks like ${guessEncoding(head ?? b, b[at]!)}. Save it as UTF-8 and build again.`);
  };

  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const b = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      head ??= b.subarray(0, 4);
      let end = b.length;
      // Hold back a possibly cut sequence at the end.
      let k = end - 1;
      while (k >= 0 && k >= end - 3 && (b[k]! & 0xc0) === 0x80) k--;
      if (k >= 0 && b[k]! >= 0xc0) end = k;
      const body = b.subarray(0, end);
      if (!isUtf8(body)) {
        const { valid } = scan(body);
        return done(fail(body, valid));
      }
      count(body, body.length);
      offset += body.length;
      carry = Buffer.from(b.subarray(end));
      done(null, body);
    },
    flush(done) {
      if (carry.length === 0) return done();
      const { valid } = scan(carry);
      if (valid === carry.length) return done(null, carry);
      // A sequence cut by the end of the file is as invalid as a wrong byte.
      done(fail(carry, valid));
    },
  });
}

/** Whether byte `c` is a C0 control character other than \n, or DEL. */
function controlByte(c: number): boolean {
  return (c < 0x20 && c !== 0x0a) || c === 0x7f;
}

/**
 * Whether the UTF-8 text `b[start, end)` holds no control character but \n (C0, DEL, C1: what a
 * mention field may not hold). Four bytes at a time ({@link wordsFree}); a C1 character is C2
 * then 80 to 9F, found by the native `indexOf`.
 */
export function controlFree(b: Uint8Array, start: number, end: number): boolean {
  let i = start;
  for (; i < end && ((b.byteOffset + i) & 3) !== 0; i++) if (controlByte(b[i]!)) return false;
  const n = (end - i) >> 2;
  if (n > 0 && !wordsFree(new Int32Array(b.buffer, b.byteOffset + i, n))) return false;
  for (i += n << 2; i < end; i++) if (controlByte(b[i]!)) return false;
  const text = b.subarray(start, end);
  for (let j = text.indexOf(0xc2); j !== -1 && j + 1 < text.length; j = text.indexOf(0xc2, j + 1)) if ((text[j + 1]! & 0xe0) === 0x80) return false;
  return true;
}

/** Whether no byte of `words` is below 0x20 but \n, or is 0x7f: carry-free arithmetic on each word. */
function wordsFree(words: Int32Array): boolean {
  for (let k = 0; k < words.length; k++) {
    const x = words[k]!;
    // 0x80 in each byte of x that is exactly 0x0a (\n) ...
    const z = x ^ 0x0a0a0a0a;
    const nl = ~(((z & 0x7f7f7f7f) + 0x7f7f7f7f) | z | 0x7f7f7f7f);
    // ... those bytes made 0x2a, then 0x80 in each byte below 0x20 ...
    const y = x | (nl >>> 2);
    const low = ~(((y & 0x7f7f7f7f) + 0x60606060) | y) & 0x80808080;
    // ... and in each byte that is exactly 0x7f.
    const d = x ^ 0x7f7f7f7f;
    const del = ~(((d & 0x7f7f7f7f) + 0x7f7f7f7f) | d | 0x7f7f7f7f);
    if (low | del) return false;
  }
  return true;
}
