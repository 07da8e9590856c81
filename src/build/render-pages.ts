/**
 * The page workers: the routes with thousands of pages (profiles, leaderboards) are
 * rendered in worker threads, on every core, from the modules Astro compiled for them,
 * instead of one page after the other through Astro's per-page pipeline (one share in
 * the main thread, the others in worker threads). Astro's own
 * pipeline renders the first page of each such route (`astroRenders` in
 * src/components/site-data.ts) and every other page; the workers start once Astro's
 * build has returned, from its compiled modules kept aside (integration.ts), so that
 * the compiler's memory is free by then. Same components, same bytes (the route's
 * first page rendered by the container is checked against Astro's, render-share.ts
 * `makeRecipe`). On a cache hit (pages-cache.ts) Astro does not run: the workers render
 * every page of these routes, from the cached modules, with the additions recorded then.
 */
import { renderShare } from './render-share.ts';
import { defaultWorkers, tsWorker } from './worker-pool.ts';
import type { RenderDone, RenderJob } from './render-share.ts';

/** The routes the workers render, as Astro names their source files. Each calls `astroRenders` in its getStaticPaths. */
export const WORKER_ROUTES = ['src/pages/company/[slug].astro', 'src/pages/leaderboards/[country]/[industry].astro'];

/** Set for Astro's pipeline while the workers are on: its getStaticPaths then give only each route's first page. */
export const IN_WORKERS_ENV = 'EVI_PAGES_IN_WORKERS';

/** Number of page workers: `EVI_PAGE_WORKERS` (0 = Astro renders every page), else one per core up to 4 (each holds its own heap). */
export function pageWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const set = env.EVI_PAGE_WORKERS?.trim();
  if (set) {
    const n = Number(set);
    if (!Number.isInteger(n) || n < 0) throw new Error(`EVI_PAGE_WORKERS must be a whole number, got "${set}"`);
    return n;
  }
  return defaultWorkers();
}

/**
 * Renders the pages of each route in `routes` from its path `from` on (1 when Astro's
 * pipeline wrote the first, 0 on a cache hit) into `outDir`: one share in this thread
 * (idle otherwise, and it has the compiled modules' dependencies loaded already), the
 * others in `workers - 1` worker threads.
 */
export async function renderInWorkers(opts: Omit<RenderJob, 'worker'>): Promise<{ pages: number; bytes: number; cpu: (number | null)[]; sys: (number | null)[] }> {
  const job = (worker: number): RenderJob => ({ ...opts, worker });
  // Astro's pipeline is done: from here every getStaticPaths gives all its paths.
  process.env[IN_WORKERS_ENV] = '0';
  const env = { ...process.env };
  const others = Array.from({ length: opts.workers - 1 }, (_, i) => {
    return new Promise<RenderDone>((resolve, reject) => {
      const w = tsWorker('./render-worker.ts', { workerData: job(i + 1), env });
      w.once('message', (msg: { done?: RenderDone; error?: string }) => {
        void w.terminate();
        if (msg.error) reject(new Error(msg.error));
        else resolve(msg.done!);
      });
      w.once('error', reject);
      w.once('exit', (code) => reject(new Error(`page worker ${i + 1} exited with code ${code}`)));
    });
  });
  const done = await Promise.all([renderShare(job(0)), ...others]);
  return { pages: done.reduce((n, d) => n + d.pages, 0), bytes: done.reduce((n, d) => n + d.bytes, 0), cpu: done.map((d) => d.cpu), sys: done.map((d) => d.sys) };
}
