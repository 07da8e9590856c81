/**
 * The compiled pages in the build cache and the recipe that renders every route from them, so
 * that a build whose page sources did not change skips `astro build`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What Astro's compile of the pages reads. */
const INPUTS = ['src', 'public', 'astro.config.mjs', 'astro.config.ts', 'astro.config.mts', 'tsconfig.json', 'package-lock.json'];

/** Every file under `dir`, as paths relative to `base`, sorted. */
export function filesUnder(base: string, dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(base, join(e.parentPath, e.name)))
    .sort();
}

/** The digest of everything the compile depends on. */
export function pagesInputsKey(root: string, siteUrl: string, workerRoutes: string[]): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ root, siteUrl, node: process.version, workerRoutes }));
  for (const name of INPUTS) {
    const path = join(root, name);
    if (!existsSync(path)) continue;
    const files = statSync(path).isDirectory() ? filesUnder(root, path) : [name];
    for (const f of files) h.update(`\0${f}\0`).update(readFileSync(join(root, f)));
  }
  return h.digest('hex');
}

/** How the pages step renders one route from the compiled modules. */
export interface RouteRecipe {
  /** Source component, relative to the project (`src/pages/x.astro`). */
  component: string;
  /** Its compiled module, relative to the compiled modules' folder. */
  module: string;
  /** `page` (HTML through the container, plus `chrome`) or `endpoint` (the body as it is). */
  kind: 'page' | 'endpoint';
  /** Where the page goes in the output; null for the page workers' routes. */
  out: string | null;
  /** What Astro's pipeline adds before `</head>` (stylesheet links). */
  chrome: string;
}

export interface PagesRecipe {
  routes: RouteRecipe[];
  /** The compiled manifest module, relative to the compiled modules' folder. */
  manifest: string;
  /** Astro's output that no route renders (client assets, public files). */
  statics: string[];
}

export const SERVER = 'server';
export const STATIC = 'static';
export const RECIPE = 'recipe.json';

/** The entry's files: the compiled modules, the static files, the recipe. */
export function entryFiles(compiled: string, outDir: string, recipe: PagesRecipe): [string, Uint8Array][] {
  return [
    ...filesUnder(compiled, compiled).map((f): [string, Uint8Array] => [`${SERVER}/${f}`, readFileSync(join(compiled, f))]),
    ...recipe.statics.map((f): [string, Uint8Array] => [`${STATIC}/${f}`, readFileSync(join(outDir, f))]),
    [RECIPE, Buffer.from(JSON.stringify(recipe))],
  ];
}
