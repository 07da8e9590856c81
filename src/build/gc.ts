/** A full garbage collection of this thread's heap, on demand (run-build.ts, write-months.ts), and a memory line for diagnosis. */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { threadId } from 'node:worker_threads';

/** A full garbage collection of this thread's heap, now (V8's `gc`, exposed at run time as `node --expose-gc` does at start). */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
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
