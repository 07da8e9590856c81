/**
 * Folders removed on a thread of their own with synchronous calls: `fs.promises.rm` would queue
 * every entry on libuv's thread pool, ahead of the build's reads. A link is removed, never followed.
 * A file that keeps other links (a cache file the release shared) is held open across its
 * removal, so that the move of its change time is known (own-changes.ts).
 */
import { Worker } from 'node:worker_threads';
import type { OwnChange } from '../cache/own-changes.ts';

// CommonJS, evaluated: nothing to bundle or resolve.
const SOURCE = `const { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, rmSync, rmdirSync, unlinkSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const moved = [];
function removeFile(path) {
  const st = lstatSync(path, { bigint: true });
  if (!st.isFile() || st.nlink < 2n) return unlinkSync(path);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    unlinkSync(path);
    moved.push([st.dev + ':' + st.ino, String(st.ctimeNs), String(fstatSync(fd, { bigint: true }).ctimeNs)]);
  } finally {
    closeSync(fd);
  }
}
function removeFolder(path) {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const inner = path + '/' + entry.name;
    if (entry.isDirectory()) removeFolder(inner);
    else if (entry.isFile()) removeFile(inner);
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
}
parentPort.postMessage(moved);`;

/**
 * Removes each of `paths` (folders or files; missing ones are fine), on a worker thread.
 * @returns the moves of the change times of files that other links keep.
 */
export function removeTrees(paths: string[]): Promise<OwnChange[]> {
  if (paths.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: paths });
    // Its last act: the moves, sent once every path is removed.
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve([]) : reject(new Error(`removing ${paths.join(', ')}: the thread stopped with code ${code}`))));
  });
}
