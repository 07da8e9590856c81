/**
 * `npm run build` runs the build as bench:build and the tests run it (BUILD_NODE_ARGS), and its
 * V8 flags reach no worker's execArgv, where Node refuses them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_NODE_ARGS, BUILD_V8_FLAGS } from '../src/build/build-command.ts';
import { execArgvWithoutLoaders } from '../src/build/worker-bundle.ts';

const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };

describe('the build command', () => {
  it("is package.json's build script", () => {
    expect(pkg.scripts.build).toBe(`node ${BUILD_NODE_ARGS.join(' ')}`);
  });

  it('gives workers none of its V8 flags', () => {
    expect(BUILD_V8_FLAGS.length).toBeGreaterThan(0);
    expect(execArgvWithoutLoaders(['--cpu-prof', ...BUILD_NODE_ARGS.slice(0, -1)])).toEqual(['--cpu-prof']);
  });
});
