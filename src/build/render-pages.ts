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
import type { Worker } from 'node:worker_threads';
import { defaultWorkers, tsWorker } from './worker-pool.ts';
import type { PageJob, RenderDone, RenderJob, StaticsJob, WarmJob } from './render-share.ts';

/** The routes the workers render, as Astro names their source files. Each calls `astroRenders` in its getStaticPaths. */
export const WORKER_ROUTES = ['src/pages/company/[slug].astro', 'src/pages/leaderboards/[country]/[industry].astro'];

/**
 * The worker routes whose pages read only `meta.json` and the current month's company views
 * (src/components/site-data.ts `company`, `companySlugs`, `meta`): on a cache hit they start
 * once those are written, before the new month's leaderboards, which the other routes read.
 */
export const COMPANY_ROUTES = ['src/pages/company/[slug].astro'];
/** The parameter of the company routes: a company's slug (one page per company view). */
export const COMPANY_PARAM = 'slug';

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

export interface RenderTotals {
  pages: number;
  bytes: number;
  cpu: (number | null)[];
  sys: (number | null)[];
}

const totals = (all: RenderDone[]): RenderTotals => ({
  pages: all.reduce((n, d) => n + d.pages, 0),
  bytes: all.reduce((n, d) => n + d.bytes, 0),
  cpu: all.map((d) => d.cpu),
  sys: all.map((d) => d.sys),
});

/** One thread's shares added up. */
const sum = (all: RenderDone[]): RenderDone => ({
  pages: all.reduce((n, d) => n + d.pages, 0),
  bytes: all.reduce((n, d) => n + d.bytes, 0),
  cpu: all.some((d) => d.cpu === null) ? null : all.reduce((n, d) => n + d.cpu!, 0),
  sys: all.some((d) => d.sys === null) ? null : all.reduce((n, d) => n + d.sys!, 0),
});

/** Shares a page job is cut into for each thread rendering it ({@link PagePool}): small enough that the threads end together. */
const SHARES_PER_THREAD = 8;
/** Shares a worker thread holds beyond the one it renders while the build's thread does other work ({@link PagePool}). */
const SHARES_AHEAD = 1;

/**
 * Page workers (on a cache hit of the compiled pages build-pages.ts starts them beside
 * the end of the views step; after a compile, beside it). `render` cuts the job into shares
 * (every n-th path of each route, as render-share.ts takes them) and hands them out as the
 * threads take them (a worker thread holds one ahead of the one it renders): the `threads`
 * worker threads start at once; on a cache hit, one more worker thread started at the end
 * of the views step (`grow`) takes shares in the build's thread's place, so that all end
 * together whichever started first. The build's thread renders none: it has not loaded
 * Astro's runtime and the compiled modules (`import('astro')` alone took ~2.3 s of CPU
 * through tsx's hooks, the way `scripts/build.ts` runs without its bundle, and ~1.1 s
 * without them; BENCHMARKS.md, "Build: the pages compiled on a thread of their own"),
 * where a worker thread loads them from its bundle beside the build's other work.
 */
export class PagePool {
  readonly #workers: Worker[] = [];
  readonly #env: NodeJS.ProcessEnv;
  #warm: WarmJob | null = null;
  #queue: PageJob[] = [];
  /** Per worker thread, its shares sent and not yet reported: at most `#ahead` + 1. */
  #sent: number[] = [];
  /** Shares a worker thread holds beyond the one it renders: none from `join` on. */
  #ahead = SHARES_AHEAD;
  /** Per worker thread, the shares it reported. */
  #results: RenderDone[][] = [];
  #error: Error | null = null;
  #settled: (() => void)[] = [];

  constructor(threads: number) {
    // Every getStaticPaths gives all its paths (no Astro pipeline on a hit).
    process.env[IN_WORKERS_ENV] = '0';
    this.#env = { ...process.env };
    this.grow(threads);
  }

  /** Starts `threads` more worker threads, which load the compiled modules (when `warm` was called) and take shares at once. */
  grow(threads: number): void {
    for (let n = 0; n < threads; n++) {
      const i = this.#workers.length;
      // From its bundle with Astro's container and runtime in it (worker-bundle.ts): they load
      // in ~0.2 s of CPU, against ~0.9-1.1 s for their ~580 modules from node_modules.
      const w = tsWorker('./render-worker.ts', { env: this.#env });
      this.#results.push([]);
      this.#sent.push(0);
      w.on('message', (msg: { done?: RenderDone; error?: string }) => {
        this.#sent[i]!--;
        if (msg.error) this.#fail(new Error(msg.error));
        else {
          this.#results[i]!.push(msg.done!);
          this.#fill(i);
        }
        this.#settle();
      });
      w.on('error', (e) => this.#fail(e));
      w.on('exit', (code) => this.#fail(new Error(`page worker ${i + 1} exited with code ${code}`)));
      this.#workers.push(w);
      if (this.#warm) w.postMessage({ warm: this.#warm });
      this.#fill(i);
    }
  }

  /** The worker threads load the compiled modules ahead of their first share (before the views they read are written). */
  warm(job: WarmJob): void {
    this.#warm = job;
    for (const w of this.#workers) w.postMessage({ warm: job });
  }

  /**
   * Adds a job's shares to the end of the queue (called once, or once per group of routes
   * or pages as their views come: the profiles first, then the leaderboards); idle worker
   * threads take them at once. `shares`: how many the job is cut into (by default enough
   * for all threads to end together). Every `render` comes before `join`.
   */
  render(opts: Omit<RenderJob, 'worker' | 'workers'>, shares = (this.#workers.length + 1) * SHARES_PER_THREAD): void {
    this.#queue.push(...Array.from({ length: shares }, (_, worker) => ({ ...opts, worker, workers: shares })));
    this.#workers.forEach((_, i) => this.#fill(i));
  }

  /** The routes without parameters of a cache hit, handed to the first worker thread free (before any share waiting). */
  statics(job: StaticsJob): void {
    this.#queue.unshift({ statics: job });
    this.#workers.forEach((_, i) => this.#fill(i));
  }

  /** Waits until every job is rendered by the worker threads; the totals by thread. */
  async join(): Promise<RenderTotals> {
    // From now on this thread reads the reports at once: a share held ahead would only
    // keep the last shares from the thread that asks next, so that the threads would not end together.
    this.#ahead = 0;
    while ((this.#queue.length > 0 || this.#sent.some((n) => n > 0)) && !this.#error) await new Promise<void>((resolve) => this.#settled.push(resolve));
    if (this.#error) throw this.#error;
    return totals(this.#results.map(sum));
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.#workers.map((w) => {
        w.removeAllListeners('exit');
        return w.terminate();
      }),
    );
  }

  /**
   * Sends worker thread `i` shares until it holds `#ahead` beyond the one it renders:
   * before `join` it goes on with the next one at once, not once this thread, busy with
   * the views step (a synchronous stretch of a second or more: the new month's
   * leaderboards, a full collection), has read its report and answered.
   */
  #fill(i: number): void {
    while (!this.#error && this.#sent[i]! <= this.#ahead && this.#queue.length > 0) {
      this.#sent[i]!++;
      this.#workers[i]!.postMessage(this.#queue.shift()!);
    }
  }

  #settle(): void {
    for (const wake of this.#settled.splice(0)) wake();
  }

  #fail(e: Error): void {
    this.#error ??= e;
    this.#settle();
  }
}
