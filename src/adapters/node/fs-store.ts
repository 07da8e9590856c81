import { readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { ViewStore } from '../../api/index.ts';

const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);

/**
 * The view store of the Node server: files under one folder (`dist/`). A path
 * that would resolve outside that folder reads as absent.
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

  /**
   * Synchronous on purpose: views are small, read once per instance (then cached
   * parsed), and almost always in the page cache, where a blocking read takes
   * ~10 µs against ~100-1000 µs for the four thread-pool round trips of
   * `fs.promises.readFile` (bench:serve, cold column).
   */
  async read(path: string): Promise<string | null> {
    const full = this.resolve(path);
    if (full === null) return null;
    try {
      return readFileSync(full, 'utf8');
    } catch (error) {
      if (ABSENT.has((error as NodeJS.ErrnoException).code ?? '')) return null;
      throw error;
    }
  }
}
