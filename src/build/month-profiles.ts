/**
 * The company views and search rankings of every past month (service-spec §4 with
 * `month`): what `/company/{slug}?month=`, `/compare?month=` and `/search?month=` answer
 * from. A past month's views depend only on the months up to it, the registry and the
 * site origin, so they are cached under a key of exactly those and linked into the
 * output. The current month's views are stored under that key too, so the next build
 * (one month more) links them as well: only a registry change scores a past month again
 * with its board details.
 */
import type { Company } from '../core/registry.ts';
import { scoreMonth } from '../core/score.ts';
import type { CompanyProfile } from '../core/schemas/responses.ts';
import { encodeSearchRankings } from '../core/search/rankings.ts';
import { companyViews, searchRankings, type SiteInput } from '../core/views/build-views.ts';
import { shardOf, viewPaths, type CompanyView, type MetaView } from '../core/views/layout.ts';
import type { LoadedData } from './load-data.ts';
import type { JsonWriter } from './write-json.ts';
import { hasCacheFolder, putCachedFolder, writeCacheFolder } from './cache-file.ts';
import { monthViewsEntry, registryHash } from './caches.ts';

/**
 * A month's company views as files (paths under views/): shards of the companies with
 * data that month, without `lastUpdated` (added when shaped), and its search rankings.
 */
function* shardFiles(meta: MetaView, month: string, all: Iterable<CompanyView>): Generator<[string, Uint8Array]> {
  const shards = new Map<number, Record<string, CompanyView>>();
  const views: CompanyView[] = [];
  for (const view of all) {
    if (view.defaultCountry === null) continue;
    const profiles: Record<string, CompanyProfile> = {};
    for (const [code, profile] of Object.entries(view.profiles)) {
      const { lastUpdated: _, ...rest } = profile;
      profiles[code] = rest as CompanyProfile;
    }
    const past = { ...view, profiles };
    views.push(past);
    const n = shardOf(view.slug, meta.companyShards);
    let shard = shards.get(n);
    if (!shard) shards.set(n, (shard = {}));
    shard[view.slug] = past;
  }
  // One shard's text at a time: the month's views are ~75 MB of JSON at reference scale.
  const strip = (path: string) => path.slice('views/'.length);
  for (const [n, shard] of [...shards].sort(([a], [b]) => a - b)) yield [strip(viewPaths.companyShard(month, n)), Buffer.from(JSON.stringify(shard))];
  const rankings = searchRankings({ ...meta, month }, views);
  yield [strip(viewPaths.monthSearchRankings(month)), Buffer.from(JSON.stringify(rankings))];
  // the same in binary form, which the API reads in place (src/core/search/rankings.ts)
  yield [strip(viewPaths.monthSearchRankingsBinary(month)), encodeSearchRankings(rankings)];
}

/** The cache entry of month `i`'s views, null without a cache. */
function entryOf(data: LoadedData, meta: MetaView, cacheDir: string | null, regHash: string, i: number) {
  const keys = data.contentKey.slice(0, i + 1);
  return cacheDir && keys.every((k) => k !== null)
    ? monthViewsEntry(cacheDir, data.months[i]!.month, { siteUrl: meta.siteUrl, regHash, shards: meta.companyShards, contentKeys: keys as string[] })
    : null;
}

/** Writes the views of every past month: linked from the cache, or scored again with board details and made. */
export async function writeMonthViews(opts: {
  data: LoadedData;
  pools: Map<string, Company[]>;
  input: SiteInput;
  meta: MetaView;
  views: JsonWriter;
  cacheDir: string | null;
  log: (line: string) => void;
}): Promise<{ months: number; fromCache: number }> {
  const { data, pools, input, meta, views, cacheDir } = opts;
  const last = input.results.length - 1;
  const reg = data.registry;
  const regHash = cacheDir ? registryHash(reg) : '';
  let fromCache = 0;
  for (let i = 0; i < last; i++) {
    const put = await putCachedFolder(
      views,
      entryOf(data, meta, cacheDir, regHash, i),
      async () => {
        const detailed = scoreMonth(reg, await data.aggregate(i), pools, true);
        const monthInput: SiteInput = { ...input, results: [...input.results.slice(0, i), detailed] };
        return { files: shardFiles(meta, detailed.month, companyViews(monthInput, meta)), info: {} };
      },
      opts.log,
    );
    if (put.fromCache) fromCache++;
  }
  return { months: last, fromCache };
}

/**
 * Stores the current month's views as the cache entry of that month as a past month,
 * which the next build (one month more) links instead of scoring this month again: they
 * are the same views, made from the same months, registry and origin. Returns whether it
 * stored them (not when there is no cache, or the entry is there already).
 */
export async function storeCurrentMonthViews(opts: { data: LoadedData; meta: MetaView; companies: CompanyView[]; cacheDir: string | null; log: (line: string) => void }): Promise<boolean> {
  const { data, meta, cacheDir } = opts;
  const i = data.months.length - 1;
  const ref = entryOf(data, meta, cacheDir, cacheDir ? registryHash(data.registry) : '', i);
  if (!ref || (await hasCacheFolder(ref.path, ref.key))) return false;
  await writeCacheFolder(ref.path, ref.key, shardFiles(meta, meta.month, opts.companies));
  return true;
}
