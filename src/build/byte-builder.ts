/**
 * Bytes appended into one buffer that doubles when it is full. What a build assembles into a
 * file as it goes (a month's leaderboards CSV, a shard's records: `append`, as UTF-8) is kept
 * as bytes, not as strings that live until the file is whole. Such strings, ~20 MB a month
 * at the reference scale, were copied by each young-generation collection and promoted, and
 * joining them flattened the whole text once more (BENCHMARKS.md, "Build: the leaderboards
 * CSV and the record shards as bytes, and fresh memory"). A month's gunzipped text is
 * gathered the same way (`appendBytes`, read-csv.ts), into a buffer kept from one month to
 * the next, and each rendered page's bytes into one kept from page to page (render-share.ts
 * `pageBytes`). Each piece of text is encoded alone: a surrogate pair must not be split between
 * two appends.
 */
export class ByteBuilder {
  #buf: Buffer;
  #at = 0;

  /** `start`: the size of the first buffer, or a buffer to fill from its start (its bytes are overwritten). */
  constructor(start: number | Buffer = 1 << 16) {
    this.#buf = typeof start === 'number' ? Buffer.allocUnsafeSlow(start) : start;
  }

  get length(): number {
    return this.#at;
  }

  /** The whole buffer the bytes are in (their first `length`; it may be longer), to keep for a later builder. */
  get buffer(): Buffer {
    return this.#buf;
  }

  append(text: string): void {
    // a UTF-16 code unit is at most 3 bytes of UTF-8
    this.#room(3 * text.length);
    this.#at += this.#buf.write(text, this.#at);
  }

  appendBytes(bytes: Uint8Array): void {
    this.#room(bytes.length);
    this.#buf.set(bytes, this.#at);
    this.#at += bytes.length;
  }

  /** The bytes so far: a view of the builder's buffer, valid until the next append. */
  view(): Buffer {
    return this.#buf.subarray(0, this.#at);
  }

  /** Keeps only the first `n` bytes (0 <= n <= length): the next append writes from there. */
  truncate(n: number): void {
    if (!(n >= 0 && n <= this.#at)) throw new RangeError(`cannot truncate ${this.#at} bytes to ${n}`);
    this.#at = n;
  }

  /** Room for `n` more bytes: a buffer twice as large (at least), the bytes so far copied into it. */
  #room(n: number): void {
    if (this.#at + n <= this.#buf.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.#buf.length, this.#at + n));
    this.#buf.copy(bigger, 0, 0, this.#at);
    this.#buf = bigger;
  }
}
