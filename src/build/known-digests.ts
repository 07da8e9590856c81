/**
 * The SHA-256 of files this build wrote or verified in its cache entries (cache-file.ts),
 * by identity (device, inode, size, modification and change time): the release ledger's
 * digests of the published files (published-files.ts) take them instead of reading the
 * files again. A file whose identity changed since is read and hashed.
 */
import type { BigIntStats } from 'node:fs';

const known = new Map<string, string>();

/** The identity of a file: an edit, even one that restores the modification time, changes the change time. */
export const identityOf = (st: BigIntStats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;

/** A hard link changes a file's change time, not its content: the published copy is looked up without it. */
const contentKey = (st: BigIntStats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;

export function rememberDigest(st: BigIntStats, sha256: string): void {
  known.set(contentKey(st), sha256);
}

export function knownDigest(st: BigIntStats): string | undefined {
  return known.get(contentKey(st));
}
