/**
 * The SHA-256 of files this build wrote or verified in its cache entries, by identity, so
 * the ledger's digests of the published files need not read them again.
 */
import type { BigIntStats } from 'node:fs';

const known = new Map<string, string>();

/** A hard link changes a file's change time, not its content: the published copy is looked up without it. */
const contentKey = (st: BigIntStats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;

export function rememberDigest(st: BigIntStats, sha256: string): void {
  known.set(contentKey(st), sha256);
}

/** The same for a file known by its identity (own-changes.ts), as a thread that wrote it reports it. */
export function rememberDigestOf(identity: string, sha256: string): void {
  known.set(identity.slice(0, identity.lastIndexOf(':')), sha256);
}

export function knownDigest(st: BigIntStats): string | undefined {
  return known.get(contentKey(st));
}
