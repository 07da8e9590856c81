/**
 * One entry of the build's caches: a header line (inputs digest, content SHA-256 and length),
 * then the content. A damaged or misplaced entry is reported, deleted and computed again
 * (data-and-rules §1.5: the output is a function of the data folder only).
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync, writeSync, type BigIntStats } from 'node:fs';
import { basename, dirname } from 'node:path';
import { rememberDigest } from '../release/known-digests.ts';
import { identityOf, movedOnlyByThisBuild, ownChangesKnown } from './own-changes.ts';

const MAGIC = 'evi-cache-1';

interface Header {
  magic: string;
  key: string;
  sha256: string;
  bytes: number;
  /** Small facts a reader may want without the content. */
  info?: Record<string, number | string>;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Writes an entry atomically (temporary file, then rename), encoded once and written in one call. */
export async function writeCacheEntry(path: string, key: string, content: string | Uint8Array, info?: Header['info']): Promise<void> {
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const header: Header = { magic: MAGIC, key, sha256: sha256(body), bytes: body.length, ...(info ? { info } : {}) };
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]));
  await rename(tmp, path);
}

export type Warn = (line: string) => void;

async function discard(path: string, why: string, warn: Warn): Promise<null> {
  warn(`warning: cache entry ${basename(path)} ${why}; it is computed again`);
  await rm(path, { force: true });
  return null;
}

function parseHeader(line: string): Header | null {
  try {
    const h = JSON.parse(line) as Header;
    return h && h.magic === MAGIC && typeof h.key === 'string' && typeof h.sha256 === 'string' && typeof h.bytes === 'number' ? h : null;
  } catch {
    return null;
  }
}

/** The entry's header when present, made from `key` and of the right length; else `null`. */
export async function peekCacheEntry(path: string, key: string, warn: Warn): Promise<Header | null> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const { size } = await handle.stat();
    const buf = Buffer.alloc(Math.min(size, 4096));
    await handle.read(buf, 0, buf.length, 0);
    const nl = buf.indexOf(0x0a);
    const header = nl < 0 ? null : parseHeader(buf.subarray(0, nl).toString('utf8'));
    if (!header) return discard(path, 'has no valid header', warn);
    if (header.key !== key) return discard(path, 'was made from other inputs', warn);
    if (size !== nl + 1 + header.bytes) return discard(path, `is ${size - nl - 1} bytes long instead of ${header.bytes} (truncated?)`, warn);
    return header;
  } finally {
    await handle.close();
  }
}

/** The entry's content when present and intact; else `null`. */
async function readCacheBytes(path: string, key: string, warn: Warn): Promise<Buffer | null> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const nl = data.indexOf(0x0a);
  const header = nl < 0 ? null : parseHeader(data.toString('utf8', 0, nl));
  if (!header) return discard(path, 'has no valid header', warn);
  if (header.key !== key) return discard(path, 'was made from other inputs', warn);
  const content = data.subarray(nl + 1);
  if (content.length !== header.bytes) return discard(path, `is ${content.length} bytes long instead of ${header.bytes} (truncated?)`, warn);
  if (sha256(content) !== header.sha256) return discard(path, 'does not match its digest (edited or damaged)', warn);
  return content;
}

/** The entry's content decoded by `decode`; `null` when absent or damaged (a decoding error is damage, `what` says how). */
export async function readCacheWith<T>(path: string, key: string, warn: Warn, decode: (content: Buffer) => T, what: string): Promise<T | null> {
  const content = await readCacheBytes(path, key, warn);
  if (content === null) return null;
  try {
    return decode(content);
  } catch {
    return discard(path, what, warn);
  }
}

/** The entry's content as JSON, a parse failure counting as damage. */
export const readCacheJson = <T>(path: string, key: string, warn: Warn): Promise<T | null> => readCacheWith(path, key, warn, (content) => JSON.parse(content.toString('utf8')) as T, 'is not valid JSON');

/**
 * A cache entry that is a folder of files, linked into the output instead of copied. Its
 * `.entry.json`, written last, holds the inputs digest and each file's length, SHA-256 and
 * identity; a read hashes again only the files whose identity changed other than by this
 * build's own links and removals (own-changes.ts), which {@link recordOwnChanges} records.
 */
export async function writeCacheFolder(dir: string, key: string, files: Iterable<[string, Uint8Array]>, info?: Header['info']): Promise<{ path: string; bytes: number }[]> {
  const tmp = `${dir}.${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  const entries: { path: string; bytes: number; sha256: string; stat: string }[] = [];
  const made = new Set<string>();
  for (const [path, bytes] of files) {
    const full = `${tmp}/${path}`;
    const parent = dirname(full);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const st = writeNew(full, bytes);
    rememberDigest(st, sha256);
    entries.push({ path, bytes: bytes.byteLength, sha256, stat: statKey(st) });
  }
  writeFileSync(`${tmp}/.entry.json`, JSON.stringify({ magic: MAGIC, key, files: entries, ...(info ? { info } : {}) }));
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
  used.add(dir);
  return entries;
}

/** Writes `bytes` to `path` and answers its identity, in one open; synchronous, as the output's writes are. */
function writeNew(path: string, bytes: Uint8Array): BigIntStats {
  // Read-only: the live release links these very files.
  const fd = openSync(path, 'w', 0o444);
  try {
    for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at, bytes.byteLength - at);
    return fstatSync(fd, { bigint: true });
  } finally {
    closeSync(fd);
  }
}

/** A file's identity: an edit changes its times, a replacement its inode. */
const statKey = identityOf;

interface FolderIndex {
  magic: string;
  key: string;
  files: { path: string; bytes: number; sha256: string; stat?: string }[];
  info?: Header['info'];
}

/** The folder entries this build read, wrote or linked from. */
const used = new Set<string>();

/** Marks a folder entry as used by this build (one written on another thread and linked here). */
export function usedCacheFolder(dir: string): void {
  used.add(dir);
}

async function writeIndex(dir: string, index: FolderIndex): Promise<void> {
  const tmp = `${dir}/.entry.json.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(index));
  await rename(tmp, `${dir}/.entry.json`);
}

/**
 * Once the build's own links and removals are done: each used entry's index takes the
 * identities that these alone gave its files, so the next build need not hash them. A file
 * moved by anything else keeps its old identity, and the next read hashes it.
 */
export async function recordOwnChanges(): Promise<void> {
  await ownChangesKnown();
  for (const dir of used) {
    let index: FolderIndex;
    try {
      index = JSON.parse(await readFile(`${dir}/.entry.json`, 'utf8')) as FolderIndex;
    } catch {
      continue;
    }
    let moved = false;
    for (const f of index.files ?? []) {
      if (f.stat === undefined) continue;
      const st = statSync(`${dir}/${f.path}`, { bigint: true, throwIfNoEntry: false });
      if (!st || statKey(st) === f.stat || !movedOnlyByThisBuild(f.stat, st)) continue;
      f.stat = statKey(st);
      moved = true;
    }
    if (moved) await writeIndex(dir, index);
  }
  used.clear();
}

export interface FolderEntry {
  /** Each file: its path inside the entry, its absolute path, its length. */
  files: { path: string; file: string; bytes: number }[];
  info: NonNullable<Header['info']>;
}

/** An intact folder entry; `null` when absent or damaged (reported and deleted). */
export async function readCacheFolder(dir: string, key: string, warn: Warn): Promise<FolderEntry | null> {
  let entry: FolderIndex;
  try {
    entry = JSON.parse(await readFile(`${dir}/.entry.json`, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      if ((await stat(dir).catch(() => null)) === null) return null;
      return discardFolder(dir, 'has no index (an interrupted write?)', warn);
    }
    return discardFolder(dir, 'has an unreadable index', warn);
  }
  if (entry.magic !== MAGIC || !Array.isArray(entry.files)) return discardFolder(dir, 'has no valid index', warn);
  if (entry.key !== key) return discardFolder(dir, 'was made from other inputs', warn);
  used.add(dir);
  const out: FolderEntry['files'] = [];
  let restat = false;
  let waited = false;
  for (const f of entry.files) {
    const file = `${dir}/${f.path}`;
    let st = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (st && f.stat !== undefined && statKey(st) !== f.stat && !waited) {
      // Maybe a removal of this build's still under way: its moves first.
      await ownChangesKnown();
      waited = true;
      st = statSync(file, { bigint: true, throwIfNoEntry: false });
    }
    // The same file as written, untouched since but by this build: its content is the one hashed then.
    if (st && f.stat !== undefined && st.size === BigInt(f.bytes) && (statKey(st) === f.stat || movedOnlyByThisBuild(f.stat, st))) {
      rememberDigest(st, f.sha256);
      out.push({ path: f.path, file, bytes: f.bytes });
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return discardFolder(dir, `misses ${f.path}`, warn);
    }
    if (bytes.byteLength !== f.bytes) return discardFolder(dir, `has ${f.path} ${bytes.byteLength} bytes long instead of ${f.bytes} (truncated?)`, warn);
    if (createHash('sha256').update(bytes).digest('hex') !== f.sha256) return discardFolder(dir, `has ${f.path} not matching its digest (edited or damaged)`, warn);
    out.push({ path: f.path, file, bytes: f.bytes });
    if (st) rememberDigest(st, f.sha256);
    // Verified: record its identity now.
    if (st) {
      f.stat = statKey(st);
      restat = true;
    }
  }
  if (restat) await writeIndex(dir, entry);
  return { files: out, info: entry.info ?? {} };
}

/** Whether a folder entry made from `key` is there (its index only; a read checks the files). */
export async function hasCacheFolder(dir: string, key: string): Promise<boolean> {
  try {
    return (JSON.parse(await readFile(`${dir}/.entry.json`, 'utf8')) as { key?: string }).key === key;
  } catch {
    return false;
  }
}

async function discardFolder(dir: string, why: string, warn: Warn): Promise<null> {
  warn(`warning: cache entry ${basename(dir)} ${why}; it is computed again`);
  await rm(dir, { recursive: true, force: true });
  return null;
}
