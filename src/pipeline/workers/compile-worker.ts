/**
 * The compile worker (build-pages.ts): one Astro build of the pages on a thread of its own,
 * started from its bundle, then (page workers on) the recipe of every route (`makeRecipe`).
 * It answers once and ends, so Astro's compiler and Vite leave with its heap.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { keepCompiled } from '../pages/integration.ts';
import { makeRecipe } from '../pages/render-share.ts';

export interface CompileJob {
  root: string;
  /** Astro's outDir (inside the project). */
  outDir: string;
  /** Where the compiled modules are kept; null when the page workers are off. */
  compiled: string | null;
  /** The worker routes, for the recipe. */
  workerRoutes: string[];
  siteUrl: string;
}

export type CompileAnswer = { made: Awaited<ReturnType<typeof makeRecipe>> | null } | { error: string };

const job = workerData as CompileJob;
try {
  // Loaded here only: Astro's build pulls in Vite and its compiler.
  const { build } = await import('astro');
  await build({
    root: job.root,
    outDir: job.outDir,
    site: job.siteUrl,
    logLevel: 'warn',
    integrations: job.compiled ? [keepCompiled({ to: job.compiled })] : [],
  });
  const made = job.compiled ? await makeRecipe(job.compiled, job.outDir, job.workerRoutes) : null;
  parentPort!.postMessage({ made } satisfies CompileAnswer);
} catch (e) {
  parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies CompileAnswer);
}
