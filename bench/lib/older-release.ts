import { copyFileSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { linkTree } from './link-tree.ts';

/**
 * The release an operator's monthly build finds behind the live one, made for a timed run:
 * `live` hard-linked at `to`, except the files that a monthly build rewrote, which get inodes
 * of their own, as the release before the live one has them. Which files those are is read
 * from `next`, a release that a monthly build made over `live`: a file of `live` whose path
 * in `next` is another inode (or none) was rewritten; the others were linked over, and stay
 * shared. Removing such a release frees the rewritten files' inodes and blocks, and only
 * unlinks the shared ones, as the build's removal of the release behind the live one does in
 * an operator's second month and after. Returns the counts.
 */
export function olderRelease(live: string, next: string, to: string): { files: number; own: number } {
  const files = linkTree(live, to);
  let own = 0;
  for (const e of readdirSync(live, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const rel = relative(live, join(e.parentPath, e.name));
    const there = statSync(join(next, rel), { throwIfNoEntry: false });
    if (there && there.ino === statSync(join(live, rel)).ino) continue;
    const file = join(to, rel);
    copyFileSync(file, `${file}.own`);
    renameSync(`${file}.own`, file);
    own++;
  }
  return { files, own };
}
