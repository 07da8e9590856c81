/**
 * The compile worker (build-pages.ts): one Astro build of the pages in a thread of its own,
 * started from its bundle without the build's loader (tsx), then, with the page workers on,
 * the recipe that renders every route from what Astro compiled (render-share.ts
 * `makeRecipe`). It answers once and ends: Astro's compiler and Vite (~280 MiB at their
 * peak) go with its heap. In the build's thread, through tsx's hooks, the same build took
 * ~1 s longer and ~1.5 s more CPU, and ~600 MiB of RSS against ~320 MiB alone
 * (BENCHMARKS.md, "Build: the pages compiled on a thread of their own").
 */
import { parentPort, workerData } from 'node:worker_threads';
import { keepCompiled } from './integration.ts';
import { makeRecipe } from './render-share.ts';

export interface CompileJob {
  root: string;
  /** Astro's outDir (inside the project). */
  outDir: string;
  /** Where the compiled modules are kept; null when the page workers are off (Astro renders every page). */
  compiled: string | null;
  /** The worker routes (render-pages.ts WORKER_ROUTES), for the recipe. */
  workerRoutes: string[];
  siteUrl: string;
  verbose: boolean;
}

/** Tests only: `1` makes the compile answer no recipe (the build then keeps Astro's pages and no cache entry). */
export const NO_RECIPE_ENV = 'EVI_PAGES_NO_RECIPE';

export type CompileAnswer = { made: Awaited<ReturnType<typeof makeRecipe>> | null } | { error: string };

const job = workerData as CompileJob;
try {
  // Loaded here only: Astro's build pulls in Vite and its compiler.
  const { build } = await import('astro');
  await build({
    root: job.root,
    outDir: job.outDir,
    site: job.siteUrl,
    logLevel: job.verbose ? 'info' : 'warn',
    integrations: job.compiled ? [keepCompiled({ to: job.compiled })] : [],
  });
  let made = job.compiled ? await makeRecipe(job.compiled, job.outDir, job.workerRoutes) : null;
  // Tests: the compile answers no recipe, as for a route the container cannot render as Astro does.
  if (made && process.env[NO_RECIPE_ENV] === '1') made = { ...made, recipe: null, why: `${NO_RECIPE_ENV}=1` };
  parentPort!.postMessage({ made } satisfies CompileAnswer);
} catch (e) {
  parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies CompileAnswer);
}
