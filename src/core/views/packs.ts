/**
 * The packed layout: on a deployment that runs the function, a site that would pass its
 * file limit keeps the files that grow with companies (profiles and their pages, past
 * months' company records, each month's leaderboards) in pack files, a few megabytes each.
 * A pack is read whole and one entry decoded from it by offset, so a request costs one
 * read, however many companies there are.
 *
 * Which pack holds a path follows from the path alone: its group (a folder, by the rules
 * below) and FNV-1a of the path modulo the group's pack count, which the manifest
 * (`packs/index.json`) records.
 *
 * A pack: `EVIP`, the header's length (u32, little-endian), the header (JSON: the entries'
 * paths, sorted, and the offset where each one's bytes end), then the entries' bytes.
 *
 * A file larger than a host takes in one (Cloudflare's 25 MiB) is split: its bytes cut into
 * parts (`packs/parts/{path}.{n}`), which the function reads and answers joined, in order.
 * Only the views (read by the function) and the public files it answers when split
 * (`splitRoute`) may be split.
 */
import { shardOf } from './layout.ts';

/** Where the manifest lives in the output. */
export const PACK_MANIFEST = 'packs/index.json';

export interface PackManifest {
  /** The group of each packed folder -> its number of packs. */
  groups: Record<string, number>;
  /** Files of packed groups left as files, each larger than a pack (a month's search rankings at scale). */
  loose: string[];
  /** A digest of the profile pages' packs: their validator, changed whenever a page is. */
  digest: string;
  /** Files kept in parts -> their parts, size and SHA-256. */
  split: Record<string, SplitFile>;
  /**
   * Groups whose content the build knew by digest (a past month's folders) -> that digest and
   * each pack's SHA-256: the next build links such packs from this release instead of packing again.
   */
  frozen?: Record<string, FrozenGroup>;
}

export interface FrozenGroup {
  key: string;
  sha256: string[];
}

export interface SplitFile {
  parts: number;
  bytes: number;
  sha256: string;
  /** Where each part ends in the file (absent in a manifest of an older build). */
  ends?: number[];
}

/** Part `n` of a split file. */
export const partFile = (path: string, n: number): string => `packs/parts/${path}.${n}`;

/** The public files of the views folder (the pages' search box fetches them). */
export const PUBLIC_VIEWS: ReadonlySet<string> = new Set(['views/search-index.json', 'views/search-rankings.json']);

/**
 * Is the file at `path` a binary view whose entries the function reads a few at a time (a
 * month's search rankings)? On a host with a file limit it is kept in small parts, however
 * large, so that a request reads the parts of the entries it needs.
 */
export const readByEntry = (path: string): boolean => /^views\/(months\/\d{4}-\d{2}\/)?search-rankings\.bin$/.test(path);

/** May the file at `path` be split? The views, which the function reads, and what `splitRoute` answers. */
export const splittable = (path: string): boolean => path.startsWith('views/') || path.startsWith('downloads/');

/**
 * The file a site path asks for when the function answers it from parts: the downloads and
 * the public views; `null` for any other path (served as a file).
 */
export function splitRoute(pathname: string): string | null {
  const path = decodeSlug(pathname.slice(1));
  return path.startsWith('downloads/') || PUBLIC_VIEWS.has(path) ? path : null;
}

const MAGIC = [0x45, 0x56, 0x49, 0x50]; // "EVIP"

/**
 * The group a path is packed in, or `null` for a file that stays a file: the profile pages,
 * the current profiles, and each month's leaderboards and company records.
 */
export function packGroup(path: string): string | null {
  if (/^company\/[^/]+\/index\.html$/.test(path)) return 'company';
  if (/^views\/company\/[^/]+\.json$/.test(path)) return 'views/company';
  const month = /^views\/(rankings|months)\/(\d{4}-\d{2})\//.exec(path);
  return month ? `views/${month[1]}/${month[2]}` : null;
}

/** What a pack aims at: read whole by a request, so a few megabytes. */
export const PACK_BYTES = 4 * 1024 * 1024;
/** The parts of the entries of a view read by entry (`readByEntry`): a request reads the few holding its entries. */
export const ENTRY_PART_BYTES = 256 * 1024;

/** How a build cuts its files: a host's limit for one file (none: `null`), a pack's and an entry part's size. */
export interface PackSizes {
  maxFileBytes?: number | null;
  packBytes?: number;
  entryPartBytes?: number;
}

/**
 * The group whose packs hold the file at `path` of `size` bytes when the site is packed, or
 * `null`: a file of no group, one kept in parts (larger than the host takes in one file, or
 * a view read by entry on such a host), or one larger than a pack (left a file).
 */
export function packedGroup(path: string, size: number, o: PackSizes = {}): string | null {
  const limit = o.maxFileBytes;
  if (limit && (size > limit || (readByEntry(path) && size > (o.entryPartBytes ?? ENTRY_PART_BYTES)))) return null;
  return size <= (o.packBytes ?? PACK_BYTES) ? packGroup(path) : null;
}

/** Pack number `n` of a group. */
export const packFile = (group: string, n: number): string => `packs/${group}/${n}.pack`;

/** The pack file of entry `path` in a group of `count` packs. */
export const packPath = (group: string, path: string, count: number): string => packFile(group, shardOf(path, count));

const utf8 = new TextEncoder();

/** One pack's bytes from its entries (any order; they are sorted by path). */
export function encodePack(entries: { path: string; bytes: Uint8Array }[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let end = 0;
  const ends = sorted.map((e) => (end += e.bytes.byteLength));
  const header = utf8.encode(JSON.stringify({ paths: sorted.map((e) => e.path), ends }));
  const out = new Uint8Array(8 + header.byteLength + end);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, header.byteLength, true);
  out.set(header, 8);
  let at = 8 + header.byteLength;
  for (const e of sorted) {
    out.set(e.bytes, at);
    at += e.bytes.byteLength;
  }
  return out;
}

/**
 * A pack read in place: its header parsed once, an entry's bytes viewed without copying.
 *
 * @example
 * new Pack(bytes).get('views/company/acme.json'); // Uint8Array | null
 */
export class Pack {
  readonly bytes: Uint8Array;
  readonly #paths: string[];
  readonly #ends: number[];
  readonly #base: number;

  constructor(bytes: Uint8Array) {
    if (bytes.byteLength < 8 || MAGIC.some((b, i) => bytes[i] !== b)) throw new Error('not a pack file');
    const length = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length))) as { paths: string[]; ends: number[] };
    this.bytes = bytes;
    this.#paths = header.paths;
    this.#ends = header.ends;
    this.#base = 8 + length;
    if (this.#base + (this.#ends.at(-1) ?? 0) !== bytes.byteLength) throw new Error('pack file is truncated');
  }

  /** The entry's bytes, `null` when the pack has no such path. */
  get(path: string): Uint8Array | null {
    let lo = 0;
    let hi = this.#paths.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.#paths[mid]!;
      if (p === path) return this.bytes.subarray(this.#base + (mid ? this.#ends[mid - 1]! : 0), this.#base + this.#ends[mid]!);
      if (p < path) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  /** Every path in the pack, sorted. */
  paths(): readonly string[] {
    return this.#paths;
  }
}

/**
 * The profile page a site path asks for in a packed layout: `page` for `/company/{slug}/`,
 * `redirect` for the forms a static host sends on to it (`/company/{slug}`,
 * `/company/{slug}/index.html`); `null` for any other path.
 */
export function profilePagePath(pathname: string): { page: string } | { page: string; redirect: string } | null {
  const m = /^\/company\/([^/]+)(\/|\/index\.html)?$/.exec(pathname);
  if (!m) return null;
  const page = `company/${decodeSlug(m[1]!)}/index.html`;
  return m[2] ? { page } : { page, redirect: `/company/${m[1]}/` };
}

function decodeSlug(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
