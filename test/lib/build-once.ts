/**
 * Builds the site once for the whole test run, as `npm run build` would, into a
 * temporary folder. Test files run in separate workers of one vitest process, so
 * the build is shared between them through a folder keyed by that process and by
 * the inputs' modification times, guarded by a lock folder.
 *
 * The folder is inside the project (`.cache/test-site/`, ignored by git): Astro
 * puts the server chunks of a build whose outDir lies outside the working
 * directory into `<cwd>/.astro/`, which concurrent builds would then share.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUILD_NODE_ARGS } from '../../src/pipeline/workers/build-command.ts';
import { reportPath } from '../../src/pipeline/write/report.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
/** The base of every absolute URL in the build; tests serve it on any port and compare by path. */
export const SITE_URL = 'http://localhost:4321';
export const SOURCE_DATE_EPOCH = 1790000000;
/** `EVI_TEST_DATA` picks another data folder (default: the sample data in `data/`). */
export const DATA_DIR = resolve(ROOT, process.env.EVI_TEST_DATA ?? 'data');

const INPUTS = ['src', 'scripts', 'astro.config.mjs', 'package-lock.json'];
const BUILDS = join(ROOT, '.cache', 'test-site');
const WAIT_MS = 280_000;

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of readdirSync(path)) if (e !== 'node_modules') max = Math.max(max, newestMtime(join(path, e)));
  return max;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function run(outDir: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...BUILD_NODE_ARGS], {
      cwd: ROOT,
      env: { ...process.env, EVI_DATA_DIR: DATA_DIR, EVI_OUT_DIR: outDir, EVI_CACHE_DIR: 'off', SITE_URL, SOURCE_DATE_EPOCH: String(SOURCE_DATE_EPOCH), EVI_PAGES: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (b: Buffer) => (log += b));
    child.stderr.on('data', (b: Buffer) => (log += b));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`build failed (exit ${code}):\n${log.slice(-4000)}`))));
  });
}

/** Shared builds of earlier runs (an hour old) are removed on the way. */
function sweep(except: string): void {
  const hourAgo = Date.now() - 3_600_000;
  for (const e of readdirSync(BUILDS)) {
    const p = join(BUILDS, e);
    if (p === except || p === `${except}.lock` || p === reportPath(except)) continue;
    try {
      if (statSync(p).mtimeMs < hourAgo) rmSync(p, { recursive: true, force: true });
    } catch {
      // another run may be removing it too
    }
  }
}

async function buildShared(): Promise<string> {
  const key = createHash('sha256')
    .update(`${process.ppid}|${DATA_DIR}|${INPUTS.map((p) => newestMtime(join(ROOT, p))).join(',')}|${newestMtime(DATA_DIR)}`)
    .digest('hex')
    .slice(0, 16);
  mkdirSync(BUILDS, { recursive: true });
  const dir = join(BUILDS, key);
  const lock = `${dir}.lock`;
  const complete = () => existsSync(reportPath(dir));
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    // The build writes its report once the finished site is in place: a report means a whole site.
    if (complete()) return dir;
    try {
      mkdirSync(lock);
    } catch {
      const owner = Number(existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : 0);
      if (owner && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`buildSite: gave up waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      sweep(dir);
      if (!complete()) await run(dir);
      return dir;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

let pending: Promise<string> | undefined;

/**
 * The built site's folder (`dist` layout), built at most once per test run.
 * @example
 * const dist = await buildSite();
 * const meta = JSON.parse(readFileSync(join(dist, 'views/meta.json'), 'utf8'));
 */
export function buildSite(): Promise<string> {
  return (pending ??= buildShared());
}
