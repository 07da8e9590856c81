/**
 * Folders removed on a thread of their own, with synchronous calls, instead of through
 * `fs.promises.rm`: that one walks the tree with one request on libuv's thread pool per
 * entry, and a release behind the live one is ~70,000 entries at reference scale (its
 * ~31,500 files of its own, ~27,000 links shared with the live one, ~11,500 folders). Queued
 * at the start of a monthly build, those requests held the pool's four threads, and every
 * read of the build waited behind them: the months' reading step took 9.9-14.2 s instead of
 * ~1.3 s, and the build 21.6-29.0 s instead of 13.4-16.1 s (BENCHMARKS.md, "Build: the
 * release behind the live one removed off the thread pool"). On a thread of its own the
 * removal blocks only that thread, waiting mostly on the disk.
 */
import { Worker } from 'node:worker_threads';

// CommonJS, evaluated: no module to bundle or resolve for a few lines.
const SOURCE = `const { rmSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
for (const path of workerData) rmSync(path, { recursive: true, force: true });`;

/** Removes each of `paths` (folders or files; missing ones are fine), on a worker thread. */
export function removeTrees(paths: string[]): Promise<void> {
  if (paths.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: paths });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`removing ${paths.join(', ')}: the thread stopped with code ${code}`))));
  });
}
