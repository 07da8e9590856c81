import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layers, bottom up: core -> api -> adapters (Node server, Cloudflare Worker). The build
// (src/pipeline) and the pages sit beside the adapters, on core and api; nothing below imports
// anything above it.
const SRC = join(import.meta.dirname, '..');

/** Every module specifier of a source file: static imports, re-exports, side-effect and dynamic imports. */
function specifiers(source: string): string[] {
  const out: string[] = [];
  const re = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of source.matchAll(re)) out.push((m[1] ?? m[2])!);
  return out;
}

/** The top folder of `src` a relative specifier lands in (`core`, `api`, ...), or null for a package. */
function layerOf(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const target = relative(SRC, join(dirname(file), spec)).split(sep).join(posix.sep);
  return target.startsWith('..') ? '(outside src)' : target.split('/')[0]!;
}

interface Rule {
  /** Layer folders under src, as far as they exist. */
  dirs: string[];
  /** Top folders of src the layer may import from (its own folder is always allowed). */
  may: string[];
  /** Packages it may not import. */
  forbiddenPackages: RegExp;
}

/** `file: specifier` for every import of the layer that breaks its rule (tests are left out: they may use node:*). */
function offenders(rule: Rule): string[] {
  const found: string[] = [];
  for (const dir of rule.dirs) {
    const root = join(SRC, dir);
    if (!existsSync(root)) continue;
    const own = dir.split('/')[0]!;
    for (const f of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!/\.(ts|tsx|mts)$/.test(f) || /\.test\.ts$/.test(f)) continue;
      const file = join(root, f);
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const layer = layerOf(file, spec);
        const bad = layer === null ? rule.forbiddenPackages.test(spec) : layer !== own && !rule.may.includes(layer);
        if (bad) found.push(`${dir}/${f.split(sep).join('/')}: ${spec}`);
      }
    }
  }
  return found;
}

describe('layering', () => {
  it('reads every kind of import a source file can have', () => {
    const src = [
      "import { a } from './a.ts';",
      "import type { B } from '../core/b.ts';",
      "import * as c from 'node:fs';",
      "import './side-effect.ts';",
      "export { d } from '../build/d.ts';",
      'import {\n  e,\n  f,\n} from "hono";',
      "const g = await import('../pages/g.ts');",
    ].join('\n');
    expect(specifiers(src)).toEqual(['./a.ts', '../core/b.ts', 'node:fs', './side-effect.ts', '../build/d.ts', 'hono', '../pages/g.ts']);
    expect(layerOf(join(SRC, 'api', 'x.ts'), '../core/b.ts')).toBe('core');
    expect(layerOf(join(SRC, 'api', 'x.ts'), './y.ts')).toBe('api');
    expect(layerOf(join(SRC, 'api', 'x.ts'), '../../bench/z.ts')).toBe('(outside src)');
    expect(layerOf(join(SRC, 'api', 'x.ts'), 'zod')).toBeNull();
  });

  // src/core runs in Node, workerd and the browser: it imports no runtime, no framework and no upper layer.
  it('src/core imports nothing from node:*, Astro, Hono or the layers above it', () => {
    expect(offenders({ dirs: ['core'], may: [], forbiddenPackages: /^(node:|astro|hono|@hono\/)/ })).toEqual([]);
  });

  // src/api is the runtime-neutral handler: any adapter (Node, workerd, Pages Functions) can run it.
  it('src/api imports only src/core and npm packages, never node:*', () => {
    expect(offenders({ dirs: ['api'], may: ['core'], forbiddenPackages: /^node:/ })).toEqual([]);
  });

  // The MCP server is a protocol over the api's handler, runtime-neutral: its stdio entry (a Node program) is the Node adapter's.
  it('the MCP server (src/mcp) imports src/api and src/core, never an adapter, node:* or Astro', () => {
    expect(offenders({ dirs: ['mcp'], may: ['api', 'core'], forbiddenPackages: /^(node:|astro|astro:)/ })).toEqual([]);
  });

  // The pages render at build time (node:* is fine) from the views and the API's contract, never from the build's code.
  it('the pages and their components never import the build (src/pipeline)', () => {
    expect(offenders({ dirs: ['pages', 'components', 'layouts'], may: ['core', 'api', 'mcp', 'adapters', 'components', 'layouts', 'styles'], forbiddenPackages: /^$/ })).toEqual([]);
  });

  // Adapters only adapt: they run the api (and the MCP protocol over it) on one runtime and know nothing of the build or the pages.
  it('the adapters (src/adapters/node, src/adapters/cloudflare) import src/api, src/mcp and src/core, never the build or pages', () => {
    expect(
      offenders({ dirs: ['adapters'], may: ['api', 'mcp', 'core'], forbiddenPackages: /^(astro|astro:)/ }),
    ).toEqual([]);
  });

  // The policy (rate limit, codings, kept answers, CORS, request log) lives in the api; an adapter reaches it through
  // the api's public entry only, so a new runtime cannot lean on the api's insides or re-implement them.
  it("an adapter imports only the api's public entry (src/api/index.ts), src/mcp, its own folder, packages and node:*", () => {
    const found: string[] = [];
    const root = join(SRC, 'adapters');
    for (const f of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!/\.(ts|tsx|mts)$/.test(f) || /\.test\.ts$/.test(f)) continue;
      const file = join(root, f);
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = relative(SRC, join(dirname(file), spec)).split(sep).join(posix.sep);
        const own = `adapters/${f.split(sep)[0]}/`;
        const ok = target === 'api/index.ts' || target.startsWith('mcp/') || target.startsWith(own);
        if (!ok) found.push(`adapters/${f.split(sep).join('/')}: ${spec}`);
      }
    }
    expect(found).toEqual([]);
  });
});
