import { readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readCacheFolder, writeCacheFolder } from '../cache/cache-file.ts';
import { pagesEntry } from '../cache/caches.ts';
import { moveDir } from '../release/move-dir.ts';
import { RECIPE, SERVER, STATIC, entryFiles, pagesInputsKey } from './pages-cache.ts';
import type { PagesRecipe, RouteRecipe } from './pages-cache.ts';
import type { RenderJob } from './render-share.ts';
import type { PackSizes } from '../../core/views/packs.ts';
import { COMPANY_PARAM, COMPANY_ROUTES, IN_WORKERS_ENV, WORKER_ROUTES, PagePool, pageWorkers, type RenderTotals } from './render-pages.ts';
import type { CompileAnswer, CompileJob } from '../workers/compile-worker.ts';
import { tsWorker } from '../workers/worker-pool.ts';
import type { Worker } from 'node:worker_threads';

/** The files under `dir` and their bytes (synchronous: far quicker than a stat per file through libuv). */
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

/** One Astro build at a time per project (each rewrites `.astro/` in place): a lock makes the second wait. */
async function astroLock(root: string): Promise<() => Promise<void>> {
  const { lock } = await import('proper-lockfile');
  return lock(root, {
    lockfilePath: join(root, '.cache', 'astro-build.lock'),
    realpath: false,
    stale: 30_000,
    retries: { retries: 1200, minTimeout: 250, maxTimeout: 500 },
      // A late refresh (busy event loop) goes on: at worst two builds overlap, as without the lock.
    onCompromised: () => {},
  });
}

/** The compile worker's recipe, or null when the page workers are off. */
type Made = Extract<CompileAnswer, { made: unknown }>['made'];

/**
 * Astro's build of the pages (and the page workers' recipe) on the compile worker. The env is
 * taken at the call: a PagePool made meanwhile sets IN_WORKERS_ENV for its own threads.
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
  /** The build cache (EVI_CACHE_DIR); null or absent: none. */
  cacheDir?: string | null;
  log?: (line: string) => void;
}

export interface PagesWritten {
  files: number;
  bytes: number;
  compiled: boolean;
}

/** The pages step, opened before the JSON tree is complete so that page workers can start early (run-build.ts). */
export interface PagesStep {
  /** Whether the compiled pages came from the build cache. */
  readonly hit: boolean;
  /** The views step begins: on a hit the page workers start and load the compiled modules. */
  prepare(): void;
  /** The site will surely be packed (cut by `sizes`): from now on the pages that go into packs go into spools in `dir` (write/spool.ts). */
  spoolInto(dir: string, sizes: PackSizes): void;
  /** `meta.json` and the current company views are on disk: on a hit the profiles can be rendered. */
  companiesReady(): void;
  /** The views of `slugs` are on disk (monthly build): on a hit their profiles are rendered at once. */
  companiesWritten(slugs: string[]): void;
  /** What the page workers' routes read is on disk: on a hit, render them. */
  viewsReady(): void;
  /** What the routes without parameters read is on disk: without a hit, Astro compiles now. */
  compileEarly(): void;
  /** The whole JSON tree is written: renders the rest, joins the tree to the pages. */
  finish(): Promise<PagesWritten>;
  /** The build failed: ends the page workers and removes the step's folders. */
  abort(): Promise<void>;
}

/** The pages step in one go, over views already written (scripts/build-pages.ts). */
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
 * The pages step. On a cache hit (pages-cache.ts) the page workers render every page from the
 * cached modules; otherwise Astro builds `src/pages` on the compile worker and the result is
 * cached. The JSON tree then joins the pages, one rename per top-level entry.
 */
export async function openPages(opts: PagesOptions): Promise<PagesStep> {
  const log = opts.log ?? (() => {});
  process.env.EVI_VIEWS_DIR = opts.viewsDir;
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const workers = pageWorkers();
  process.env[IN_WORKERS_ENV] = workers > 0 ? '1' : '0';
  // Astro puts server chunks in <cwd>/.astro/ when outDir lies outside the project, shared by
  // concurrent builds: build inside, then move. Compiled modules import Astro's runtime by name.
  const inside = join(opts.root, '.cache', `pages-${process.pid}`);
  const compiled = join(opts.root, '.cache', `pages-${process.pid}-compiled`);
  const clean = () => Promise.all([inside, compiled].map((d) => rm(d, { recursive: true, force: true }))).then(() => {});
  await clean();
  await mkdir(join(opts.root, '.cache'), { recursive: true });
  const entry = opts.cacheDir && workers > 0 ? pagesEntry(opts.cacheDir, pagesInputsKey(opts.root, opts.siteUrl, WORKER_ROUTES)) : null;
  const hit = entry && process.env[FORCE_COMPILE_ENV] !== '1' ? await readCacheFolder(entry.path, entry.key, log) : null;
  let recipe: PagesRecipe | null = null;
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

  const join_ = async () => {
    for (const name of (await readdir(opts.jsonDir)).sort()) await moveDir(join(opts.jsonDir, name), join(inside, name));
    await moveDir(inside, opts.outDir);
  };

  let spool: RenderJob['spool'];
  let waiting = hit ? recipe!.routes.filter((r) => r.out === null) : [];
  let byCompany: RouteRecipe[] | null = null;
  /** Hands the waiting routes that `ready` accepts to the page pool. */
  const start = (ready: (component: string) => boolean) => {
    const now = waiting.filter((r) => ready(r.component));
    if (now.length === 0) return;
    waiting = waiting.filter((r) => !ready(r.component));
    step.prepare();
    pool!.render({ serverDir: compiled, manifest: recipe!.manifest, outDir: inside, spool, routes: now.map((r) => ({ ...r, from: 0 })) });
  };

  let compile: { run: ReturnType<typeof compileInWorker>; t0: number; t1: number; early: boolean } | null = null;
  const startCompile = (early: boolean) => {
    const c = (compile = { t0: performance.now(), t1: 0, early, run: compileInWorker({ root: opts.root, outDir: inside, compiled: workers > 0 ? compiled : null, workerRoutes: WORKER_ROUTES, siteUrl: opts.siteUrl }) });
    c.run.done.then(
      () => (c.t1 = performance.now()),
      () => {}, // awaited in finish
    );
    return c;
  };
  const answerOf = async (c: NonNullable<typeof compile>): Promise<Made> => {
    const made = await c.run.done;
    log(`pages: astro build ${((c.t1 - c.t0) / 1000).toFixed(1)} s wall, on a thread of its own${c.early ? `, beside the views step (done ${((performance.now() - c.t1) / 1000).toFixed(1)} s before it)` : ''}${entry ? ' (compiled pages not in the cache)' : ''}`);
    if (entry && made && !made.recipe) log(`pages: the compiled pages are not kept in the cache: ${made.why}`);
    return made;
  };

  /** The end of a compile: drops Astro's content-layer manifests, caches the result, joins the tree. */
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
      if (!recipe || pool) return;
      t1 = performance.now();
      pool = new PagePool(workers - 1);
      pool.warm({ serverDir: compiled, manifest: recipe!.manifest, routes: recipe!.routes.filter((r) => r.out === null).map((r) => ({ ...r, from: 0 })) });
    },
    spoolInto(dir, sizes) {
      spool = { dir, sizes };
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
      // Two shares a batch; the build's thread takes what is left once it joins.
      pool!.render({ serverDir: compiled, manifest: recipe!.manifest, outDir: inside, spool, routes: byCompany.map((r) => ({ ...r, from: 0 })), only: { param: COMPANY_PARAM, values: slugs } }, 2);
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
            // Render every page from what was compiled, as on a hit.
            recipe = made.recipe;
            waiting = recipe.routes.filter((r) => r.out === null);
          } else {
            // No recipe (a route the container cannot render as Astro does): Astro builds again.
            log('pages: no recipe from the early compile; Astro builds the pages again');
            await rm(compiled, { recursive: true, force: true });
          }
        }
        if (recipe) {
          // The routes without parameters to the first free worker; one more worker takes this thread's place.
          step.viewsReady();
          if (hit) log(`pages: compiled pages from the cache (${entry!.path})`);
          pool!.grow(1);
          pool!.statics({ serverDir: compiled, recipe, outDir: inside });
          const done = await pool!.join();
          logWorkers(done);
          if (!hit) return await compiledEnd(recipe);
          await join_();
          return { files: restored.files + done.pages, bytes: restored.bytes + done.bytes, compiled: false };
        }
        const c = startCompile(false);
        // The page workers start beside the compile; this thread never loads Astro's modules.
        const rendering = workers > 0 ? (pool = new PagePool(workers)) : null;
        const made = await answerOf(c);
        if (made && rendering) {
          t1 = performance.now();
          rendering.render({ serverDir: compiled, manifest: made.manifest, outDir: inside, spool, routes: made.workers.map((r) => ({ ...r, from: 1 })) });
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
