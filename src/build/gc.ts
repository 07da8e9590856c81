/** A full garbage collection of this thread's heap, on demand (run-build.ts, write-months.ts). */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A full garbage collection of this thread's heap, now (V8's `gc`, exposed at run time as `node --expose-gc` does at start). */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
