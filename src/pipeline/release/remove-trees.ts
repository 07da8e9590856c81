/**
 * Folders removed on a thread of their own with synchronous calls: `fs.promises.rm` would queue
 * every entry on libuv's thread pool, ahead of the build's reads. A link is removed, never followed.
 */
import { Worker } from 'node:worker_threads';

// CommonJS, evaluated: nothing to bundle or resolve.
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
