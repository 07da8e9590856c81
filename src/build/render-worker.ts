// A page worker thread (see render-pages.ts): renders its share of the pages and reports. Started
// with its job, it renders at once; started without (PagePool), it renders each share handed to it
// as a message, one after the other.
import { parentPort, workerData } from 'node:worker_threads';
import { renderShare } from './render-share.ts';
import type { RenderJob } from './render-share.ts';

const render = (job: RenderJob) =>
  renderShare(job).then(
    (done) => parentPort!.postMessage({ done }),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );

const { job } = (workerData ?? {}) as { job?: RenderJob };
if (job) void render(job);
else parentPort!.on('message', (j: RenderJob) => void render(j));
