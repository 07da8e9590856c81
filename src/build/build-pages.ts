import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'astro';
import { keepCompiled } from './integration.ts';
import { moveDir } from './move-dir.ts';
import { IN_WORKERS_ENV, WORKER_ROUTES, pageWorkers, renderInWorkers } from './render-pages.ts';

async function sizeOf(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) {
      files++;
      bytes += (await stat(join(e.parentPath, e.name))).size;
    }
  }
  return { files, bytes };
}

/**
 * Runs Astro over `src/pages` into `outDir`, then the page workers (render-pages.ts) for
 * the profiles and leaderboards unless `EVI_PAGE_WORKERS=0`; pages read the views from
 * `viewsDir`. The JSON tree in `jsonDir` (views, static API answers, host files, written
 * beforehand by the build's JsonWriter) then joins the pages, one rename per top-level
 * entry instead of one Astro route per file. Returns what the pages step itself wrote.
 */
export async function buildPages(opts: { root: string; outDir: string; viewsDir: string; jsonDir: string; siteUrl: string }): Promise<{ files: number; bytes: number }> {
  process.env.EVI_VIEWS_DIR = opts.viewsDir;
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const workers = pageWorkers();
  process.env[IN_WORKERS_ENV] = workers > 0 ? '1' : '0';
  // Astro puts a build's server chunks in <cwd>/.astro/ when its outDir lies outside the
  // project, where concurrent builds would share them: build inside, then move.
  const inside = join(opts.root, '.cache', `pages-${process.pid}`);
  const compiled = join(opts.root, '.cache', `pages-${process.pid}-compiled`);
  const clean = () => Promise.all([inside, compiled].map((d) => rm(d, { recursive: true, force: true })));
  await clean();
  await mkdir(join(opts.root, '.cache'), { recursive: true });
  try {
    const a0 = performance.now();
    await build({
      root: opts.root,
      outDir: inside,
      site: opts.siteUrl,
      logLevel: process.env.EVI_ASTRO_LOG === '1' ? 'info' : 'warn',
      integrations: workers > 0 ? [keepCompiled({ to: compiled })] : [],
    });
    if (process.env.EVI_ASTRO_LOG === '1') console.error(`astro build: ${((performance.now() - a0) / 1000).toFixed(1)} s wall`);
    if (workers > 0) {
      const t0 = performance.now();
      const done = await renderInWorkers({ serverDir: compiled, outDir: inside, routes: WORKER_ROUTES, workers });
      const cpu = done.cpu.map((c) => (c === null ? '?' : c.toFixed(1))).join(' s, ');
      if (process.env.EVI_ASTRO_LOG === '1') console.error(`page workers: ${done.pages} pages in ${workers} workers in ${((performance.now() - t0) / 1000).toFixed(1)} s wall; CPU of each share's thread (main first): ${cpu} s`);
    }
    // Astro's content-layer manifests land in a custom outDir; a static site does not need them.
    for (const f of ['content-assets.mjs', 'content-modules.mjs']) await rm(join(inside, f), { force: true });
    // Counted before the JSON joins: the caller counts that itself.
    const pages = await sizeOf(inside);
    for (const name of (await readdir(opts.jsonDir)).sort()) await moveDir(join(opts.jsonDir, name), join(inside, name));
    await moveDir(inside, opts.outDir);
    return pages;
  } finally {
    await clean();
  }
}
