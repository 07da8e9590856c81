/**
 * The container of the binary views (`search-index.bin`, `search-rankings.bin`): a
 * four-letter magic, a format version (u32), a section count (u32), then per section
 * its byte offset and byte length (u32 each), then the sections, each at a multiple
 * of 4 bytes, little-endian. A reader gets each section as a typed-array view of the
 * file's bytes: nothing is parsed or copied at load.
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

/** Reads the sections of a file written by {@link writeSections}; `name` prefixes the errors. */
export class Sections {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #name: string;

  constructor(input: Uint8Array, name: string, magic: string, version: number, count: number) {
    if (!LITTLE_ENDIAN) throw new Error(`${name}: big-endian platforms are not supported`);
    if (!hasMagic(input, magic) || input.byteLength < 12 + 8 * count) throw new Error(`${name}: not a ${magic} file`);
    // typed-array views need aligned offsets: a buffer shared with other data may not be
    // (copied with the Uint8Array constructor: a Node Buffer's slice() is a view, not a copy)
    this.#bytes = input.byteOffset % 4 === 0 ? input : new Uint8Array(input);
    this.#view = new DataView(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.byteLength);
    this.#name = name;
    const found = this.#view.getUint32(4, true);
    if (found !== version) throw new Error(`${name}: format version ${found}, expected ${version}`);
    if (this.#view.getUint32(8, true) !== count) throw new Error(`${name}: bad section table`);
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

  /** Section `i` as a typed array viewing the file's bytes. */
  get<T>(i: number, Type: View<T>): T {
    const offset = this.#view.getUint32(12 + 8 * i, true);
    const length = this.#view.getUint32(16 + 8 * i, true);
    if (offset % 4 !== 0 || length % Type.BYTES_PER_ELEMENT !== 0 || offset + length > this.#bytes.byteLength) {
      throw new Error(`${this.#name}: section ${i} out of bounds`);
    }
    return new Type(this.#bytes.buffer, this.#bytes.byteOffset + offset, length / Type.BYTES_PER_ELEMENT);
  }

  error(message: string): Error {
    return new Error(`${this.#name}: ${message}`);
  }
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
