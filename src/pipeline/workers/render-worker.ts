// A page worker thread (PagePool, render-pages.ts): renders each share it is sent and reports
// it; `{ warm }` (not answered) loads the compiled modules ahead.
import { parentPort } from 'node:worker_threads';
import { renderPageJob, warmUp } from '../pages/render-share.ts';
import type { PageJob, WarmJob } from '../pages/render-share.ts';

const render = (job: PageJob) =>
  renderPageJob(job).then(
    (done) => parentPort!.postMessage({ done }),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );

// One message after the other: the pool sends a share ahead, which waits here. A failed
// warm-up is not reported: the first share loads the same modules and reports it.
let chain: Promise<unknown> = Promise.resolve();
parentPort!.on('message', (msg: PageJob | { warm: WarmJob }) => {
  chain = chain.then(() => ('warm' in msg ? warmUp(msg.warm).catch(() => {}) : render(msg)));
});
