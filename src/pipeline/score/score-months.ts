/**
 * Scores every month, oldest first. A past month's result is cached, keyed by its file and the
 * registry, so an incremental build scores only the new current month. Past months are scored
 * on worker threads (score-worker.ts), each reading its own aggregate, while this thread scores
 * the current month; their packed board details go to their records job (write-months.ts) so
 * it does not score them again.
 */
import { existsSync, statSync } from 'node:fs';
import type { MonthColumns } from '../../core/aggregate.ts';
import type { Company, Registry } from '../../core/registry.ts';
import { loadMonthResult, packDetails, scoreMonth, storeMonthResult, type MonthResult, type PackedDetails, type StoredMonthResult } from '../../core/score.ts';
import { monthRecord } from '../release/ledger.ts';
import { readColumns, type AggregateSource, type LoadedData } from '../read/load-data.ts';
import type { MonthRecord } from '../../core/schemas/ledger.ts';
import { readCacheJson, writeCacheEntry } from '../cache/cache-file.ts';
import { registryHash, scoredMonthEntry, type CacheEntryRef } from '../cache/caches.ts';
import { WorkerPool, defaultWorkers } from '../workers/worker-pool.ts';

/** What the report needs of a month, kept beside its scored result. */
export type MonthStats = Pick<MonthColumns, 'month' | 'rows' | 'scoredRows' | 'researchRows' | 'emptyCompanyRows' | 'researchModels' | 'latestDate'> & { themes: string[] };

function statsOf(agg: MonthColumns): MonthStats {
  const themes = new Set<string>();
  for (const c of agg.contexts) for (const [, t] of c.combos) themes.add(t);
  const { month, rows, scoredRows, researchRows, emptyCompanyRows, researchModels, latestDate } = agg;
  return { month, rows, scoredRows, researchRows, emptyCompanyRows, researchModels, latestDate, themes: [...themes] };
}

export interface Scored {
  result: MonthResult;
  stats: MonthStats;
  cached: boolean;
  /** The month's ledger record, cached with the result so past boards are not hashed again. */
  record: MonthRecord;
  /** A past month scored from its aggregate: its packed board details, for its records job. */
  details?: PackedDetails;
}

/** What a scored month's cache entry holds. */
interface StoredScored {
  result: StoredMonthResult;
  stats: MonthStats;
  record?: MonthRecord;
}

/** One past month to score: its cache entry (null without a cache) and where its aggregate is. */
export interface ScoreJob {
  entry: CacheEntryRef | null;
  source: AggregateSource;
}

/**
 * The scoring workers start only when the parsed months to score add up to this many bytes:
 * below it, their start costs more than they save.
 */
export const POOL_MIN_BYTES = 32 * 1048576;

/** A scoring worker's heap cap: it holds one month's aggregate while it scores it. */
const SCORE_WORKER_HEAP_MB = 1024;

/**
 * A past month's result: from its cache entry (no board details), or scored from its
 * aggregate with its board details and stored there (details left out).
 */
export async function scorePastMonth(reg: Registry, pools: Map<string, Company[]>, job: ScoreJob, warn: (line: string) => void): Promise<Scored> {
  const stored = job.entry ? await readCacheJson<StoredScored>(job.entry.path, job.entry.key, warn) : null;
  if (stored) {
    const result = loadMonthResult(stored.result);
    return { result, stats: stored.stats, cached: true, record: stored.record ?? monthRecord(reg, result) };
  }
  const scored = await scoreAndStore(reg, pools, await readColumns(job.source, warn), true, job.entry);
  return { ...scored, details: packDetails(scored.result) };
}

/** A month scored from its aggregate, stored in the cache without its details. */
async function scoreAndStore(reg: Registry, pools: Map<string, Company[]>, agg: MonthColumns, details: boolean, entry: CacheEntryRef | null): Promise<Scored> {
  const result = scoreMonth(reg, agg, pools, details);
  const stats = statsOf(agg);
  const record = monthRecord(reg, result);
  if (entry) await writeCacheEntry(entry.path, entry.key, JSON.stringify({ result: storeMonthResult(result), stats, record } satisfies StoredScored));
  return { result, stats, cached: false, record };
}

/** The buffers of a result's typed arrays (and packed details), transferred rather than copied. */
export function transferList(r: MonthResult, details?: PackedDetails): ArrayBuffer[] {
  const out: ArrayBuffer[] = details ? [details.counts.buffer as ArrayBuffer] : [];
  for (const b of r.boards.values()) out.push(b.order.buffer as ArrayBuffer, b.hits.buffer as ArrayBuffer, b.mentions.buffer as ArrayBuffer);
  for (const o of r.overall.values()) out.push(o.order.buffer as ArrayBuffer, o.pos.buffer as ArrayBuffer);
  return out;
}

export async function* scoreMonths(
  data: LoadedData,
  pools: Map<string, Company[]>,
  cacheDir: string | null,
  warn: (line: string) => void = () => {},
  workers: number = defaultWorkers(),
  poolMinBytes: number = POOL_MIN_BYTES,
): AsyncGenerator<Scored> {
  const last = data.months.length - 1;
  const regHash = cacheDir ? registryHash(data.registry) : '';
  const entryOf = (i: number) => {
    const key = data.contentKey[i];
    return cacheDir && key ? scoredMonthEntry(cacheDir, data.months[i]!.month, key, regHash) : null;
  };
  const jobs: ScoreJob[] = [];
  for (let i = 0; i < last; i++) jobs.push({ entry: entryOf(i), source: data.aggregateSource(i) });
  // Only months whose aggregate a worker reads itself go to the pool: an in-memory aggregate
  // would be copied for less than it costs to score, and a stored result is read here quicker.
  const onPool = jobs.map((j) => 'entry' in j.source && !(j.entry && existsSync(j.entry.path)));
  const n = onPool.filter(Boolean).length;
  // Worth the workers' start only for enough work, by the parsed entries' size.
  const bytes = jobs.reduce((sum, j, i) => sum + (onPool[i] && 'entry' in j.source ? statSync(j.source.entry.path, { throwIfNoEntry: false })?.size ?? 0 : 0), 0);
  const pool = workers > 1 && n > 1 && bytes >= poolMinBytes ? new WorkerPool<ScoreJob, Scored>(Math.min(workers, n), SCORE_WORKER_HEAP_MB, './score-worker.ts', { workerData: data.registry }) : null;
  try {
    const pending = jobs.map((job, i) => (pool && onPool[i] ? pool.run(job) : null));
    pending.forEach((p) => p?.catch(() => {})); // each is awaited below, in order
    // The current month is scored here with its board details while the workers score the
    // past ones; its entry is stored for the next build.
    const current = data.columns(last).then((cols) => scoreAndStore(data.registry, pools, cols, true, entryOf(last)));
    current.catch(() => {});
    for (let i = 0; i < last; i++) yield (await pending[i]) ?? (await scorePastMonth(data.registry, pools, jobs[i]!, warn));
    yield await current;
  } finally {
    await pool?.close();
  }
}
