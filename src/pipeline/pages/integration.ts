import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Keeps the modules Astro compiled for the pages (which a static build removes) in `to`, for the page workers. */
export function keepCompiled(opts: { to: string }): AstroIntegration {
  return {
    name: 'evi-keep-compiled',
    hooks: {
      'astro:build:generated': async ({ dir }) => {
        // Server chunks are in outDir when it lies inside the working directory, else in <cwd>/.astro/.
        const from = dir.href.startsWith(pathToFileURL(process.cwd()).href) ? fileURLToPath(dir) : join(process.cwd(), '.astro');
        for (const e of await readdir(from, { withFileTypes: true })) {
          const modules = e.isDirectory() ? ['chunks', 'pages'].includes(e.name) : e.name.endsWith('.mjs');
          if (modules) await cp(join(from, e.name), join(opts.to, e.name), { recursive: true, filter: (src) => !src.endsWith('.map') });
        }
      },
    },
  };
}
