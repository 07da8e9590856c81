import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { moveDir } from './move-dir.ts';

/**
 * Joins the JSON tree (views, static API answers, host files), written beforehand by
 * the build's JsonWriter, to Astro's output in `astro:build:done`: tens of thousands of
 * files move in one rename each instead of going through one Astro route per file.
 */
export function jsonTree(opts: { from: string; beforeJoin?: (dir: string) => Promise<void> }): AstroIntegration {
  return {
    name: 'evi-json-tree',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        await opts.beforeJoin?.(out);
        const names = (await readdir(opts.from)).sort();
        for (const name of names) await moveDir(join(opts.from, name), join(out, name));
        logger.info(`joined the JSON tree: ${names.join(', ')}`);
      },
    },
  };
}
