/**
 * Follows the live build behind `dist` (a symbolic link swapped by each build, src/pipeline/release/release.ts):
 * when the link changed, a fresh site is made for the new build. Each request uses the site current
 * at its start, so no answer mixes two builds and no restart is needed.
 */
import { realpathSync } from 'node:fs';

export class ReleaseFollower<Site> {
  #root = '';
  #site: Site | null = null;
  #checked = 0;

  constructor(
    private readonly distDir: string,
    private readonly make: (root: string) => Site,
    private readonly intervalMs = 1000,
  ) {}

  /** The site of the build `distDir` points to now (checked at most once per interval). */
  current(now = performance.now()): Site {
    if (this.#site !== null && now - this.#checked < this.intervalMs) return this.#site;
    this.#checked = now;
    let root: string;
    try {
      root = realpathSync(this.distDir);
    } catch {
      // Between a migration's two renames there may briefly be no output: keep the last one.
      if (this.#site) return this.#site;
      root = this.distDir;
    }
    if (root !== this.#root || this.#site === null) {
      this.#root = root;
      this.#site = this.make(root);
    }
    return this.#site;
  }

  /** The real folder of the build being served. */
  get root(): string {
    return this.#root;
  }
}
