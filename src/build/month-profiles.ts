/**
 * The company views and search rankings of every past month (service-spec §4 with
 * `month`): what `/company/{slug}?month=`, `/compare?month=` and `/search?month=` answer
 * from. A past month's views depend only on the months up to it, the registry and the
 * site origin, so they are cached under a key of exactly those: an incremental build
 * copies them, and only a registry change or a new past month scores a month again
 * with its board details.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Company } from '../core/registry.ts';
import { scoreMonth, type MonthResult } from '../core/score.ts';
import { encodeSearchRankings } from '../core/search/rankings.ts';
import { companyViews, searchRankings, type SiteInput } from '../core/views/build-views.ts';
import { shardOf, viewPaths, type CompanyView, type MetaView } from '../core/views/layout.ts';
import type { LoadedData } from './load-data.ts';
import { registryHash } from './score-months.ts';
import type { JsonWriter } from './write-json.ts';
import { readCacheFolder, writeCacheFolder } from './cache-file.ts';

/** Bump whenever a past month's views change (their shape, a summary sentence, a field). */
const VERSION = 'evi-month-views-3';

/** The views of month `i`, as `[path under views/, bytes]`. */
function monthFiles(input: SiteInput, meta: MetaView, i: number, detailed: MonthResult): [string, Uint8Array][] {
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
  const files: [string, Uint8Array][] = [...shards].sort(([a], [b]) => a - b).map(([n, shard]) => [strip(viewPaths.companyShard(month, n)), Buffer.from(JSON.stringify(shard))]);
  const rankings = searchRankings({ ...meta, month }, views);
  files.push([strip(viewPaths.monthSearchRankings(month)), Buffer.from(JSON.stringify(rankings))]);
  // the same in binary form, which the API reads in place (src/core/search/rankings.ts)
  files.push([strip(viewPaths.monthSearchRankingsBinary(month)), encodeSearchRankings(rankings)]);
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
  const base = cacheDir ? createHash('sha256').update(VERSION).update(meta.siteUrl).update(registryHash(reg)).update(String(meta.companyShards)) : null;
  let fromCache = 0;
  for (let i = 0; i < last; i++) {
    const keys = data.contentKey.slice(0, i + 1);
    const inputs = base && keys.every((k) => k !== null) ? base.copy().update(keys.join('\n')).digest('hex') : null;
    const dir = inputs && cacheDir ? join(cacheDir, `month-views-${input.results[i]!.month}-${inputs.slice(0, 32)}`) : null;
    const cached = dir ? await readCacheFolder(dir, inputs!, opts.log) : null;
    if (cached) {
      fromCache++;
      for (const { path, file, bytes } of cached) views.linkFrom(path, file, bytes);
      continue;
    }
    const detailed = scoreMonth(reg, await data.aggregate(i), pools, true);
    const files = monthFiles(input, meta, i, detailed);
    for (const [file, bytes] of files) views.writeBytes(file, bytes);
    if (dir) await writeCacheFolder(dir, inputs!, files);
  }
  return { months: last, fromCache };
}
