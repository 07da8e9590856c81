// @ts-check
// Plain JavaScript: the file worker (file-worker.mjs) imports it without a loader.
import { copyFileSync, linkSync, statSync } from 'node:fs';

/**
 * Puts a hard link to `source` at `file` (a copy across file systems). The link moves the
 * source's change time: answers `[dev:ino, before, after]` of it (own-changes.ts), or null
 * for a copy, which leaves the source as it was.
 * @param {string} source
 * @param {string} file
 * @returns {[string, string, string] | null}
 */
export function linkFile(source, file) {
  const before = statSync(source, { bigint: true });
  try {
    linkSync(source, file);
  } catch (e) {
    const code = /** @type {NodeJS.ErrnoException} */ (e).code;
    if (code !== 'EXDEV' && code !== 'EPERM') throw e;
    copyFileSync(source, file);
    return null;
  }
  const after = statSync(source, { bigint: true });
  return [`${before.dev}:${before.ino}`, String(before.ctimeNs), String(after.ctimeNs)];
}
