/**
 * The packed layout (src/core/views/packs.ts): a site for a deployment that runs the function
 * which would pass the file limit gets its files that grow with companies and months put
 * into packs, and loses the static `/api` copies the function answers anyway. A site within
 * the limit, or one for a static host, stays one file per URL. On a host with a limit per
 * file, a larger view or download is kept in parts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OPENAPI_PATH } from '../../api/index.ts';
import { partEnds } from '../../core/search/sections.ts';
import { ENTRY_PART_BYTES, PACK_BYTES, PACK_MANIFEST, encodePack, packFile, packGroup, packedGroup, packPath, partFile, readByEntry, splittable, type FrozenGroup, type PackManifest, type PackSizes, type SplitFile } from '../../core/views/packs.ts';
import { JsonWriter } from './write-json.ts';
import { Spools, type SpoolEntry } from './spool.ts';

/** Cloudflare's limit for one file of a Worker's assets or a Pages site. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** The parts of a split file: read whole by the function when it needs the file. */
export const PART_BYTES = 16 * 1024 * 1024;

/** `maxFileBytes`: a host's limit for one file (Cloudflare's): a larger file is split, or the build stops naming it. */
export interface PackOptions extends PackSizes {
  /** Above this many files the site is packed. */
  maxFiles: number;
  partBytes?: number;
  /** A past month's groups -> a digest of the ledger's digests of their folders: recorded with their packs. */
  keys?: Record<string, string>;
  /** Groups whose packs are linked from the live release ({@link frozenLinks}) instead of being packed again. */
  linked?: Map<string, FrozenLink>;
  /** A folder of spools (spool.ts) holding files of the site: packed with the others, or written out; then removed. */
  spools?: string;
  log?: (line: string) => void;
}

/** A group's packs in the live release, checked: linked forward as they are. */
export interface FrozenLink {
  /** The live release's record of the group: its key and each pack's SHA-256. */
  frozen: FrozenGroup;
  /** The live packs, in order. */
  sources: string[];
}

export interface PackResult {
  /** Files before and after; equal when nothing was packed. */
  filesBefore: number;
  files: number;
  packs: number;
  /** Of the packs, those linked from the live release. */
  linked?: number;
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** The live release's pack manifest, or null when it has none (not packed, or no release). */
function liveManifest(live: string | null | undefined): PackManifest | null {
  const path = live ? join(live, PACK_MANIFEST) : null;
  return path && existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as PackManifest) : null;
}

/**
 * The groups of `keys` (a past month's folders -> a digest of the ledger's digests of them)
 * whose packs the live release has under the same key, each pack still with the bytes it was
 * written with: those are linked forward instead of being packed again.
 */
export function frozenLinks(live: string | null, keys: Record<string, string>, o: { packBytes?: number; maxFileBytes?: number | null } = {}): Map<string, FrozenLink> {
  const links = new Map<string, FrozenLink>();
  const was = liveManifest(live);
  if (!was?.frozen) return links;
  for (const [group, digest] of Object.entries(keys)) {
    const record = was.frozen[group];
    if (!record || record.key !== frozenKey(digest, o)) continue;
    const sources = record.sha256.map((_, n) => join(live!, packFile(group, n)));
    if (sources.every((path, n) => existsSync(path) && sha256(readFileSync(path)) === record.sha256[n])) links.set(group, { frozen: record, sources });
  }
  return links;
}

/** A frozen group's key: its content's digest, and how its files are cut into packs. */
const frozenKey = (digest: string, o: { packBytes?: number; maxFileBytes?: number | null }) => sha256(`${digest} ${o.packBytes ?? PACK_BYTES} ${o.maxFileBytes ?? MAX_FILE_BYTES}`);

/** Every file under `root`, as relative paths with their sizes. */
function listFiles(root: string): { path: string; size: number }[] {
  const out: { path: string; size: number }[] = [];
  const walk = (rel: string) => {
    for (const d of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(path);
      else out.push({ path, size: statSync(join(root, path)).size });
    }
  };
  walk('');
  return out;
}

/** Assigns a group's files to packs, doubling the count until none passes the host's limit per file. */
function assign(group: string, files: { path: string; size: number }[], packBytes: number, maxBytes: number): Map<string, string[]> {
  const total = files.reduce((n, f) => n + f.size, 0);
  for (let count = Math.max(1, Math.ceil(total / packBytes)); ; count *= 2) {
    const packs = new Map<string, { paths: string[]; bytes: number }>();
    for (const f of files) {
      const file = packPath(group, f.path, count);
      const p = packs.get(file) ?? { paths: [], bytes: 0 };
      p.paths.push(f.path);
      // The entry and its line in the pack's header.
      p.bytes += f.size + f.path.length + 16;
      packs.set(file, p);
    }
    if ([...packs.values()].every((p) => p.bytes <= maxBytes || p.paths.length === 1)) {
      // Every pack of the count, an empty one too: the reader finds a path's pack by the count.
      return new Map(Array.from({ length: count }, (_, n) => packFile(group, n)).map((file) => [file, packs.get(file)?.paths ?? []]));
    }
  }
}

/**
 * Cuts a file into parts of at most `partBytes` under `packs/parts/` and removes it. A binary
 * view is cut between its sections where it can (`partEnds`), so that the function reads
 * each section in place from its part; the entries of one read by entry go in parts of
 * `entryPartBytes`.
 */
function splitFile(site: string, path: string, partBytes: number, entryPartBytes: number, out: JsonWriter): SplitFile {
  const bytes = readFileSync(join(site, path));
  const ends = partEnds(bytes, partBytes, readByEntry(path) ? entryPartBytes : undefined);
  ends.forEach((end, n) => out.writeBytes(partFile(path, n), bytes.subarray(n === 0 ? 0 : ends[n - 1], end)));
  unlinkSync(join(site, path));
  return { parts: ends.length, bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex'), ends };
}

/**
 * Packs `site` in place when it holds more than `maxFiles` files, and splits each file larger
 * than `maxFileBytes`; stops naming a larger file that may not be split.
 *
 * @example
 * packSite('dist', { maxFiles: 20_000 }); // { filesBefore: 57_375, files: 1_076, packs: 251 }
 */
export function packSite(site: string, options: PackOptions): PackResult {
  if (!options.spools) return pack(site, options, null);
  const spools = new Spools(options.spools);
  try {
    return pack(site, options, spools);
  } finally {
    spools.close();
    rmSync(options.spools, { recursive: true, force: true });
  }
}

function pack(site: string, options: PackOptions, spools: Spools | null): PackResult {
  const spooled = spools?.entries ?? new Map<string, SpoolEntry>();
  /** Writes a spooled file out where it belongs: it is not in a pack. */
  const unspool = (path: string) => {
    mkdirSync(dirname(join(site, path)), { recursive: true });
    writeFileSync(join(site, path), spools!.read(spooled.get(path)!));
    spooled.delete(path);
  };
  const bytesOf = (path: string) => (spooled.has(path) ? spools!.read(spooled.get(path)!) : readFileSync(join(site, path)));
  const remove = (path: string) => (spooled.has(path) ? spooled.delete(path) : unlinkSync(join(site, path)));
  const onDisk = listFiles(site);
  // A page Astro's own pipeline wrote may be rendered by a page worker too (the same bytes): one copy.
  for (const f of onDisk) spooled.delete(f.path);
  const files = [...onDisk, ...[...spooled].map(([path, e]) => ({ path, size: e.size }))];
  const limit = options.maxFileBytes;
  const tooBig = limit ? files.filter((f) => f.size > limit) : [];
  const whole = tooBig.filter((f) => !splittable(f.path));
  if (whole.length) throw new Error(`more bytes than the host takes in one file (${limit}): ${whole.map((f) => `${f.path} (${f.size})`).join(', ')}`);
  if (files.length <= options.maxFiles && !tooBig.length) {
    for (const path of [...spooled.keys()]) unspool(path);
    return { filesBefore: files.length, files: files.length, packs: 0 };
  }

  const out = new JsonWriter(site);
  const partBytes = options.partBytes ?? PART_BYTES;
  const entryPartBytes = options.entryPartBytes ?? ENTRY_PART_BYTES;
  const byEntry = limit ? files.filter((f) => readByEntry(f.path) && f.size > entryPartBytes && f.size <= limit) : [];
  const split: Record<string, SplitFile> = {};
  for (const f of [...tooBig, ...byEntry]) {
    if (spooled.has(f.path)) unspool(f.path);
    split[f.path] = splitFile(site, f.path, partBytes, entryPartBytes, out);
  }
  const parts = Object.values(split).reduce((n, s) => n + s.parts, 0);
  if (files.length <= options.maxFiles) {
    for (const path of [...spooled.keys()]) unspool(path);
    out.write(PACK_MANIFEST, { groups: {}, loose: [], digest: '', split } satisfies PackManifest);
    const after = files.length - Object.keys(split).length + parts + 1;
    options.log?.(`  split: ${tooBig.length} files larger than ${limit} bytes${byEntry.length ? ` and ${byEntry.length} read by entry` : ''}, now in ${parts} parts`);
    return { filesBefore: files.length, files: after, packs: 0 };
  }

  const packBytes = options.packBytes ?? PACK_BYTES;
  const groups = new Map<string, { path: string; size: number }[]>();
  const loose: string[] = [];
  let apiCopies = 0;
  for (const f of files) {
    if (split[f.path]) continue;
    // The function answers every /api path; only the document it serves stays.
    if (f.path.startsWith('api/') && f.path !== OPENAPI_PATH) {
      remove(f.path);
      apiCopies++;
      continue;
    }
    const group = packedGroup(f.path, f.size, { packBytes, maxFileBytes: limit, entryPartBytes });
    if (group === null) {
      // A file larger than a pack stays a file (read as one).
      if (packGroup(f.path) !== null) loose.push(f.path);
      if (spooled.has(f.path)) unspool(f.path);
      continue;
    }
    const list = groups.get(group) ?? [];
    list.push(f);
    groups.set(group, list);
  }

  const manifest: PackManifest = { groups: {}, loose: loose.sort(), digest: '', split };
  // The digest is the profile pages' validator: their packs are hashed.
  const digest = createHash('sha256');
  const maxBytes = limit ?? MAX_FILE_BYTES;
  const links = options.linked ?? new Map<string, FrozenLink>();
  let packs = 0;
  let linked = 0;
  let removed = 0;
  for (const group of [...new Set([...groups.keys(), ...links.keys()])].sort()) {
    // The group's files, where the build wrote them (a linked group's may have been left out).
    const members = groups.get(group) ?? [];
    const link = links.get(group);
    if (link) {
      link.sources.forEach((source, n) => out.linkFrom(packFile(group, n), source, 0));
      for (const f of members) remove(f.path);
      (manifest.frozen ??= {})[group] = link.frozen;
      manifest.groups[group] = link.sources.length;
      linked += link.sources.length;
      packs += link.sources.length;
      removed += members.length;
      continue;
    }
    // A past month's group packed now: its key, for the next build to link it forward.
    const key = options.keys?.[group] ? frozenKey(options.keys[group], { packBytes, maxFileBytes: maxBytes }) : null;
    const assigned = assign(group, members, packBytes, maxBytes);
    const hashes: string[] = [];
    for (const file of [...assigned.keys()].sort()) {
      const paths = assigned.get(file)!;
      const bytes = encodePack(paths.map((path) => ({ path, bytes: bytesOf(path) })));
      if (group === 'company') digest.update(bytes);
      if (key) hashes[packNumber(file)] = sha256(bytes);
      out.writeBytes(file, bytes);
      for (const path of paths) remove(path);
    }
    if (key) (manifest.frozen ??= {})[group] = { key, sha256: hashes };
    manifest.groups[group] = assigned.size;
    removed += members.length;
    packs += assigned.size;
  }
  manifest.digest = digest.digest('hex');
  out.write(PACK_MANIFEST, manifest);
  removeEmptyFolders(site, ['company', 'views', 'api']);
  const after = files.length - removed - apiCopies - Object.keys(split).length + parts + packs + 1;
  const splitNote = `${tooBig.length ? `, ${tooBig.length} large files` : ''}${byEntry.length ? `, ${byEntry.length} files read by entry` : ''}${tooBig.length || byEntry.length ? ` in ${parts} parts` : ''}${linked ? `, ${linked.toLocaleString('en-US')} packs of past months linked from the live release` : ''}`;
  options.log?.(
    `  packed: ${files.length.toLocaleString('en-US')} files are more than ${options.maxFiles.toLocaleString('en-US')}; now ${after.toLocaleString('en-US')} files, ${packs.toLocaleString('en-US')} of them packs${splitNote}`,
  );
  return { filesBefore: files.length, files: after, packs, ...(linked ? { linked } : {}) };
}

/** `n` of `packs/{group}/{n}.pack`. */
const packNumber = (file: string) => Number(file.slice(file.lastIndexOf('/') + 1, -'.pack'.length));

/** Removes the folders left empty under each of `roots`. */
function removeEmptyFolders(site: string, roots: string[]): void {
  const prune = (dir: string): boolean => {
    let empty = true;
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (!d.isDirectory() || !prune(join(dir, d.name))) empty = false;
    }
    if (empty) rmdirSync(dir);
    return empty;
  };
  for (const root of roots) {
    const dir = join(site, root);
    if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) prune(dir);
  }
}
