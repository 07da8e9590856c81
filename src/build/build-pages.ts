import { readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readCacheFolder, writeCacheFolder } from './cache-file.ts';
import { pagesEntry } from './caches.ts';
import { moveDir } from './move-dir.ts';
import { RECIPE, SERVER, STATIC, entryFiles, pagesInputsKey } from './pages-cache.ts';
import type { PagesRecipe, RouteRecipe } from './pages-cache.ts';
import { COMPANY_PARAM, COMPANY_ROUTES, IN_WORKERS_ENV, WORKER_ROUTES, PagePool, pageWorkers, type RenderTotals } from './render-pages.ts';
import type { CompileAnswer, CompileJob } from './compile-worker.ts';
import { tsWorker } from './worker-pool.ts';
import type { Worker } from 'node:worker_threads';

/**
 * The files under `dir` and their bytes. Synchronous: the promise API's stat of each of a
 * reference build's 10,762 page files, a round trip to libuv's thread pool each, took
 * 1.1-1.8 s (1.0-1.4 s of CPU), against 0.14-0.16 s so (BENCHMARKS.md, "Build: the pages
 * compiled on a thread of their own").
 */
function sizeOf(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) {
      files++;
      bytes += statSync(join(e.parentPath, e.name)).size;
    }
  }
  return { files, bytes };
}

/**
 * One Astro build at a time in a project: each writes the project's `.astro/` (content.d.ts,
 * content-assets.mjs, content-modules.mjs, which its Vite build then reads) and
 * `node_modules/.astro/data-store.json` in place, so a second build at once (two test
 * runs, a test run beside `npm run build`) could read a half-written file. A lock folder
 * in `.cache/` (proper-lockfile: stale after 30 s without its holder's refresh, so a
 * killed build does not block the next) makes the second wait.
 */
async function astroLock(root: string): Promise<() => Promise<void>> {
  const { lock } = await import('proper-lockfile');
  return lock(root, {
    lockfilePath: join(root, '.cache', 'astro-build.lock'),
    realpath: false,
    stale: 30_000,
    retries: { retries: 1200, minTimeout: 250, maxTimeout: 500 },
    // A holder whose refresh came late (a busy event loop) goes on: at worst two builds overlap, as without the lock.
    onCompromised: () => {},
  });
}

/** What the compile worker made: the recipe of the page workers, or null when they are off. */
type Made = Extract<CompileAnswer, { made: unknown }>['made'];

/**
 * Astro's build of the pages (and, with `job.compiled`, the recipe of the page workers) on the
 * compile worker (compile-worker.ts), a thread started from its bundle without tsx, which
 * ends once it has answered. Its environment is this thread's as it is at the call (not
 * once the lock is taken: a PagePool made meanwhile sets IN_WORKERS_ENV for its own
 * threads), with IN_WORKERS_ENV saying whether the page workers render the routes with
 * parameters (then Astro renders only their first page). One Astro build at a time in a
 * project ({@link astroLock}). `stop` ends it early (a failed build).
 */
function compileInWorker(job: CompileJob): { done: Promise<Made>; stop: () => Promise<void> } {
  const env = { ...process.env, [IN_WORKERS_ENV]: job.compiled ? '1' : '0' };
  let worker: Worker | null = null;
  let stopped = false;
  const done = astroLock(job.root).then(
    (release) =>
      new Promise<Made>((resolve, reject) => {
        if (stopped) return reject(new Error('pages: the compile was stopped'));
        const w = (worker = tsWorker('./compile-worker.ts', { workerData: job, env }, { packages: 'external' }));
        let answered = false;
        w.once('message', (msg: CompileAnswer) => {
          answered = true;
          void w.terminate();
          if ('error' in msg) reject(new Error(msg.error));
          else resolve(msg.made);
        });
        w.once('error', reject);
        w.once('exit', (code) => {
          if (!answered) reject(new Error(`pages: the compile worker exited with code ${code} before it answered`));
        });
      }).finally(release),
  );
  return {
    done,
    stop: async () => {
      stopped = true;
      await worker?.terminate();
      await done.catch(() => {});
    },
  };
}

/** `EVI_PAGES_COMPILE=1`: compile the pages even when the cache holds them (and store the result again). */
export const FORCE_COMPILE_ENV = 'EVI_PAGES_COMPILE';

export interface PagesOptions {
  root: string;
  outDir: string;
  viewsDir: string;
  jsonDir: string;
  siteUrl: string;
  /** The build cache (EVI_CACHE_DIR); null or absent: no cache, Astro compiles every time. */
  cacheDir?: string | null;
  log?: (line: string) => void;
}

/** What the pages step wrote (the JSON tree it joins is counted by the caller). */
export interface PagesWritten {
  files: number;
  bytes: number;
  compiled: boolean;
}

/**
 * The pages step, opened before the JSON tree is complete (run-build.ts). With the
 * compiled pages in the build cache, the page workers start at `viewsReady()`, beside the
 * rest of the views step; otherwise everything happens in `finish()`.
 */
export interface PagesStep {
  /** Whether the compiled pages came from the build cache (no `astro build`). */
  readonly hit: boolean;
  /**
   * The views step begins: on a hit the page worker threads start and load the compiled
   * modules (their start-up beside this thread's current views, not after them).
   */
  prepare(): void;
  /**
   * `meta.json` and the current month's company views are on disk (not yet the
   * leaderboards): on a hit the page worker threads start rendering the profiles
   * (COMPANY_ROUTES), the routes that read nothing else.
   */
  companiesReady(): void;
  /**
   * `meta.json` and the current month's views of the companies `slugs` are on disk (a
   * monthly build calls it as it writes them, a batch at a time, every company once, in
   * place of `companiesReady`): on a hit their profiles are handed to the page workers at
   * once, and `companiesReady` and `viewsReady` leave the profiles to these calls.
   */
  companiesWritten(slugs: string[]): void;
  /**
   * What the page workers' routes read is on disk: meta.json, the current month's company
   * views and leaderboards (src/components/site-data.ts). On a hit the page worker
   * threads start rendering the profiles and leaderboards (the leaderboards only, when
   * `companiesReady` started the profiles); the build's thread joins them in `finish()`.
   */
  viewsReady(): void;
  /**
   * What the routes without parameters and the first page of each page worker route read
   * is on disk: meta.json, the current month's views, leaderboards and static answers (the
   * past months' files may still be under way). Without the compiled pages in the cache
   * (and with the page workers on), Astro compiles the pages now, on the compile worker,
   * beside the rest of the views step; `finish()` then renders every page from what it
   * compiled, once the whole JSON tree is written, as on a cache hit.
   */
  compileEarly(): void;
  /** The whole JSON tree is written: renders the rest, joins the tree to the pages in `outDir`. */
  finish(): Promise<PagesWritten>;
  /** The build failed: ends the page workers and removes the step's folders. */
  abort(): Promise<void>;
}

/**
 * The pages step in one go, over views already written (scripts/build-pages.ts): see
 * {@link openPages}.
 */
export async function buildPages(opts: PagesOptions): Promise<PagesWritten> {
  const step = await openPages(opts);
  try {
    step.viewsReady();
    return await step.finish();
  } catch (e) {
    await step.abort();
    throw e;
  }
}

/**
 * The pages step. With the compiled pages in the build cache (pages-cache.ts; not with
 * `EVI_PAGE_WORKERS=0`, nor `EVI_PAGES_COMPILE=1`): no Astro build; the cached modules,
 * client assets and public files are restored at once, the profiles and leaderboards
 * are rendered from the modules by the page workers as soon as their views are written
 * (`viewsReady`), and every route without parameters once the whole JSON tree is there
 * (`finish`: the API docs call the handler over it). Otherwise Astro builds `src/pages`
 * into `outDir` on the compile worker (compile-worker.ts, a thread without tsx): from
 * `compileEarly` on, beside the rest of the views step, after which `finish` renders every
 * page from what it compiled, as on a hit; or in `finish`, after which the page workers
 * (render-pages.ts) render the profiles and leaderboards but the first of each, which Astro
 * rendered (all of them with `EVI_PAGE_WORKERS=0`). What Astro compiled is stored in the
 * cache. Pages read the views from `viewsDir`. The JSON tree in `jsonDir` (views, static
 * API answers, host files, written beforehand by the build's JsonWriter) then joins the
 * pages, one rename per top-level entry instead of one Astro route per file.
 */
export async function openPages(opts: PagesOptions): Promise<PagesStep> {
  const verbose = process.env.EVI_ASTRO_LOG === '1';
  const log = opts.log ?? ((l: string) => verbose && console.error(l));
  process.env.EVI_VIEWS_DIR = opts.viewsDir;
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const workers = pageWorkers();
  process.env[IN_WORKERS_ENV] = workers > 0 ? '1' : '0';
  // Astro puts a build's server chunks in <cwd>/.astro/ when its outDir lies outside the
  // project, where concurrent builds would share them: build inside, then move. The
  // compiled modules stay inside the project too: they import Astro's runtime packages by name.
  const inside = join(opts.root, '.cache', `pages-${process.pid}`);
  const compiled = join(opts.root, '.cache', `pages-${process.pid}-compiled`);
  const clean = () => Promise.all([inside, compiled].map((d) => rm(d, { recursive: true, force: true }))).then(() => {});
  await clean();
  await mkdir(join(opts.root, '.cache'), { recursive: true });
  const entry = opts.cacheDir && workers > 0 ? pagesEntry(opts.cacheDir, pagesInputsKey(opts.root, opts.siteUrl, WORKER_ROUTES)) : null;
  const hit = entry && process.env[FORCE_COMPILE_ENV] !== '1' ? await readCacheFolder(entry.path, entry.key, log) : null;
  let recipe: PagesRecipe | null = null;
  /** On a hit: the files restored from the entry (client assets, public files), and their bytes. */
  let restored = { files: 0, bytes: 0 };
  try {
    if (hit) {
      for (const f of hit.files) {
        const to = f.path === RECIPE ? null : f.path.startsWith(`${SERVER}/`) ? join(compiled, f.path.slice(SERVER.length + 1)) : join(inside, f.path.slice(STATIC.length + 1));
        if (to === null) recipe = JSON.parse(await readFile(f.file, 'utf8')) as PagesRecipe;
        else {
          await mkdir(dirname(to), { recursive: true });
          await copyFile(f.file, to);
          if (f.path.startsWith(`${STATIC}/`)) restored = { files: restored.files + 1, bytes: restored.bytes + f.bytes };
        }
      }
      if (!recipe) throw new Error(`pages: cache entry ${entry!.path} has no recipe`);
    }
  } catch (e) {
    await clean();
    throw e;
  }
  let pool: PagePool | null = null;
  let t1 = 0;
  const logWorkers = (done: RenderTotals) => {
    const cpu = done.cpu.map((c, i) => (c === null ? '?' : `${c.toFixed(1)} s (sys ${done.sys[i]!.toFixed(1)})`)).join(', ');
    log(`pages: page workers: ${done.pages} pages in ${workers} workers in ${((performance.now() - t1) / 1000).toFixed(1)} s wall; CPU of each rendering thread (worker threads): ${cpu}`);
  };

  /** Joins the JSON tree to the pages and moves them to `outDir`. */
  const join_ = async () => {
    for (const name of (await readdir(opts.jsonDir)).sort()) await moveDir(join(opts.jsonDir, name), join(inside, name));
    await moveDir(inside, opts.outDir);
  };

  /** On a hit: the worker routes whose shares are not handed to the pool yet. */
  let waiting = hit ? recipe!.routes.filter((r) => r.out === null) : [];
  /** The profile routes, once `companiesWritten` hands them over company by company (taken out of `waiting`). */
  let byCompany: RouteRecipe[] | null = null;
  /** Hands the waiting routes that `ready` accepts to the page pool (started by the first call). */
  const start = (ready: (component: string) => boolean) => {
    const now = waiting.filter((r) => ready(r.component));
    if (now.length === 0) return;
    waiting = waiting.filter((r) => !ready(r.component));
    step.prepare();
    pool!.render({ serverDir: compiled, manifest: recipe!.manifest, outDir: inside, routes: now.map((r) => ({ ...r, from: 0 })) });
  };

  /** The compile under way or done (compileEarly, or finish), and when it started. */
  let compile: { run: ReturnType<typeof compileInWorker>; t0: number; t1: number; early: boolean } | null = null;
  const startCompile = (early: boolean) => {
    const c = (compile = { t0: performance.now(), t1: 0, early, run: compileInWorker({ root: opts.root, outDir: inside, compiled: workers > 0 ? compiled : null, workerRoutes: WORKER_ROUTES, siteUrl: opts.siteUrl, verbose }) });
    c.run.done.then(
      () => (c.t1 = performance.now()),
      () => {}, // awaited in finish
    );
    return c;
  };
  /** The compile's answer, logged. */
  const answerOf = async (c: NonNullable<typeof compile>): Promise<Made> => {
    const made = await c.run.done;
    log(`pages: astro build ${((c.t1 - c.t0) / 1000).toFixed(1)} s wall, on a thread of its own${c.early ? `, beside the views step (done ${((performance.now() - c.t1) / 1000).toFixed(1)} s before it)` : ''}${entry ? ' (compiled pages not in the cache)' : ''}`);
    if (entry && made && !made.recipe) log(`pages: the compiled pages are not kept in the cache: ${made.why}`);
    return made;
  };

  /**
   * The end of a compiled pages step: Astro's content-layer manifests removed (they land in a
   * custom outDir; a static site does not need them), the compiled pages stored in the cache
   * with their recipe, the pages counted (before the JSON joins: the caller counts that
   * itself) and joined to the tree.
   */
  const compiledEnd = async (made: PagesRecipe | null): Promise<PagesWritten> => {
    for (const f of ['content-assets.mjs', 'content-modules.mjs']) await rm(join(inside, f), { force: true });
    if (entry && made) await writeCacheFolder(entry.path, entry.key, entryFiles(compiled, inside, made));
    const pages = sizeOf(inside);
    await join_();
    return { ...pages, compiled: true };
  };

  const step: PagesStep = {
    hit: hit !== null,
    prepare() {
      // The compiled pages from the cache (or, in `finish`, from an early compile).
      if (!recipe || pool) return;
      t1 = performance.now();
      pool = new PagePool(workers - 1);
      pool.warm({ serverDir: compiled, manifest: recipe!.manifest, routes: recipe!.routes.filter((r) => r.out === null).map((r) => ({ ...r, from: 0 })) });
    },
    companiesReady() {
      start((c) => COMPANY_ROUTES.includes(c));
    },
    companiesWritten(slugs) {
      if (!byCompany) {
        byCompany = waiting.filter((r) => COMPANY_ROUTES.includes(r.component));
        waiting = waiting.filter((r) => !COMPANY_ROUTES.includes(r.component));
      }
      if (byCompany.length === 0 || slugs.length === 0) return;
      step.prepare();
      // Two shares a batch: the worker thread takes the batches as they come; the build's
      // thread takes what is left of them once it joins.
      pool!.render({ serverDir: compiled, manifest: recipe!.manifest, outDir: inside, routes: byCompany.map((r) => ({ ...r, from: 0 })), only: { param: COMPANY_PARAM, values: slugs } }, 2);
    },
    viewsReady() {
      start(() => true);
    },
    compileEarly() {
      if (hit || compile || workers === 0) return;
      log('pages: Astro compiles the pages beside the views step');
      startCompile(true);
    },
    async finish() {
      try {
        if (compile?.early) {
          const made = await answerOf(compile);
          if (made?.recipe) {
            // Astro rendered the routes without parameters while the past months' files were
            // still being written: every page is rendered from what it compiled, now that the
            // whole JSON tree is there, as on a cache hit (the same bytes).
            recipe = made.recipe;
            waiting = recipe.routes.filter((r) => r.out === null);
          } else {
            // No recipe (a route the container cannot render as Astro does): Astro's pages
            // are all there is, so Astro builds them again over the whole JSON tree.
            log('pages: no recipe from the early compile; Astro builds the pages again');
            await rm(compiled, { recursive: true, force: true });
          }
        }
        if (recipe) {
          // A cache hit, or an early compile. The routes without parameters (the API docs read
          // the whole JSON tree) to the first worker thread free, and one more worker thread
          // takes shares in this thread's place.
          step.viewsReady();
          if (hit) log(`pages: compiled pages from the cache (${entry!.path})`);
          pool!.grow(1);
          pool!.statics({ serverDir: compiled, recipe, outDir: inside });
          const done = await pool!.join();
          logWorkers(done);
          if (!hit) return await compiledEnd(recipe);
          await join_();
          // Counted from what was written (the restored files, the routes rendered), not by walking the folder again.
          return { files: restored.files + done.pages, bytes: restored.bytes + done.bytes, compiled: false };
        }
        const c = startCompile(false);
        // The page worker threads start (and load Astro's runtime from their bundle) beside
        // the compile, which keeps about one core busy. Worker threads only: this thread has
        // not loaded Astro's modules (PagePool, render-pages.ts).
        const rendering = workers > 0 ? (pool = new PagePool(workers)) : null;
        const made = await answerOf(c);
        if (made && rendering) {
          t1 = performance.now();
          rendering.render({ serverDir: compiled, manifest: made.manifest, outDir: inside, routes: made.workers.map((r) => ({ ...r, from: 1 })) });
          logWorkers(await rendering.join());
        }
        return await compiledEnd(made?.recipe ?? null);
      } finally {
        await step.abort();
      }
    },
    async abort() {
      await compile?.run.stop();
      await pool?.stop();
      await clean();
    },
  };
  return step;
}
