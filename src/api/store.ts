import type { FileParts } from '../core/search/sections.ts';
import { StoreError } from './errors.ts';
import { PromiseCache } from './promise-cache.ts';

/**
 * Read-only access to the files the build wrote under `dist/`, addressed by a
 * relative path such as `views/meta.json`. The Node server reads the file system,
 * the Worker its static-assets binding.
 *
 * @example
 * const text = await store.read('views/meta.json'); // null when absent
 */
export interface ViewStore {
  /** The file's text, `null` when there is no such file; throws when it cannot be read. */
  read(path: string): Promise<string | null>;
  /**
   * The file's bytes, `null` when there is no such file (the binary search index).
   * Optional: without it the API reads the JSON form of the index instead.
   */
  bytes?(path: string): Promise<Uint8Array | null>;
  /**
   * The file's bytes as the chunks it is stored in (a split file's parts, unjoined), `null`
   * when there is no such file. Optional: without it, {@link ViewStore.bytes} in one chunk.
   */
  chunks?(path: string): Promise<Uint8Array[] | null>;
  /**
   * The file as parts to read one at a time (`null` when it is not kept in parts, or absent):
   * for a reader that needs only some of its bytes. Optional.
   */
  partsOf?(path: string): Promise<FileParts | null>;
}

/**
 * A Map-backed store: for tests and for embedding views in memory.
 *
 * @example
 * const store = new MemoryStore({ 'views/meta.json': meta });
 */
export class MemoryStore implements ViewStore {
  readonly #files = new Map<string, string>();

  constructor(files: Record<string, unknown> = {}) {
    for (const [path, value] of Object.entries(files)) this.set(path, value);
  }

  readonly #bytes = new Map<string, Uint8Array>();

  /** Objects are stored as their JSON text, strings as they are, bytes (`Uint8Array`) as bytes. */
  set(path: string, value: unknown): this {
    if (value instanceof Uint8Array) this.#bytes.set(path, value);
    else this.#files.set(path, typeof value === 'string' ? value : JSON.stringify(value));
    return this;
  }

  delete(path: string): this {
    this.#files.delete(path);
    this.#bytes.delete(path);
    return this;
  }

  async read(path: string): Promise<string | null> {
    return this.#files.get(path) ?? null;
  }

  async bytes(path: string): Promise<Uint8Array | null> {
    return this.#bytes.get(path) ?? null;
  }
}

export interface ViewCacheOptions {
  /** Parsed views kept in memory, bounded by the length of their JSON text (views are immutable for an instance's life). */
  maxBytes?: number;
  /** Where read/parse failures are reported, once per path until it reads again. */
  log?: (line: string) => void;
}

const defaults = {
  // Safe within a Worker isolate's 128 MB; the Node server raises it.
  maxBytes: 8 * 1024 * 1024,
  log: (line: string) => console.error(line),
} satisfies Required<ViewCacheOptions>;

/**
 * Parses views once and keeps the most recently used ones (LRU, by size). Concurrent
 * requests for the same view share one read. Failures are not cached, so one bad
 * file fails only the requests that need it.
 *
 * @example
 * const cache = new ViewCache(store);
 * const meta = await cache.json<MetaView>('views/meta.json');
 */
export class ViewCache {
  readonly #store: ViewStore;
  readonly #options: Required<ViewCacheOptions>;
  readonly #entries: PromiseCache<unknown>;
  readonly #failing = new Set<string>();

  constructor(store: ViewStore, options: ViewCacheOptions = {}) {
    this.#store = store;
    this.#options = { ...defaults, ...options };
    this.#entries = new PromiseCache(this.#options.maxBytes);
  }

  /** The parsed view, `null` when absent; throws {@link StoreError} when unreadable. */
  json<T>(path: string): Promise<T | null> {
    return this.#get(path, parseJson) as Promise<T | null>;
  }

  /**
   * A file's bytes, not cached (the caller keeps what it makes of them); `undefined`
   * when the store cannot read bytes, `null` when the file is absent; throws
   * {@link StoreError} when unreadable.
   */
  async bytes(path: string): Promise<Uint8Array | null | undefined> {
    if (!this.#store.bytes) return undefined;
    try {
      return await this.#store.bytes(path);
    } catch (cause) {
      throw new StoreError(path, cause);
    }
  }

  /**
   * A file's bytes in the chunks the store keeps it in (a split file's parts: not joined, so
   * not copied), not cached; `undefined`, `null` and errors as {@link ViewCache.bytes}.
   */
  async chunks(path: string): Promise<Uint8Array[] | null | undefined> {
    if (!this.#store.chunks) {
      const bytes = await this.bytes(path);
      return bytes ? [bytes] : bytes;
    }
    try {
      return await this.#store.chunks(path);
    } catch (cause) {
      throw new StoreError(path, cause);
    }
  }

  /** The file as parts to read one at a time (see {@link ViewStore.partsOf}); `null` when the store keeps it otherwise. */
  async partsOf(path: string): Promise<FileParts | null> {
    if (!this.#store.partsOf) return null;
    const wrap = async <T>(read: () => Promise<T>): Promise<T> => {
      try {
        return await read();
      } catch (cause) {
        throw new StoreError(path, cause);
      }
    };
    const parts = await wrap(() => (this.#store.partsOf as (path: string) => Promise<FileParts | null>)(path));
    return parts && { ends: parts.ends, read: (n) => wrap(() => parts.read(n)) };
  }

  /** The raw text of a file, cached like a view. */
  text(path: string): Promise<string | null> {
    return this.#get(path, (text) => text) as Promise<string | null>;
  }

  #get(path: string, parse: (text: string) => unknown): Promise<unknown> {
    const key = parse === parseJson ? path : `text:${path}`;
    let size = 0;
    const load = () =>
      this.#load(path, (text) => {
        size = text.length;
        return parse(text);
      });
    return this.#entries.get(key, load, () => Math.max(1, size));
  }

  async #load(path: string, parse: (text: string) => unknown): Promise<unknown> {
    try {
      const text = await this.#store.read(path);
      const value = text === null ? null : parse(text);
      this.#failing.delete(path);
      return value;
    } catch (cause) {
      const error = new StoreError(path, cause);
      error.reported = true;
      if (!this.#failing.has(path)) {
        this.#failing.add(path);
        this.#options.log(`[api] ${error.message}`);
      }
      throw error;
    }
  }
}

function parseJson(text: string): unknown {
  return JSON.parse(text);
}
