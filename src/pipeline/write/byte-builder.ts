/**
 * Bytes appended into one buffer that doubles when full: a file assembled piece by piece kept
 * as bytes rather than strings. A surrogate pair must not be split between two appends.
 */
export class ByteBuilder {
  #buf: Buffer;
  #at = 0;

  /** `start`: the first buffer's size, or a buffer to fill from its start. */
  constructor(start: number | Buffer = 1 << 16) {
    this.#buf = typeof start === 'number' ? Buffer.allocUnsafeSlow(start) : start;
  }

  get length(): number {
    return this.#at;
  }

  /** The whole buffer, to reuse in a later builder. */
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

  #room(n: number): void {
    if (this.#at + n <= this.#buf.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.#buf.length, this.#at + n));
    this.#buf.copy(bigger, 0, 0, this.#at);
    this.#buf = bigger;
  }
}
