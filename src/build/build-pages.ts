import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'astro';

/** Runs Astro over `src/pages` into `outDir`; pages read the views from `viewsDir`. */
export async function buildPages(opts: { root: string; outDir: string; viewsDir: string; siteUrl: string }): Promise<{ files: number; bytes: number }> {
  process.env.EVI_VIEWS_DIR = opts.viewsDir;
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  await build({ root: opts.root, outDir: opts.outDir, site: opts.siteUrl, logLevel: process.env.EVI_ASTRO_LOG === '1' ? 'info' : 'warn' });
  // Astro's content-layer manifests land in a custom outDir; a static site does not need them.
  for (const f of ['content-assets.mjs', 'content-modules.mjs']) await rm(join(opts.outDir, f), { force: true });
  let files = 0;
  let bytes = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else {
        files++;
        bytes += (await stat(p)).size;
      }
    }
  };
  await walk(opts.outDir);
  return { files, bytes };
}
