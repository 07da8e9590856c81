/**
 * `npm run build` runs the build as bench:build and the tests run it (BUILD_NODE_ARGS), from a
 * bundle whose modules find their files, and its V8 flags reach no worker's execArgv, where
 * Node refuses them.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_NODE_ARGS, BUILD_V8_FLAGS } from '../src/pipeline/workers/build-command.ts';
import { ROOT, buildBundle, manifestPath } from '../src/pipeline/workers/bundle-file.mjs';
import { execArgvWithoutLoaders } from '../src/pipeline/workers/worker-bundle.ts';

const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };

describe('the build command', () => {
  it("is package.json's build script", () => {
    expect(pkg.scripts.build).toBe(`node ${BUILD_NODE_ARGS.join(' ')}`);
  });

  it("runs from a bundle in which no module finds a file by its own location but the workers' folder's", () => {
    // In the bundle every module's import.meta.url is that of src/pipeline/workers/worker-pool.ts, and an ESM
    // bundle has no __dirname: a module elsewhere that used either would find the wrong file.
    expect(buildBundle()).not.toBeNull();
    const { inputs } = JSON.parse(readFileSync(manifestPath(join(ROOT, 'scripts', 'build.ts')), 'utf8')) as { inputs: Record<string, string> };
    expect(Object.keys(inputs).length).toBeGreaterThan(100);
    const located = Object.keys(inputs).filter((input) => /import\.meta|__dirname|__filename/.test(readFileSync(join(ROOT, input), 'utf8')));
    expect(located.filter((input) => !input.startsWith('src/pipeline/workers/'))).toEqual([]);
    // those that do are still there (or the check above checks nothing)
    expect(located).toContain('src/pipeline/workers/worker-pool.ts');
  });

  it('gives workers none of its V8 flags', () => {
    expect(BUILD_V8_FLAGS.length).toBeGreaterThan(0);
    expect(execArgvWithoutLoaders(['--cpu-prof', ...BUILD_NODE_ARGS.slice(0, -1)])).toEqual(['--cpu-prof']);
  });
});
