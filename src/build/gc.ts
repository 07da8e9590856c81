/** A full garbage collection of this thread's heap, on demand (run-build.ts, write-months.ts), and a memory line for diagnosis. */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { threadId } from 'node:worker_threads';

/** A full garbage collection of this thread's heap, now (V8's `gc`, exposed at run time as `node --expose-gc` does at start). */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * Runs `work` with V8's incremental marking off: each full collection then marks the heap
 * in one pause instead of in steps between the thread's own work, which costs less in all
 * (the steps, and the `gc()` that finds a marking just begun and finishes it before its
 * own; BENCHMARKS.md, "Build: a new machine, the month jobs with V8's incremental marking
 * off"). For a batch of jobs, where no pause is waited on. V8's flags are the process's:
 * every thread runs so until `work` settles. V8 reads this one each time it would start a
 * marking.
 */
export async function withoutIncrementalMarking<T>(work: () => Promise<T>): Promise<T> {
  setFlagsFromString('--no-incremental-marking');
  try {
    return await work();
  } finally {
    setFlagsFromString('--incremental-marking');
  }
}

/** Whether EVI_MEMLOG asks for {@link memoryLine}s in the build's log. */
export const memLog = !!process.env.EVI_MEMLOG;

/** This thread's heap (used / total / committed), its array buffers and the process's RSS, in MiB: one line, with `tag`. */
export function memoryLine(tag: string): string {
  // EVI_MEMLOG=live: after a full collection, so that the heap's used part is what is live
  if (process.env.EVI_MEMLOG === 'live') collectGarbage();
  const mib = (n: number) => Math.round(n / 1048576);
  const m = process.memoryUsage();
  const h = getHeapStatistics();
  return `[mem] thread ${threadId} ${tag}: heap used ${mib(h.used_heap_size)} total ${mib(h.total_heap_size)} physical ${mib(h.total_physical_size)}, external ${mib(m.external)} (array buffers ${mib(m.arrayBuffers)}), rss ${mib(m.rss)}`;
}
