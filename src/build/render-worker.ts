// A page worker thread (see render-pages.ts): renders its share of the pages and reports.
import { parentPort, workerData } from 'node:worker_threads';
import { renderShare } from './render-share.ts';
import type { RenderJob } from './render-share.ts';

renderShare(workerData as RenderJob).then(
  (done) => parentPort!.postMessage({ done }),
  (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
);
