/**
 * A full garbage collection of this thread's heap, now (V8's `gc`, exposed at run time as
 * `node --expose-gc` does at start). The build calls it between large jobs so that the next
 * job starts on a small heap, which keeps the peak memory down.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
