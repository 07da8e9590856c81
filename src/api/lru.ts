/**
 * A least-recently-used map of bounded size (Map iteration order is insertion
 * order, so the first key is the oldest).
 *
 * @example
 * const lru = new Lru<string>(2);
 * lru.set('a', '1'); lru.set('b', '2'); lru.get('a'); lru.set('c', '3'); // evicts 'b'
 */
export class Lru<V> {
  readonly #max: number;
  readonly #map = new Map<string, V>();

  constructor(max: number) {
    this.#max = Math.max(0, max);
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: string): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.#max === 0) return;
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#max) {
      const oldest = this.#map.keys().next().value;
      if (oldest !== undefined) this.#map.delete(oldest);
    }
  }

  /** Removes `key` only while it still maps to `value` (a newer entry stays). */
  deleteIf(key: string, value: V): void {
    if (this.#map.get(key) === value) this.#map.delete(key);
  }
}
