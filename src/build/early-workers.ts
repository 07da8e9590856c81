/**
 * The parser workers a build starts before anything else (load-data.ts decides what they
 * parse): a module of its own with light imports, so that `npm run build` can start them
 * before it loads the rest of the build (scripts/build.ts), and a worker's start (tsx and
 * its modules, ~0.6 s of wall alone, more than 1 s beside the build's own start) overlaps
 * the build thread's.
 */
import { join } from 'node:path';
import { likelyMonthly, monthFileNames } from './build-folders.mjs';
import { WorkerPool, workerHeapMb } from './worker-pool.ts';

/**
 * A parser worker's young generation (V8 makes it three semi-spaces): a month's rows and
 * substrings are short-lived (in the build's thread, with 16 MiB semi-spaces, one month's
 * parse runs ~75 scavenges), and once no kept value holds the month's text few of them
 * survive one. With 32 MiB semi-spaces (instead of what V8 derives from the worker's
 * old-generation cap), a cold ingest of 24 reference months took 46.5-47.8 s of CPU
 * instead of 48.3-50.5 s, for 107-210 MB more peak RSS in the ingest phase (BENCHMARKS.md,
 * "Build: ingest, third round").
 */
export const PARSER_YOUNG_GENERATION_MB = 96;

/**
 * The spare worker's young generation (a monthly build's one new month, in a fresh thread):
 * 4 MiB semi-spaces. Each page of a young generation is fresh memory the first time it is
 * used, and a first month pays for all of them, without later months to spread them over:
 * one reference month as the spare's job in a fresh process took ~0.3 s less with 4 MiB
 * semi-spaces than with 32 MiB, 70,400 page faults against 85,000 (BENCHMARKS.md, "Build:
 * the spare parser worker's young generation").
 */
export const SPARE_YOUNG_GENERATION_MB = 12;

/**
 * Parser workers started from what the folders' names say, with two months or more:
 * - `spare`: when the cache has an entry for the month before the newest (a monthly build,
 *   most likely), one worker for the newest month file (its path as listMonths will name it);
 * - `pool`: otherwise (a cold build, most likely: every month to parse), the `most` workers
 *   that parse the months.
 * Either is only a head start: loadData still decides from the content hashes, and closes
 * what it does not use. `pool: false`: the spare only (none in a cold build).
 */
export interface EarlyWorkers {
  /** `path`: the newest month file; `before`: the one before it. */
  spare?: { path: string; before: string; pool: WorkerPool };
  pool?: WorkerPool;
}

export function earlyWorkers(dataDir: string, cacheDir: string, most: number, { pool = true }: { pool?: boolean } = {}): EarlyWorkers {
  const dir = join(dataDir, 'mentions');
  const names = monthFileNames(dir);
  const monthly = likelyMonthly(dataDir, cacheDir, names);
  if (monthly) return { spare: { ...monthly, pool: parserPool(1, [monthly.path], SPARE_YOUNG_GENERATION_MB) } };
  if (!pool || names.length < 2) return {};
  return { pool: parserPool(Math.min(most, names.length), names.map((n) => join(dir, n))) };
}

/** `size` parser workers for the month files `paths` (their heap cap follows the largest), each with `youngGenerationMb`. */
export function parserPool(size: number, paths: string[], youngGenerationMb = PARSER_YOUNG_GENERATION_MB): WorkerPool {
  return new WorkerPool(size, workerHeapMb(paths), undefined, { youngGenerationMb });
}

/** Closes what `early` started (a build that stops before its months are read). */
export async function closeEarlyWorkers(early: EarlyWorkers | undefined): Promise<void> {
  await Promise.all([early?.spare?.pool.close(), early?.pool?.close()]);
}
