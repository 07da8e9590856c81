import { describe, expect, it } from 'vitest';
import { ByteBuilder } from './byte-builder.ts';

describe('ByteBuilder', () => {
  it('fills a buffer it is given from its start, bytes and text alike, and grows past it', () => {
    const start = Buffer.from('left over from before');
    const b = new ByteBuilder(start);
    b.appendBytes(Buffer.from('abc'));
    expect(b.buffer).toBe(start);
    expect(b.view().toString()).toBe('abc');
    const chunk = Buffer.alloc(100, 0x7a);
    b.appendBytes(chunk);
    b.append('é');
    expect(b.buffer).not.toBe(start);
    expect(b.view().equals(Buffer.concat([Buffer.from('abc'), chunk, Buffer.from('é')]))).toBe(true);
    expect(b.buffer.length).toBeGreaterThanOrEqual(b.length);
  });

  it('holds the UTF-8 of everything appended, across its growth', () => {
    // a small start, so that the pieces (ASCII, two-, three- and four-byte characters) make it grow many times
    const b = new ByteBuilder(8);
    const pieces: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const piece = `${i},"Ünïcödé ${'x'.repeat(i % 37)}",東京,😀;`;
      pieces.push(piece);
      b.append(piece);
    }
    const expected = Buffer.from(pieces.join(''));
    expect(b.length).toBe(expected.length);
    expect(b.view().equals(expected)).toBe(true);
  });

  it('is empty before anything is appended', () => {
    const b = new ByteBuilder();
    expect(b.length).toBe(0);
    expect(b.view().length).toBe(0);
    b.append('');
    expect(b.view().length).toBe(0);
  });

  it('truncates to a shorter length, the next append writing from there, and refuses a longer one', () => {
    const b = new ByteBuilder(4);
    b.append('header');
    b.append('\n');
    b.truncate(6);
    expect(b.view().toString()).toBe('header');
    b.append(',é');
    expect(b.view().toString()).toBe('header,é');
    expect(() => b.truncate(b.length + 1)).toThrow(RangeError);
    expect(() => b.truncate(-1)).toThrow(RangeError);
    b.truncate(0);
    expect(b.length).toBe(0);
  });
});
