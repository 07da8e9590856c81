/**
 * Folders removed on a thread of their own, with synchronous calls, instead of through
 * `fs.promises.rm`: that one walks the tree with one request on libuv's thread pool per
 * entry, and a release behind the live one is ~70,000 entries at reference scale (its
 * ~31,500 files of its own, ~26,000 links shared with the live one, ~11,500 folders). Queued
 * at the start of a monthly build, those requests held the pool's four threads, and every
 * read of the build waited behind them: the months' reading step took 10.3-15.3 s instead of
 * ~1.5 s, and the build 21.6-37.6 s (median 26.4 s) instead of 17.9-20.8 s (median 19.3 s)
 * with the removal here (13.0-13.6 s with no release to remove; BENCHMARKS.md, "Build: the
 * release behind the live one removed off the thread pool"). On a thread of its own the
 * removal blocks only that thread, waiting mostly on the disk.
 *
 * Its CPU is the build's too (two cores at reference scale): the walk takes each entry's
 * type from the folder's listing (`readdir` with types), not from an `lstat` of each as
 * `rmSync` does, and removes a folder once it is empty instead of trying first. Such a
 * release alone: 1.75-2.0 s of CPU against 2.7-2.9 s by `rmSync` (BENCHMARKS.md, "Build:
 * the profiles download, the removal's walk, a first month's arrays"). Only the
 * paths given are looked at with `lstat`: a link given is removed, never followed, and
 * inside the tree a link is an entry like a file. Should the walk fail anywhere, `rmSync`
 * takes that path over (its retries, and its error if it fails too).
 */
import { Worker } from 'node:worker_threads';

// CommonJS, evaluated: no module to bundle or resolve for a few lines.
const SOURCE = `const { lstatSync, readdirSync, rmSync, rmdirSync, unlinkSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
function removeFolder(path) {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const inner = path + '/' + entry.name;
    if (entry.isDirectory()) removeFolder(inner);
    else unlinkSync(inner);
  }
  rmdirSync(path);
}
for (const path of workerData) {
  try {
    let stat = null;
    try { stat = lstatSync(path); } catch (e) { if (e.code !== 'ENOENT') throw e; }
    if (stat?.isDirectory()) removeFolder(path);
    else if (stat) unlinkSync(path);
  } catch {
    rmSync(path, { recursive: true, force: true });
  }
}`;

/** Removes each of `paths` (folders or files; missing ones are fine), on a worker thread. */
export function removeTrees(paths: string[]): Promise<void> {
  if (paths.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: paths });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`removing ${paths.join(', ')}: the thread stopped with code ${code}`))));
  });
}
