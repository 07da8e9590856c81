/**
 * A file's identity, and the moves of it that this build made itself. Making or removing a
 * hard link moves a file's change time just as an edit does; the build links its cache
 * files into the output and removes old releases that link them. Each such operation is
 * bracketed by a stat of the file just before and just after, so a cache entry can tell its
 * files moved only by this build (trusted) from files moved by anything else (hashed again).
 */
import type { BigIntStats } from 'node:fs';

/** The identity of a file: an edit changes its change time, a replacement its inode. */
export const identityOf = (st: BigIntStats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;

/** One operation of this build on a shared file: its `dev:ino`, its change time before and after. */
export type OwnChange = [inode: string, before: string, after: string];

/** Per file (`dev:ino`), each change time this build moved it from, to the one it moved it to. */
const moves = new Map<string, Map<string, string>>();
const pending = new Set<Promise<unknown>>();

/** Records operations of this build; a promise of them is waited for by {@link ownChangesKnown}. */
export function noteOwnChanges(changes: OwnChange[] | Promise<OwnChange[]>): void {
  if (!Array.isArray(changes)) {
    const p = changes.then(noteOwnChanges, () => {});
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return;
  }
  for (const [inode, before, after] of changes) {
    if (before === after) continue;
    let m = moves.get(inode);
    if (!m) moves.set(inode, (m = new Map()));
    m.set(before, after);
  }
}

/** Settles once every operation started so far is recorded. */
export async function ownChangesKnown(): Promise<void> {
  while (pending.size) await Promise.all(pending);
}

/** Whether `st` is the file `recorded` (an {@link identityOf}) but for change times this build's own operations gave it. */
export function movedOnlyByThisBuild(recorded: string, st: BigIntStats): boolean {
  const at = recorded.lastIndexOf(':');
  if (recorded.slice(0, at) !== `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`) return false;
  const m = moves.get(`${st.dev}:${st.ino}`);
  const now = String(st.ctimeNs);
  let ctime = recorded.slice(at + 1);
  // Each step follows one operation; no more steps than operations.
  for (let steps = 0; m && steps < m.size && ctime !== now; steps++) {
    const next = m.get(ctime);
    if (next === undefined) return false;
    ctime = next;
  }
  return ctime === now;
}
