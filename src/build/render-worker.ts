// A page worker thread (PagePool in render-pages.ts): renders each share of the pages handed to it
// as a message (or, `{ statics }`, the routes without parameters of a cache hit), one after the
// other, and reports each; a `{ warm }` message (sent before the first share, not answered)
// loads the compiled modules ahead.
import { parentPort } from 'node:worker_threads';
import { renderPageJob, warmUp } from './render-share.ts';
import type { PageJob, WarmJob } from './render-share.ts';

const render = (job: PageJob) =>
  renderPageJob(job).then(
    (done) => parentPort!.postMessage({ done }),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );

// One message after the other, in order: the pool sends a share ahead of the one under way
// (PagePool), which waits here. A failed warm-up is not reported: the first share loads
// the same modules and reports the error.
let chain: Promise<unknown> = Promise.resolve();
parentPort!.on('message', (msg: PageJob | { warm: WarmJob }) => {
  chain = chain.then(() => ('warm' in msg ? warmUp(msg.warm).catch(() => {}) : render(msg)));
});
