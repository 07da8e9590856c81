import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'astro';
import { jsonTree } from './integration.ts';
import { moveDir } from './move-dir.ts';
import { IN_WORKERS_ENV, pageWorkers, workerPages } from './render-pages.ts';

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
 * Runs Astro over `src/pages` into `outDir`; pages read the views from `viewsDir`, and
 * the JSON tree in `jsonDir` joins the site through the integration's build:done hook.
 * Returns what Astro itself wrote.
 */
export async function buildPages(opts: { root: string; outDir: string; viewsDir: string; jsonDir: string; siteUrl: string }): Promise<{ files: number; bytes: number }> {
  process.env.EVI_VIEWS_DIR = opts.viewsDir;
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  // Profiles and leaderboards are rendered by the page workers (render-pages.ts) unless EVI_PAGE_WORKERS=0.
  const workers = pageWorkers();
  process.env[IN_WORKERS_ENV] = workers > 0 ? '1' : '0';
  // Astro puts a build's server chunks in <cwd>/.astro/ when its outDir lies outside the
  // project, where concurrent builds would share them: build inside, then move.
  const inside = join(opts.root, '.cache', `pages-${process.pid}`);
  await rm(inside, { recursive: true, force: true });
  await mkdir(join(opts.root, '.cache'), { recursive: true });
  let pages = { files: 0, bytes: 0 };
  try {
    await build({
      root: opts.root,
      outDir: inside,
      site: opts.siteUrl,
      logLevel: process.env.EVI_ASTRO_LOG === '1' ? 'info' : 'warn',
      integrations: [
        ...(workers > 0 ? [workerPages({ workers })] : []),
        jsonTree({
          from: opts.jsonDir,
          // Counted before the JSON joins: the caller counts that itself.
          beforeJoin: async (dir) => {
            // Astro's content-layer manifests land in a custom outDir; a static site does not need them.
            for (const f of ['content-assets.mjs', 'content-modules.mjs']) await rm(join(dir, f), { force: true });
            pages = await sizeOf(dir);
          },
        }),
      ],
    });
    await moveDir(inside, opts.outDir);
  } finally {
    await rm(inside, { recursive: true, force: true });
  }
  return pages;
}
