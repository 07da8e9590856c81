// A page worker thread (see render-pages.ts): renders its share of the pages and reports. Started
// with its job, it renders at once; started ahead (`warm`), it loads the compiled modules of its
// routes, then renders each share handed to it as a message, one after the other.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { renderShare } from './render-share.ts';
import type { RenderJob } from './render-share.ts';
import type { RenderWarm } from './render-pages.ts';

const render = (job: RenderJob) =>
  renderShare(job).then(
    (done) => parentPort!.postMessage({ done }),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );

const { job, warm } = workerData as { job?: RenderJob; warm?: RenderWarm };
if (job) void render(job);
else {
  // One share at a time: the next comes once this one's `done` is answered.
  parentPort!.on('message', (j: RenderJob) => void render(j));
  // The same modules renderShare imports (module instances are shared, so it finds them loaded).
  const url = (file: string) => pathToFileURL(join(warm!.serverDir, file)).href;
  await import(url(warm!.manifest));
  for (const m of warm!.modules) await ((await import(url(m))) as { page: () => Promise<unknown> }).page();
}
