/**
 * The build's caches: what each entry holds, where it lives and the digest of exactly the
 * inputs it was made from (data-and-rules §1.5: a build with the caches equals one without).
 * All in one folder (`EVI_CACHE_DIR`, default `.cache/months`), safe to delete.
 *
 * | entry | made from |
 * |---|---|
 * | parsed month `YYYY-MM-<key>.bin` (aggregate-file.ts) | the month file's bytes, the country and industry lookups |
 * | scored month `scored-YYYY-MM-<key>.json` | the parsed month's key, the registry |
 * | a month's leaderboards and CSV `boards-YYYY-MM-<key>/` | that month's and the previous month's names and keys, the registry |
 * | past month's views `month-views-YYYY-MM-<key>/` | every month up to it, the registry, the site origin, the shard count |
 * | compiled pages `pages-<key>/` | the files Astro's compile reads, the project folder, the site origin, Node's version |
 *
 * Folder entries are hard-linked into the output.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Lookups } from '../../core/aggregate.ts';
import type { Registry } from '../../core/registry.ts';

/** Bump when the aggregate format or the parsing rules change. */
const PARSED_VERSION = 'evi-month-3';
/** Bump when scoring or the stored form changes. */
const SCORED_VERSION = 'evi-scored-2';
/** Bump whenever a past month's stored form changes. */
const MONTH_VIEWS_VERSION = 'evi-month-views-4';

/** Where an entry lives and the digest of its inputs (checked on every read). */
export interface CacheEntryRef {
  path: string;
  key: string;
}

const sha256 = (...parts: (string | Uint8Array)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
};

/** The part of every parsed month's key that the registry's lookups decide. */
export const lookupsHash = (lookups: Lookups): string => sha256(PARSED_VERSION, JSON.stringify(lookups));

/** A parsed month: its key is also the month's content key, which keys what derives from it. */
export function parsedMonthEntry(cacheDir: string, month: string, lookupsKey: string, file: Uint8Array): CacheEntryRef {
  const key = sha256(lookupsKey, file);
  return { path: join(cacheDir, `${month}-${key.slice(0, 32)}.bin`), key };
}

/** A build's registry never changes: its hash is computed once. */
const registryHashes = new WeakMap<Registry, string>();

/** Everything of the registry that scoring reads. */
export function registryHash(reg: Registry): string {
  let hash = registryHashes.get(reg);
  if (hash === undefined) {
    const h = createHash('sha256').update(SCORED_VERSION);
    h.update(JSON.stringify([reg.countries, reg.industries]));
    for (const c of reg.companies) h.update(JSON.stringify([c.slug, c.name, c.industries, c.countries, c.aliases, c.trackedSince]));
    hash = h.digest('hex');
    registryHashes.set(reg, hash);
  }
  return hash;
}

/** A scored month (not the current one: it carries no board details). */
export function scoredMonthEntry(cacheDir: string, month: string, contentKey: string, regHash: string): CacheEntryRef {
  const key = sha256(contentKey, regHash);
  return { path: join(cacheDir, `scored-${month}-${key.slice(0, 32)}.json`), key };
}

/** A past month's views: they depend on the months up to it (content keys, oldest first). */
export function monthViewsEntry(cacheDir: string, month: string, o: { regHash: string; shards: number; contentKeys: string[] }): CacheEntryRef {
  const key = sha256(MONTH_VIEWS_VERSION, o.regHash, String(o.shards), o.contentKeys.join('\n'));
  return { path: join(cacheDir, `month-views-${month}-${key.slice(0, 32)}`), key };
}

/** Bump whenever a month's leaderboards or their CSV change. */
const BOARDS_VERSION = 'evi-boards-2';

/** A month's leaderboards and CSV: they depend on this and the previous month (previous ranks) and the registry. */
export function boardsEntry(cacheDir: string, month: string, o: { regHash: string; contentKey: string; previous: { month: string; contentKey: string } | null }): CacheEntryRef {
  const key = sha256(BOARDS_VERSION, o.regHash, month, o.contentKey, o.previous ? `${o.previous.month}\n${o.previous.contentKey}` : '');
  return { path: join(cacheDir, `boards-${month}-${key.slice(0, 32)}`), key };
}

/** Bump whenever what the compiled-pages entry holds, or how a hit renders from it, changes. */
export const PAGES_VERSION = 'evi-pages-1';

/** The modules Astro compiled for the pages, its client assets and every route's recipe. */
export function pagesEntry(cacheDir: string, inputsKey: string): CacheEntryRef {
  const key = sha256(PAGES_VERSION, inputsKey);
  return { path: join(cacheDir, `pages-${key.slice(0, 32)}`), key };
}
