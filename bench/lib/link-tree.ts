import { copyFileSync, linkSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A copy of the folder `from` at `to` whose files are hard links to the same files (a copy
 * where a link cannot be made: another file system, or links not allowed). For a build's
 * cache, which never writes a file in place (a new entry is written beside and renamed, an
 * old one removed), the links are as good as a copy: no build changes the bytes behind the
 * other name. And no bytes are written, so the build timed next does not start beside
 * gigabytes of page cache just written (BENCHMARKS.md, "Build: the pages' text in Latin-1,
 * the cold cache linked, and the page cache's state").
 */
export function linkTree(from: string, to: string): { files: number; copied: number } {
  let files = 0;
  let copied = 0;
  const walk = (src: string, dst: string) => {
    mkdirSync(dst, { recursive: true });
    for (const e of readdirSync(src, { withFileTypes: true })) {
      const a = join(src, e.name);
      const b = join(dst, e.name);
      if (e.isDirectory()) walk(a, b);
      else {
        files++;
        try {
          linkSync(a, b);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw err;
          copyFileSync(a, b);
          copied++;
        }
      }
    }
  };
  walk(from, to);
  return { files, copied };
}
