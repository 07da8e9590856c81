/**
 * One value a thread keeps for its next use instead of making it again: a buffer or arrays
 * grown to a month's size, which made anew would be copied while they grow and have their
 * pages faulted in again (a parser worker's gunzip buffer and accumulator arrays,
 * parse-month.ts; a month worker's leaderboards CSV buffer, downloads.ts). Kept only while
 * `keep(true)`; `take` hands it out once (null when there is none), so that two users never
 * share it, and the user `put`s it back when done.
 */
export class Spare<T> {
  #keep = false;
  #value: T | null = null;

  /** Whether to keep what is put back; off also lets go of what is kept. */
  keep(on: boolean): void {
    this.#keep = on;
    if (!on) this.#value = null;
  }

  take(): T | null {
    const value = this.#value;
    this.#value = null;
    return value;
  }

  put(value: T): void {
    if (this.#keep) this.#value = value;
  }
}
