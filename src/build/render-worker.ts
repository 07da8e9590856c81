// A page worker thread (PagePool in render-pages.ts): renders each share of the pages handed to it
// as a message, one after the other, and reports each.
import { parentPort } from 'node:worker_threads';
import { renderShare } from './render-share.ts';
import type { RenderJob } from './render-share.ts';

const render = (job: RenderJob) =>
  renderShare(job).then(
    (done) => parentPort!.postMessage({ done }),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );

parentPort!.on('message', (job: RenderJob) => void render(job));
