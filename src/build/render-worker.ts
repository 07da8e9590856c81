// A page worker thread (PagePool in render-pages.ts): renders each share of the pages handed to it
// as a message, one after the other, and reports each; a `{ warm }` message (sent before the
// first share, not answered) loads the compiled modules ahead.
import { parentPort } from 'node:worker_threads';
import { renderShare, warmUp } from './render-share.ts';
import type { RenderJob, WarmJob } from './render-share.ts';

const render = (job: RenderJob) =>
  renderShare(job).then(
    (done) => parentPort!.postMessage({ done }),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );

// A failed warm-up is not reported: the first share loads the same modules and reports the error.
parentPort!.on('message', (msg: RenderJob | { warm: WarmJob }) => void ('warm' in msg ? warmUp(msg.warm).catch(() => {}) : render(msg)));
