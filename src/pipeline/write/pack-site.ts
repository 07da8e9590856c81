/**
 * The packed layout (src/core/views/packs.ts): a site for a deployment that runs the function
 * which would pass the file limit gets its files that grow with companies and months put
 * into packs, and loses the static `/api` copies the function answers anyway. A site within
 * the limit, or one for a static host, stays one file per URL.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAPI_PATH } from '../../api/index.ts';
import { PACK_MANIFEST, encodePack, packGroup, packPath, type PackManifest } from '../../core/views/packs.ts';
import { JsonWriter } from './write-json.ts';

/** What a pack aims at: read whole by a request, so a few megabytes. */
export const PACK_BYTES = 4 * 1024 * 1024;
/** Cloudflare's limit for one file of a Worker's assets or a Pages site. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

export interface PackOptions {
  /** Above this many files the site is packed. */
  maxFiles: number;
  /** A host's limit for one file (Cloudflare's): the build stops naming a larger file. */
  maxFileBytes?: number | null;
  packBytes?: number;
  log?: (line: string) => void;
}

export interface PackResult {
  /** Files before and after; equal when nothing was packed. */
  filesBefore: number;
  files: number;
  packs: number;
}

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

/** Assigns a group's files to packs, doubling the count until none passes the file limit. */
function assign(group: string, files: { path: string; size: number }[], packBytes: number): Map<string, string[]> {
  const total = files.reduce((n, f) => n + f.size, 0);
  for (let count = Math.max(1, Math.ceil(total / packBytes)); ; count *= 2) {
    const packs = new Map<string, { paths: string[]; bytes: number }>();
    for (const f of files) {
      const file = packPath(group, f.path, count);
      const p = packs.get(file) ?? { paths: [], bytes: 0 };
      p.paths.push(f.path);
      p.bytes += f.size;
      packs.set(file, p);
    }
    if ([...packs.values()].every((p) => p.bytes <= MAX_FILE_BYTES - 1024 * 1024 || p.paths.length === 1)) {
      return new Map([...packs].map(([file, p]) => [file, p.paths]));
    }
  }
}

/**
 * Packs `site` in place when it holds more than `maxFiles` files; stops when a file passes
 * `maxFileBytes`.
 *
 * @example
 * packSite('dist', { maxFiles: 20_000 }); // { filesBefore: 57_375, files: 1_076, packs: 251 }
 */
export function packSite(site: string, options: PackOptions): PackResult {
  const files = listFiles(site);
  const limit = options.maxFileBytes;
  const tooBig = limit ? files.filter((f) => f.size > limit) : [];
  if (tooBig.length) throw new Error(`more bytes than the host takes in one file (${limit}): ${tooBig.map((f) => `${f.path} (${f.size})`).join(', ')}`);
  if (files.length <= options.maxFiles) return { filesBefore: files.length, files: files.length, packs: 0 };

  const packBytes = options.packBytes ?? PACK_BYTES;
  const groups = new Map<string, { path: string; size: number }[]>();
  const loose: string[] = [];
  let apiCopies = 0;
  for (const f of files) {
    // The function answers every /api path; only the document it serves stays.
    if (f.path.startsWith('api/') && f.path !== OPENAPI_PATH) {
      unlinkSync(join(site, f.path));
      apiCopies++;
      continue;
    }
    const group = packGroup(f.path);
    if (group === null) continue;
    // A file larger than a pack stays a file (read as one).
    if (f.size > packBytes) {
      loose.push(f.path);
      continue;
    }
    const list = groups.get(group) ?? [];
    list.push(f);
    groups.set(group, list);
  }

  const manifest: PackManifest = { groups: {}, loose: loose.sort(), digest: '' };
  // The digest is the profile pages' validator: their packs are hashed.
  const digest = createHash('sha256');
  let packs = 0;
  let removed = 0;
  const out = new JsonWriter(site);
  for (const group of [...groups.keys()].sort()) {
    const members = groups.get(group)!;
    const assigned = assign(group, members, packBytes);
    for (const file of [...assigned.keys()].sort()) {
      const paths = assigned.get(file)!;
      const bytes = encodePack(paths.map((path) => ({ path, bytes: readFileSync(join(site, path)) })));
      if (group === 'company') digest.update(bytes);
      out.writeBytes(file, bytes);
      for (const path of paths) unlinkSync(join(site, path));
    }
    manifest.groups[group] = assigned.size;
    removed += members.length;
    packs += assigned.size;
  }
  manifest.digest = digest.digest('hex');
  out.write(PACK_MANIFEST, manifest);
  removeEmptyFolders(site, ['company', 'views', 'api']);
  const after = files.length - removed - apiCopies + packs + 1;
  options.log?.(
    `  packed: ${files.length.toLocaleString('en-US')} files are more than ${options.maxFiles.toLocaleString('en-US')}; now ${after.toLocaleString('en-US')} files, ${packs.toLocaleString('en-US')} of them packs`,
  );
  return { filesBefore: files.length, files: after, packs };
}

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
