/**
 * The page workers: the routes with thousands of pages are rendered on worker threads from the
 * modules Astro compiled, instead of through Astro's pipeline; same components, same bytes.
 */
import type { Worker } from 'node:worker_threads';
import { defaultWorkers, tsWorker } from '../workers/worker-pool.ts';
import type { PageJob, RenderDone, RenderJob, StaticsJob, WarmJob } from './render-share.ts';

/** The routes the workers render; each calls `astroRenders` in its getStaticPaths. */
export const WORKER_ROUTES = ['src/pages/company/[slug].astro', 'src/pages/leaderboards/[country]/[industry].astro'];

/** The worker routes that read only `meta.json` and the company views, not the leaderboards. */
export const COMPANY_ROUTES = ['src/pages/company/[slug].astro'];
export const COMPANY_PARAM = 'slug';

/** Set for Astro's pipeline while the workers are on: getStaticPaths then give only each route's first page. */
export const IN_WORKERS_ENV = 'EVI_PAGES_IN_WORKERS';

/** Number of page workers: `EVI_PAGE_WORKERS` (0 = Astro renders every page), else defaultWorkers(). */
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

const sum = (all: RenderDone[]): RenderDone => ({
  pages: all.reduce((n, d) => n + d.pages, 0),
  bytes: all.reduce((n, d) => n + d.bytes, 0),
  cpu: all.some((d) => d.cpu === null) ? null : all.reduce((n, d) => n + d.cpu!, 0),
  sys: all.some((d) => d.sys === null) ? null : all.reduce((n, d) => n + d.sys!, 0),
});

/** Shares per rendering thread: small enough that the threads end together. */
const SHARES_PER_THREAD = 8;
/** Shares a worker thread holds beyond the one it renders, while the build's thread is busy. */
const SHARES_AHEAD = 1;

/** Page workers: `render` cuts a job into shares handed out as the threads take them, so that all end together. */
export class PagePool {
  readonly #workers: Worker[] = [];
  readonly #env: NodeJS.ProcessEnv;
  #warm: WarmJob | null = null;
  #queue: PageJob[] = [];
  #sent: number[] = [];
  #ahead = SHARES_AHEAD;
  #results: RenderDone[][] = [];
  #error: Error | null = null;
  #settled: (() => void)[] = [];

  constructor(threads: number) {
    // No Astro pipeline here: every getStaticPaths gives all its paths.
    process.env[IN_WORKERS_ENV] = '0';
    this.#env = { ...process.env };
    this.grow(threads);
  }

  /** Starts `threads` more worker threads, which warm up and take shares at once. */
  grow(threads: number): void {
    for (let n = 0; n < threads; n++) {
      const i = this.#workers.length;
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

  /** The worker threads load the compiled modules before the views they read are written. */
  warm(job: WarmJob): void {
    this.#warm = job;
    for (const w of this.#workers) w.postMessage({ warm: job });
  }

  /** Queues a job cut into `shares`; idle threads take them at once. Every `render` comes before `join`. */
  render(opts: Omit<RenderJob, 'worker' | 'workers'>, shares = (this.#workers.length + 1) * SHARES_PER_THREAD): void {
    this.#queue.push(...Array.from({ length: shares }, (_, worker) => ({ ...opts, worker, workers: shares })));
    this.#workers.forEach((_, i) => this.#fill(i));
  }

  /** The routes without parameters of a cache hit, to the first worker thread free. */
  statics(job: StaticsJob): void {
    this.#queue.unshift({ statics: job });
    this.#workers.forEach((_, i) => this.#fill(i));
  }

  /** Waits until every job is rendered; the totals by thread. */
  async join(): Promise<RenderTotals> {
    // No share held ahead now: the threads end together.
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

  /** Sends worker `i` shares until it holds `#ahead` beyond the one it renders. */
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
