import { readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { ViewStore } from '../../api/index.ts';

const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);

/**
 * The one reader of a build's files on Node (the server, the MCP stdio entry, the pages at build
 * time, the tests), under one folder; a path resolving outside it reads as absent.
 *
 * @example
 * const store = new FsStore('dist');
 * await store.read('views/meta.json');
 */
export class FsStore implements ViewStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The absolute file for `path`, or `null` when it is not inside the root. */
  resolve(path: string): string | null {
    if (path.includes('\0')) return null;
    const full = resolve(this.root, path.replace(/^\/+/, ''));
    return full.startsWith(this.root + sep) ? full : null;
  }

  /** Synchronous on purpose: views are small, read once per instance and nearly always in the page cache. */
  async read(path: string): Promise<string | null> {
    return this.readSync(path);
  }

  /** The binary search index is read as bytes, viewed in place. */
  async bytes(path: string): Promise<Uint8Array | null> {
    return this.#read(path, null);
  }

  /** The file's text, `null` when absent; throws when it cannot be read. */
  readSync(path: string): string | null {
    return this.#read(path, 'utf8');
  }

  #read(path: string, encoding: 'utf8'): string | null;
  #read(path: string, encoding: null): Uint8Array | null;
  #read(path: string, encoding: 'utf8' | null): string | Uint8Array | null {
    const full = this.resolve(path);
    if (full === null) return null;
    try {
      return encoding ? readFileSync(full, encoding) : readFileSync(full);
    } catch (error) {
      if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  }

  /** A view the caller knows is there, parsed (for build-time readers that need it synchronously). */
  json<T>(path: string): T {
    const text = this.readSync(path);
    if (text === null) throw new Error(`${path} is missing in ${this.root}`);
    return JSON.parse(text) as T;
  }
}
