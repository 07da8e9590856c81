/**
 * What a month publishes, as the release ledger records it: per folder, the digest of its
 * files' names and contents. Files whose digest this build already knows are not read again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PACK_MANIFEST, Pack, packFile, packGroup, packPath, partFile, type PackManifest } from '../../core/views/packs.ts';
import { knownDigest } from './known-digests.ts';

const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** The folders under the site root that hold month `month`'s published files. */
export const monthFolders = (month: string) => [`views/rankings/${month}`, `views/months/${month}`, `downloads/${month}`];

/** Every file under `dir` (relative paths, sorted). */
function filesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  let names: import('node:fs').Dirent[];
  try {
    names = readdirSync(join(dir, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const d of names) {
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    if (d.isDirectory()) out.push(...filesUnder(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** How many files {@link fileDigest} read and hashed, for the build's log. */
export const hashed = { files: 0, bytes: 0 };

/**
 * A file's SHA-256, known or read and hashed. With `origin`, the site's origin is hashed as
 * `{origin}`, so a month built for another origin has the same digests.
 */
export function fileDigest(path: string, origin?: string): string {
  const st = statSync(path, { bigint: true });
  const known = knownDigest(st);
  if (known) return known;
  hashed.files++;
  hashed.bytes += Number(st.size);
  const bytes = readFileSync(path);
  return origin && bytes.includes(origin) ? sha(bytes.toString('utf8').replaceAll(origin, '{origin}')) : sha(bytes);
}

/** Month `month`'s folders of published files under `site` -> the digest of each. */
export function monthFileDigests(site: string, month: string, origin: string): Record<string, string> {
  const lines = new Map<string, string[]>();
  for (const root of monthFolders(month)) {
    for (const rel of filesUnder(join(site, root))) {
      const parts = `${root}/${rel}`.split('/');
      const folder = parts.slice(0, -1).join('/');
      let list = lines.get(folder);
      if (!list) lines.set(folder, (list = []));
      list.push(`${parts[parts.length - 1]} ${fileDigest(join(site, root, rel), origin)}`);
    }
  }
  return Object.fromEntries([...lines.keys()].sort().map((k) => [k, sha(lines.get(k)!.join('\n')).slice(0, 16)]));
}

export const sha256Hex = (text: string) => sha(text);

/** The JSON value of a published file (gzip undone), or undefined when it is not JSON. */
function jsonOf(path: string, bytes: Buffer): unknown {
  try {
    return JSON.parse((path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The files of a built site, one file per path or packed (src/core/views/packs.ts). */
class SiteFiles {
  readonly #manifest: PackManifest | null;
  readonly #packs = new Map<string, Pack>();

  constructor(readonly root: string) {
    const manifest = join(root, PACK_MANIFEST);
    this.#manifest = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as PackManifest) : null;
  }

  /** The packs of the group that holds the files of `folder`, if it is packed. */
  #group(folder: string): { group: string; count: number } | null {
    const group = packGroup(`${folder}/x`);
    const count = group === null ? undefined : this.#manifest?.groups[group];
    return count ? { group: group!, count } : null;
  }

  #pack(file: string): Pack {
    let pack = this.#packs.get(file);
    if (!pack) this.#packs.set(file, (pack = new Pack(readFileSync(join(this.root, file)))));
    return pack;
  }

  /** The names of the files directly in `folder`. */
  names(folder: string): string[] {
    // Files on disk: all of an unpacked folder, the loose ones of a packed one; then the split ones.
    const names = filesUnder(join(this.root, folder)).filter((rel) => !rel.includes('/'));
    for (const path of Object.keys(this.#manifest?.split ?? {})) {
      if (path.startsWith(`${folder}/`) && !path.slice(folder.length + 1).includes('/')) names.push(path.slice(folder.length + 1));
    }
    const packed = this.#group(folder);
    if (!packed) return names;
    for (let n = 0; n < packed.count; n++) {
      for (const path of this.#pack(packFile(packed.group, n)).paths()) {
        const rel = path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : null;
        if (rel && !rel.includes('/')) names.push(rel);
      }
    }
    return names;
  }

  bytes(path: string): Buffer | null {
    if (existsSync(join(this.root, path))) return readFileSync(join(this.root, path));
    const split = this.#manifest?.split?.[path];
    if (split) return Buffer.concat(Array.from({ length: split.parts }, (_, n) => readFileSync(join(this.root, partFile(path, n)))));
    const packed = this.#group(path.slice(0, path.lastIndexOf('/')));
    if (!packed) return null;
    const entry = this.#pack(packPath(packed.group, path, packed.count)).get(path);
    return entry ? Buffer.from(entry) : null;
  }
}

/** Up to `max` paths of fields whose values differ between two JSON values (`a.b[3].c: 1 -> 2`). */
export function fieldChanges(a: unknown, b: unknown, max = 5, at = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  const isObj = (x: unknown) => typeof x === 'object' && x !== null;
  if (!isObj(a) || !isObj(b) || Array.isArray(a) !== Array.isArray(b)) {
    const show = (x: unknown) => (x === undefined ? 'absent' : JSON.stringify(x).slice(0, 60));
    return [`${at || '(whole file)'}: ${show(a)} -> ${show(b)}`];
  }
  const out: string[] = [];
  const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
  for (const k of keys) {
    if (out.length >= max) break;
    const path = Array.isArray(a) ? `${at}[${k}]` : at ? `${at}.${k}` : k;
    out.push(...fieldChanges((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], max - out.length, path));
  }
  return out;
}

/** For a stop: in each changed folder, the files that differ from the live release's (packed or not). */
export function describeFileChanges(site: string, live: string | null, folders: string[], max = 10): string[] {
  if (!live) return folders.map((f) => `${f}/: changed (no live release to compare with)`);
  const now = new SiteFiles(site);
  const was = new SiteFiles(live);
  const lines: string[] = [];
  for (const folder of folders) {
    const names = new Set([...now.names(folder), ...was.names(folder)]);
    for (const name of [...names].sort()) {
      if (lines.length >= max) return [...lines, '...'];
      const file = `${folder}/${name}`;
      const a = was.bytes(file);
      const b = now.bytes(file);
      if (a && b && a.equals(b)) continue;
      if (!a || !b) lines.push(`${file}: ${a ? 'removed' : 'added'}`);
      else {
        const fields = fieldChanges(jsonOf(file, a), jsonOf(file, b));
        lines.push(`${file}: ${fields.length ? fields.join('; ') : 'content changed'}`);
      }
    }
  }
  return lines;
}
