/**
 * Scores every month, oldest first. A month that is not the current one is scored the
 * same way until its file or the registry changes, so its result is cached beside the
 * parsed months, keyed by both: an incremental build scores only the new current month
 * (whose board details the profiles need); the current month's entry is written for the
 * build after.
 */
import type { MonthAggregate } from '../core/aggregate.ts';
import type { Company } from '../core/registry.ts';
import { loadMonthResult, scoreMonth, storeMonthResult, type MonthResult, type StoredMonthResult } from '../core/score.ts';
import type { LoadedData } from './load-data.ts';
import { readCacheJson, writeCacheEntry } from './cache-file.ts';
import { registryHash, scoredMonthEntry } from './caches.ts';

/** What the report needs of a month, kept beside its scored result. */
export type MonthStats = Pick<MonthAggregate, 'month' | 'rows' | 'scoredRows' | 'researchRows' | 'emptyCompanyRows' | 'researchModels' | 'latestDate'> & { themes: string[] };

function statsOf(agg: MonthAggregate): MonthStats {
  const themes = new Set<string>();
  for (const c of agg.contexts) for (const [, t] of c.combos) themes.add(t);
  const { month, rows, scoredRows, researchRows, emptyCompanyRows, researchModels, latestDate } = agg;
  return { month, rows, scoredRows, researchRows, emptyCompanyRows, researchModels, latestDate, themes: [...themes] };
}

export async function* scoreMonths(
  data: LoadedData,
  pools: Map<string, Company[]>,
  cacheDir: string | null,
  warn: (line: string) => void = () => {},
): AsyncGenerator<{ result: MonthResult; stats: MonthStats; cached: boolean }> {
  const last = data.months.length - 1;
  const regHash = cacheDir ? registryHash(data.registry) : '';
  for (let i = 0; i <= last; i++) {
    const key = data.contentKey[i];
    const entry = cacheDir && key ? scoredMonthEntry(cacheDir, data.months[i]!.month, key, regHash) : null;
    // The current month is scored again with its board details; its entry (details left
    // out) is stored for the next build, where it is a past month.
    const stored = entry && i < last ? await readCacheJson<{ result: StoredMonthResult; stats: MonthStats }>(entry.path, entry.key, warn) : null;
    if (stored) {
      yield { result: loadMonthResult(stored.result), stats: stored.stats, cached: true };
      continue;
    }
    const agg = await data.aggregate(i);
    const result = scoreMonth(data.registry, agg, pools, i === last);
    const stats = statsOf(agg);
    if (entry) await writeCacheEntry(entry.path, entry.key, JSON.stringify({ result: storeMonthResult(result), stats }));
    yield { result, stats, cached: false };
  }
}
