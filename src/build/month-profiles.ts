/**
 * The company views and search rankings of every past month (service-spec §4 with
 * `month`): what `/company/{slug}?month=`, `/compare?month=` and `/search?month=` answer
 * from. A past month's views depend only on the months up to it, the registry and the
 * site origin, so they are cached under a key of exactly those: an incremental build
 * copies them, and only a registry change or a new past month scores a month again
 * with its board details.
 */
import type { Company } from '../core/registry.ts';
import { scoreMonth, type MonthResult } from '../core/score.ts';
import { companyViews, searchRankings, type SiteInput } from '../core/views/build-views.ts';
import { shardOf, viewPaths, type CompanyView, type MetaView } from '../core/views/layout.ts';
import type { LoadedData } from './load-data.ts';
import type { JsonWriter } from './write-json.ts';
import { readCacheFolder, writeCacheFolder } from './cache-file.ts';
import { monthViewsEntry, registryHash } from './caches.ts';

/** The views of month `i`, as `[path under views/, JSON text]`. */
function monthFiles(input: SiteInput, meta: MetaView, i: number, detailed: MonthResult): [string, string][] {
  const month = detailed.month;
  const monthInput: SiteInput = { ...input, results: [...input.results.slice(0, i), detailed] };
  const shards = new Map<number, Record<string, CompanyView>>();
  const views: CompanyView[] = [];
  for (const view of companyViews(monthInput, meta)) {
    if (view.defaultCountry === null) continue;
    for (const profile of Object.values(view.profiles)) delete (profile as { lastUpdated?: string }).lastUpdated;
    views.push(view);
    const n = shardOf(view.slug, meta.companyShards);
    let shard = shards.get(n);
    if (!shard) shards.set(n, (shard = {}));
    shard[view.slug] = view;
  }
  const strip = (path: string) => path.slice('views/'.length);
  const files: [string, string][] = [...shards].sort(([a], [b]) => a - b).map(([n, shard]) => [strip(viewPaths.companyShard(month, n)), JSON.stringify(shard)]);
  files.push([strip(viewPaths.monthSearchRankings(month)), JSON.stringify(searchRankings({ ...meta, month }, views))]);
  return files;
}

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
    const keys = data.contentKey.slice(0, i + 1);
    const entry =
      cacheDir && keys.every((k) => k !== null)
        ? monthViewsEntry(cacheDir, input.results[i]!.month, { siteUrl: meta.siteUrl, regHash, shards: meta.companyShards, contentKeys: keys as string[] })
        : null;
    const cached = entry ? await readCacheFolder(entry.path, entry.key, opts.log) : null;
    if (cached) {
      fromCache++;
      for (const { path, file, bytes } of cached) views.linkFrom(path, file, bytes);
      continue;
    }
    const detailed = scoreMonth(reg, await data.aggregate(i), pools, true);
    const files = monthFiles(input, meta, i, detailed).map(([file, text]) => [file, Buffer.from(text)] as [string, Uint8Array]);
    for (const [file, bytes] of files) views.writeBytes(file, bytes);
    if (entry) await writeCacheFolder(entry.path, entry.key, files);
  }
  return { months: last, fromCache };
}
