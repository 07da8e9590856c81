/**
 * The container of the binary views (`search-index.bin`, `search-rankings.bin`): a
 * four-letter magic, a format version (u32), a section count (u32), then per section
 * its byte offset and byte length (u32 each), then the sections, each at a multiple
 * of 4 bytes, little-endian. A reader gets each section as a typed-array view of the
 * file's bytes: nothing is parsed or copied at load. A file may also be read as the
 * chunks it was cut into (the parts of a split file): a section within one chunk is
 * viewed in place, one across chunks is copied (`partEnds` cuts between sections).
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

const align4 = (n: number): number => (n + 3) & ~3;

function magicOf(magic: string): number[] {
  if (magic.length !== 4) throw new Error(`sections: magic "${magic}" is not four letters`);
  return [...magic].map((c) => c.charCodeAt(0));
}

/** The file: `magic`, `version`, then `sections` in order. */
export function writeSections(magic: string, version: number, sections: readonly ArrayBufferView[]): Uint8Array {
  if (!LITTLE_ENDIAN) throw new Error('writeSections: big-endian platforms are not supported');
  const header = 12 + 8 * sections.length;
  let size = header;
  const offsets: number[] = [];
  for (const s of sections) {
    size = align4(size);
    offsets.push(size);
    size += s.byteLength;
  }
  const bytes = new Uint8Array(align4(size));
  bytes.set(magicOf(magic), 0);
  const view = new DataView(bytes.buffer);
  view.setUint32(4, version, true);
  view.setUint32(8, sections.length, true);
  sections.forEach((s, i) => {
    view.setUint32(12 + 8 * i, offsets[i] as number, true);
    view.setUint32(16 + 8 * i, s.byteLength, true);
    bytes.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), offsets[i] as number);
  });
  return bytes;
}

/** Does `bytes` start with `magic`? */
export function hasMagic(bytes: Uint8Array, magic: string): boolean {
  const m = magicOf(magic);
  return bytes.byteLength >= 4 && m.every((c, i) => bytes[i] === c);
}

type View<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

/** A file's bytes: whole, or as consecutive chunks (each starting at a multiple of 4 of the file). */
export type FileBytes = Uint8Array | readonly Uint8Array[];

/** A file kept in parts that a reader fetches one at a time: where each part ends in the file, and a part's bytes. */
export interface FileParts {
  readonly ends: readonly number[];
  read(n: number): Promise<Uint8Array>;
}

/** The total length of `bytes`. */
export const byteLengthOf = (bytes: FileBytes): number => (bytes instanceof Uint8Array ? bytes.byteLength : bytes.reduce((n, c) => n + c.byteLength, 0));

/** Typed-array views need aligned offsets: a chunk whose buffer offset is not a multiple of 4 is copied (a Node Buffer's slice() is a view, so the constructor). */
const aligned = (chunk: Uint8Array): Uint8Array => (chunk.byteOffset % 4 === 0 ? chunk : new Uint8Array(chunk));

/** Reads the sections of a file written by {@link writeSections}; `name` prefixes the errors. */
export class Sections {
  readonly #chunks: Uint8Array[];
  /** Where each chunk starts in the file, then the file's length. */
  readonly #starts: number[];
  readonly #view: DataView;
  readonly #name: string;

  constructor(input: FileBytes, name: string, magic: string, version: number, count: number) {
    if (!LITTLE_ENDIAN) throw new Error(`${name}: big-endian platforms are not supported`);
    let chunks = input instanceof Uint8Array ? [input] : input.filter((c) => c.byteLength > 0);
    // the header and the section table are read from the first chunk
    if (chunks.length > 1 && (chunks[0] as Uint8Array).byteLength < 12 + 8 * count) chunks = [join(chunks)];
    this.#chunks = chunks.map(aligned);
    this.#starts = [0];
    for (const c of this.#chunks) this.#starts.push((this.#starts.at(-1) as number) + c.byteLength);
    const first = this.#chunks[0] ?? new Uint8Array(0);
    if (!hasMagic(first, magic) || first.byteLength < 12 + 8 * count) throw new Error(`${name}: not a ${magic} file`);
    this.#view = new DataView(first.buffer, first.byteOffset, first.byteLength);
    this.#name = name;
    const found = this.#view.getUint32(4, true);
    if (found !== version) throw new Error(`${name}: format version ${found}, expected ${version}`);
    if (this.#view.getUint32(8, true) !== count) throw new Error(`${name}: bad section table`);
  }

  /** The file's length. */
  get byteLength(): number {
    return this.#starts.at(-1) as number;
  }

  /**
   * The file's length as {@link writeSections} makes it from this section table: past the
   * end of the furthest section, rounded up to 4 (a reader that wants no trailing bytes
   * compares it with its input's length).
   */
  get size(): number {
    const count = this.#view.getUint32(8, true);
    let end = 12 + 8 * count;
    for (let i = 0; i < count; i++) end = Math.max(end, this.#view.getUint32(12 + 8 * i, true) + this.#view.getUint32(16 + 8 * i, true));
    return align4(end);
  }

  /** Where section `i` is in the file: its offset and byte length, as the section table says. */
  range(i: number): { offset: number; length: number } {
    return { offset: this.#view.getUint32(12 + 8 * i, true), length: this.#view.getUint32(16 + 8 * i, true) };
  }

  /** Section `i` as a typed array viewing the file's bytes (a copy of them when it spans chunks). */
  get<T>(i: number, Type: View<T>): T {
    const offset = this.#view.getUint32(12 + 8 * i, true);
    const length = this.#view.getUint32(16 + 8 * i, true);
    if (offset % 4 !== 0 || length % Type.BYTES_PER_ELEMENT !== 0 || offset + length > this.byteLength) {
      throw new Error(`${this.#name}: section ${i} out of bounds`);
    }
    // the last chunk starting at or before the offset
    let c = 0;
    while (c + 1 < this.#chunks.length && (this.#starts[c + 1] as number) <= offset) c++;
    const chunk = this.#chunks[c] as Uint8Array;
    const at = offset - (this.#starts[c] as number);
    if (at + length <= chunk.byteLength && at % 4 === 0) return new Type(chunk.buffer, chunk.byteOffset + at, length / Type.BYTES_PER_ELEMENT);
    const copy = new Uint8Array(length);
    let done = 0;
    for (let k = c; done < length; k++) {
      const from = (this.#chunks[k] as Uint8Array).subarray(k === c ? at : 0);
      const n = Math.min(from.byteLength, length - done);
      copy.set(from.subarray(0, n), done);
      done += n;
    }
    return new Type(copy.buffer, 0, length / Type.BYTES_PER_ELEMENT);
  }

  error(message: string): Error {
    return new Error(`${this.#name}: ${message}`);
  }
}

function join(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(byteLengthOf(chunks));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Where to cut `bytes` into parts of at most `partBytes` (each a multiple of 4): the end of
 * each part, at the start of a section where one fits, so that each section of a file written
 * by {@link writeSections} is read in place from its part; at `partBytes` in a section larger
 * than a part, and for any other file. With `lastPartBytes`, the last section (one that a
 * reader takes a piece at a time) goes in parts of that size, after a cut at its start.
 * @example
 * partEnds(bytes, 16 * 1024 * 1024); // each part's end, the last one bytes.byteLength
 */
export function partEnds(bytes: Uint8Array, partBytes: number, lastPartBytes?: number): number[] {
  const size = bytes.byteLength;
  const round = (n: number) => Math.max(4, n - (n % 4));
  const starts = sectionStarts(bytes);
  const last = lastPartBytes === undefined ? size : (starts.at(-1) ?? size);
  const ends: number[] = [];
  let at = 0;
  let s = 0;
  for (;;) {
    const step = at >= last ? round(lastPartBytes ?? partBytes) : Math.min(round(partBytes), last - at);
    if (size - at <= step) break;
    while (s < starts.length && (starts[s] as number) <= at) s++;
    let end = at + step;
    // the furthest section start within reach
    let t = s;
    while (t < starts.length && (starts[t] as number) <= at + step) t++;
    if (t > s) end = starts[t - 1] as number;
    ends.push(end);
    at = end;
  }
  ends.push(size);
  return ends;
}

/** The sections' offsets when `bytes` holds a consistent section table, else none. */
function sectionStarts(bytes: Uint8Array): number[] {
  if (bytes.byteLength < 12) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(8, true);
  const header = 12 + 8 * count;
  if (header > bytes.byteLength) return [];
  let end = align4(header);
  const starts: number[] = [];
  for (let i = 0; i < count; i++) {
    const offset = view.getUint32(12 + 8 * i, true);
    const length = view.getUint32(16 + 8 * i, true);
    if (offset % 4 !== 0 || offset < end || offset + length > bytes.byteLength) return [];
    starts.push(offset);
    end = offset + length;
  }
  return align4(end) === bytes.byteLength ? starts : [];
}

/**
 * Strings into one pool of UTF-16 code units (stored one byte each when all fit):
 * per string its (start, end) in the pool; equal strings share one range. Read
 * back with `PoolStrings` (strings.ts).
 */
export class PoolWriter {
  readonly #units: number[] = [];
  readonly #at = new Map<string, number>();

  ranges(strings: { readonly length: number; get(i: number): string }): Uint32Array {
    const out = new Uint32Array(2 * strings.length);
    for (let i = 0; i < strings.length; i++) {
      const s = strings.get(i);
      let start = this.#at.get(s);
      if (start === undefined) {
        start = this.#units.length;
        this.#at.set(s, start);
        for (let c = 0; c < s.length; c++) this.#units.push(s.charCodeAt(c));
      }
      out[2 * i] = start;
      out[2 * i + 1] = start + s.length;
    }
    return out;
  }

  /**
   * Strings laid end to end, none shared: where each starts, then where the last ends
   * (read back with `PoolStrings`' stride 1); half the bytes of ranges.
   */
  ends(strings: { readonly length: number; get(i: number): string }): Uint32Array {
    const out = new Uint32Array(strings.length + 1);
    out[0] = this.#units.length;
    for (let i = 0; i < strings.length; i++) {
      const s = strings.get(i);
      for (let c = 0; c < s.length; c++) this.#units.push(s.charCodeAt(c));
      out[i + 1] = this.#units.length;
    }
    return out;
  }

  /** The pool: one byte per code unit when every one is below 256 (Latin-1), else two. */
  pool(): Uint8Array | Uint16Array {
    return this.#units.every((u) => u < 256) ? Uint8Array.from(this.#units) : Uint16Array.from(this.#units);
  }

  /** The pool as two sections, the narrow (u8) and the wide (u16) one, one of them empty. */
  poolSections(): [Uint8Array, Uint16Array] {
    const pool = this.pool();
    return pool instanceof Uint8Array ? [pool, new Uint16Array(0)] : [new Uint8Array(0), pool];
  }
}
