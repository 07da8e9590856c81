/**
 * Scores every month, oldest first. A month that is not the current one is scored the
 * same way until its file or the registry changes, so its result is cached beside the
 * parsed months, keyed by both: an incremental build scores only the new current month
 * (whose board details the profiles need); the current month's entry is written for the
 * build after.
 *
 * The past months are scored (or read from their cache entries) on worker threads
 * (score-worker.ts), each reading its month's parsed aggregate itself, so that this
 * thread never holds a past month's aggregate; meanwhile this thread scores the current
 * month with its board details. A past month scored from its aggregate is scored with its
 * board details too, handed back packed (core/score.ts PackedDetails): its records job
 * (write-months.ts) takes them instead of reading the aggregate and scoring it again.
 * Without a cache (the aggregates are in this thread's memory) or with one worker,
 * everything is scored here. The same function scores a past month either way.
 */
import { existsSync, statSync } from 'node:fs';
import type { MonthColumns } from '../core/aggregate.ts';
import type { Company, Registry } from '../core/registry.ts';
import { loadMonthResult, packDetails, scoreMonth, storeMonthResult, type MonthResult, type PackedDetails, type StoredMonthResult } from '../core/score.ts';
import { monthRecord } from './ledger.ts';
import { readColumns, type AggregateSource, type LoadedData } from './load-data.ts';
import type { MonthRecord } from '../core/ledger.ts';
import { readCacheJson, writeCacheEntry } from './cache-file.ts';
import { registryHash, scoredMonthEntry, type CacheEntryRef } from './caches.ts';
import { WorkerPool, defaultWorkers } from './worker-pool.ts';

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
  /**
   * The month's ledger record (ledger.ts: its boards' digests), a function of the result and
   * the companies' slugs, which the entry's key covers: stored with the result, so that a
   * monthly build does not hash the boards of the 24 past months again (~24 ms each at
   * reference scale). An entry written before it was stored gets it computed.
   */
  record: MonthRecord;
  /**
   * A past month scored from its aggregate: its board details, packed (left out of
   * `result`), for the records job that makes its company files (write-months.ts) instead
   * of reading its aggregate and scoring it a second time.
   */
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
 * The scoring workers start only when the parsed months to score add up to this many
 * bytes (their cache entries): more than three months at reference scale (~10 MB each,
 * ~0.3-0.4 s of CPU to read and score), where two workers gain more than their start costs;
 * a 4-month build's three past months and the sample data's (~1 MB each) are scored in
 * the build's thread.
 */
export const POOL_MIN_BYTES = 32 * 1048576;

/** A scoring worker's heap cap: it holds one month's aggregate (~10 MB of JSON at reference scale) while it scores it. */
const SCORE_WORKER_HEAP_MB = 1024;

/**
 * A past month's result: from its cache entry (no board details), or scored from its
 * aggregate with its board details (packed beside the result) and stored there (details
 * left out). A month scored from its aggregate nearly always needs its company files
 * made too; when their cache entry is still there (a build that lost only the scored
 * entry), the details were made for nothing: ~0.1 s of CPU a reference month (a cold
 * build's profile: `scoreMonth` 2.7-2.8 s with details, 1.7 s without, for ~12 months).
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

/** A month scored from its aggregate (`details`: with its board details), its entry (details left out) stored in the cache. */
async function scoreAndStore(reg: Registry, pools: Map<string, Company[]>, agg: MonthColumns, details: boolean, entry: CacheEntryRef | null): Promise<Scored> {
  const result = scoreMonth(reg, agg, pools, details);
  const stats = statsOf(agg);
  const record = monthRecord(reg, result);
  if (entry) await writeCacheEntry(entry.path, entry.key, JSON.stringify({ result: storeMonthResult(result), stats, record } satisfies StoredScored));
  return { result, stats, cached: false, record };
}

/** The buffers of a result's typed arrays (and of its packed details), handed over to the receiving thread instead of copied. */
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
  // Only months to score whose aggregate a worker can read itself go to the pool: an
  // aggregate in this thread's memory (no cache) would be copied to it for less than it
  // costs to score, and a stored result is read here faster than a worker starts.
  const onPool = jobs.map((j) => 'entry' in j.source && !(j.entry && existsSync(j.entry.path)));
  const n = onPool.filter(Boolean).length;
  // Worth the workers' start (~0.3-0.5 s of CPU each) only for enough work: the parsed
  // entries to read and score, by size.
  const bytes = jobs.reduce((sum, j, i) => sum + (onPool[i] && 'entry' in j.source ? statSync(j.source.entry.path, { throwIfNoEntry: false })?.size ?? 0 : 0), 0);
  const pool = workers > 1 && n > 1 && bytes >= poolMinBytes ? new WorkerPool<ScoreJob, Scored>(Math.min(workers, n), SCORE_WORKER_HEAP_MB, './score-worker.ts', { workerData: data.registry }) : null;
  try {
    const pending = jobs.map((job, i) => (pool && onPool[i] ? pool.run(job) : null));
    pending.forEach((p) => p?.catch(() => {})); // each is awaited below, in order
    // The current month is scored again with its board details; its entry (details left
    // out) is stored for the next build, where it is a past month. Started now, so that
    // it is scored here while the workers score the past months.
    const current = data.columns(last).then((cols) => scoreAndStore(data.registry, pools, cols, true, entryOf(last)));
    current.catch(() => {});
    for (let i = 0; i < last; i++) yield (await pending[i]) ?? (await scorePastMonth(data.registry, pools, jobs[i]!, warn));
    yield await current;
  } finally {
    await pool?.close();
  }
}
