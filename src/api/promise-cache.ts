/**
 * Promises kept by key in an LRU bounded by bytes (the `lru-cache` package): concurrent
 * requests for one key share one promise; a settled value is weighed by `weigh` and kept
 * while it fits; a rejected one, or one that weighs 0, is dropped so that the next request
 * tries again.
 *
 * @example
 * const cache = new PromiseCache<string>(1 << 20);
 * const text = await cache.get('views/meta.json', () => read('views/meta.json'), (t) => t.length);
 */
import { LRUCache } from 'lru-cache';

export class PromiseCache<V> {
  readonly #lru: LRUCache<string, Promise<V>> | null;

  /** `maxBytes` 0 keeps nothing. */
  constructor(maxBytes: number) {
    this.#lru = maxBytes > 0 ? new LRUCache<string, Promise<V>>({ maxSize: maxBytes }) : null;
  }

  get size(): number {
    return this.#lru?.size ?? 0;
  }

  get(key: string, make: () => Promise<V>, weigh: (value: V) => number): Promise<V> {
    const lru = this.#lru;
    const hit = lru?.get(key);
    if (hit) return hit;
    const fresh = make();
    if (!lru) return fresh;
    // Weighs 1 while in flight, then what `weigh` says.
    lru.set(key, fresh, { size: 1 });
    const drop = () => {
      if (lru.peek(key) === fresh) lru.delete(key);
    };
    fresh.then((value) => {
      const size = weigh(value);
      if (size <= 0 || size > lru.maxSize) drop();
      else if (lru.peek(key) === fresh) {
        // lru-cache weighs a key again only with a new value: set anew.
        lru.delete(key);
        lru.set(key, fresh, { size });
      }
    }, drop);
    return fresh;
  }
}
