/**
 * The built site the HTTP and workerd suites run over: `dist/` when a build is
 * there, else one build (views and JSON only) into `.cache/test-dist`, shared by
 * test files running in parallel through a lock directory.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

export async function builtDist(): Promise<string> {
  const dist = join(root, 'dist');
  if (existsSync(join(dist, 'views', 'meta.json'))) return dist;
  const out = join(root, '.cache', 'test-dist');
  const lock = `${out}.lock`;
  mkdirSync(join(root, '.cache'), { recursive: true });
  for (let waited = 0; ; waited += 250) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than the longest build is a leftover of a killed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (!existsSync(join(out, 'views', 'meta.json'))) {
      await run(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts')], {
        cwd: root,
        env: { ...process.env, EVI_OUT_DIR: out, EVI_PAGES: '0', SOURCE_DATE_EPOCH: process.env.SOURCE_DATE_EPOCH ?? '1777507200' },
        maxBuffer: 64 * 1024 * 1024,
      });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return out;
}
