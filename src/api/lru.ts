/**
 * A least-recently-used map bounded by total weight (entries weigh 1 unless told;
 * caches weigh by bytes). Map iteration order is insertion order, so the first
 * key is the oldest.
 *
 * @example
 * const lru = new Lru<string>(2);
 * lru.set('a', '1'); lru.set('b', '2'); lru.get('a'); lru.set('c', '3'); // evicts 'b'
 */
export class Lru<V> {
  readonly #max: number;
  readonly #map = new Map<string, { value: V; weight: number }>();
  #total = 0;

  constructor(maxWeight: number) {
    this.#max = Math.max(0, maxWeight);
  }

  get size(): number {
    return this.#map.size;
  }

  get weight(): number {
    return this.#total;
  }

  get(key: string): V | undefined {
    const entry = this.#map.get(key);
    if (entry === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, weight = 1): void {
    this.#remove(key);
    if (this.#max === 0 || weight > this.#max) return;
    this.#map.set(key, { value, weight });
    this.#total += weight;
    this.#evict();
  }

  /** Sets the weight of `key` while it still maps to `value` (for entries whose size is known later). */
  reweigh(key: string, value: V, weight: number): void {
    const entry = this.#map.get(key);
    if (entry === undefined || entry.value !== value) return;
    if (weight > this.#max) return void this.#remove(key);
    this.#total += weight - entry.weight;
    entry.weight = weight;
    this.#evict();
  }

  /** Removes `key` only while it still maps to `value` (a newer entry stays). */
  deleteIf(key: string, value: V): void {
    if (this.#map.get(key)?.value === value) this.#remove(key);
  }

  #remove(key: string): void {
    const entry = this.#map.get(key);
    if (entry === undefined) return;
    this.#map.delete(key);
    this.#total -= entry.weight;
  }

  #evict(): void {
    while (this.#total > this.#max) {
      const oldest = this.#map.keys().next().value;
      if (oldest === undefined) break;
      this.#remove(oldest);
    }
  }
}
