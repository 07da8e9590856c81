/**
 * One entry of the build's caches (parsed months, scored months, past months' views):
 * a header line carrying the digest of the inputs the entry was made from and the
 * SHA-256 and length of its content, then the content. A read checks all three, so a
 * truncated, edited or misplaced entry is never used: it is reported in one warning
 * line, deleted, and the caller computes it again (data-and-rules §1.5: the output is
 * a function of the data folder only).
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync, writeSync, type BigIntStats } from 'node:fs';
import { basename, dirname } from 'node:path';
import { identityOf, rememberDigest } from './known-digests.ts';

const MAGIC = 'evi-cache-1';

interface Header {
  magic: string;
  key: string;
  sha256: string;
  bytes: number;
  /** Small facts a reader may want without the content (for example a row count). */
  info?: Record<string, number | string>;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes an entry atomically (temporary file, then rename). The content is encoded once,
 * hashed as bytes and written in one synchronous call: a parsed month's entry (10 MiB)
 * takes ~44 ms of CPU so, against ~73 ms when the text was hashed (which encodes it),
 * measured, joined to its header and written asynchronously (encoded again, and written
 * in 512 KiB pieces, a round trip each; BENCHMARKS.md, "Build: ingest, fourth round").
 */
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

/**
 * The entry's header when it is present, made from `key`, and of the right length
 * (a cheap check that reads only the header); `null` otherwise (absent, or reported and deleted).
 */
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

/** The entry's content (bytes) when present and intact; `null` otherwise (absent, or reported and deleted). */
async function readCacheBytes(path: string, key: string, warn: Warn): Promise<Buffer | null> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  // Checked as bytes, then decoded once.
  const nl = data.indexOf(0x0a);
  const header = nl < 0 ? null : parseHeader(data.toString('utf8', 0, nl));
  if (!header) return discard(path, 'has no valid header', warn);
  if (header.key !== key) return discard(path, 'was made from other inputs', warn);
  const content = data.subarray(nl + 1);
  if (content.length !== header.bytes) return discard(path, `is ${content.length} bytes long instead of ${header.bytes} (truncated?)`, warn);
  if (sha256(content) !== header.sha256) return discard(path, 'does not match its digest (edited or damaged)', warn);
  return content;
}

/**
 * The entry's content decoded by `decode` when present, intact and decodable; `null`
 * otherwise (absent, or reported and deleted: a decoding error counts as damage, `what`
 * says how, for example "is not valid JSON").
 */
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
 * A cache entry that is a folder of files (the past months' views, each month's
 * leaderboards: thousands of files, linked into the output instead of copied). Its
 * `.entry.json`, written last, holds the inputs digest, each file's length, SHA-256 and
 * identity (device, inode, size, modification time), and small facts about the content
 * (`info`). A read checks every file: one still the very file written (same identity) is
 * taken as hashed then; any other (edited in place, replaced, restored from an archive)
 * is read and its SHA-256 checked (and, when it matches, its identity recorded). At reference scale this is ~26,000 stat calls instead
 * of reading and hashing 1.6 GB on every build.
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
  return entries;
}

/**
 * Writes `bytes` to the file `path` and answers its identity once written, in one open (a
 * folder entry's thousands of files). Synchronous, as the output's writes are
 * (write-json.ts): the promise API's open, write, stat and close, each a round trip to
 * libuv's thread pool, took more CPU for 1,100 files of 20-70 KB (a month's leaderboards)
 * in a scratch measurement: 149-295 ms (median 241) against 76-224 ms (median 94); cold
 * builds by hand, 55.2 s against 57.5 s (BENCHMARKS.md, "Build: a past month scored once").
 */
function writeNew(path: string, bytes: Uint8Array): BigIntStats {
  // Read-only: the live release links these very files, so an edit needs a change of mode
  // first, and any edit changes the change time the identity holds.
  const fd = openSync(path, 'w', 0o444);
  try {
    for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at, bytes.byteLength - at);
    return fstatSync(fd, { bigint: true });
  } finally {
    closeSync(fd);
  }
}

/**
 * A file's identity as the file system keeps it: a write in place changes the modification
 * and change times, a replacement the inode. The change time cannot be set back, so an edit
 * that restores the modification time is caught too (as is a hard link made or removed,
 * after which the file is hashed once again).
 */
const statKey = identityOf;

export interface FolderEntry {
  /** Each file: its path inside the entry, its absolute path, its length. */
  files: { path: string; file: string; bytes: number }[];
  info: NonNullable<Header['info']>;
}

/** An intact folder entry; `null` when absent or damaged (reported and deleted). */
export async function readCacheFolder(dir: string, key: string, warn: Warn): Promise<FolderEntry | null> {
  let entry: { magic: string; key: string; files: { path: string; bytes: number; sha256: string; stat?: string }[]; info?: Header['info'] };
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
  const out: FolderEntry['files'] = [];
  let restat = false;
  for (const f of entry.files) {
    const file = `${dir}/${f.path}`;
    // The same file as written, untouched since (inode, size, modification time in ns):
    // its content is the one hashed then. Anything else is read and hashed again.
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (st && f.stat !== undefined && st.size === BigInt(f.bytes) && statKey(st) === f.stat) {
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
    // Verified: its identity now is that of these bytes (an entry restored from an archive, or written before identities were kept).
    if (st) {
      f.stat = statKey(st);
      restat = true;
    }
  }
  if (restat) {
    const tmp = `${dir}/.entry.json.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(entry));
    await rename(tmp, `${dir}/.entry.json`);
  }
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
