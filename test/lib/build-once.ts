/**
 * Builds the site once for the whole test run, as `npm run build` would, into a
 * temporary folder, with a build cache of its own beside it. Test files run in separate
 * workers of one vitest process, so the build is shared between them through a folder
 * keyed by that process and by the inputs' modification times, guarded by a lock folder.
 * Tests read the build, its log and its cache; none writes to them.
 *
 * The folder is inside the project (`.cache/test-site/`, ignored by git): Astro
 * puts the server chunks of a build whose outDir lies outside the working
 * directory into `<cwd>/.astro/`, which concurrent builds would then share.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { BUILD_NODE_ARGS } from '../../src/pipeline/workers/build-command.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
/** The base of every absolute URL in the build; tests serve it on any port and compare by path. */
export const SITE_URL = 'http://localhost:4321';
export const SOURCE_DATE_EPOCH = 1790000000;
/** `EVI_TEST_DATA` picks another data folder (default: the sample data in `data/`). */
export const DATA_DIR = resolve(ROOT, process.env.EVI_TEST_DATA ?? 'data');

const INPUTS = ['src', 'scripts', 'astro.config.mjs', 'package-lock.json'];
const BUILDS = join(ROOT, '.cache', 'test-site');
const WAIT_MS = 280_000;

/** The newest modification time of the files under `path` (folders' own times left out: a test's scratch folder beside them changes those). */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
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

/** The shared build's output folder, the log it printed (stderr) and its build cache. */
export interface SharedBuild {
  dist: string;
  log: string;
  cache: string;
}

const cacheOf = (dir: string) => `${dir}.cache`;
const logOf = (dir: string) => `${dir}.log`;

/**
 * Runs `node <args>` in the project with `env` (over this process's, with SITE_URL), and
 * gives what it printed on stderr (the build's log); fails with the output's end.
 */
export function runNode(args: readonly string[], env: NodeJS.ProcessEnv, what: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, SITE_URL, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b));
    child.stderr.on('data', (b: Buffer) => (err += b));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(err) : fail(new Error(`${what} failed (exit ${code}):\n${(out + err).slice(-4000)}`))));
  });
}

/** Builds into `outDir`; its log is written last, once the whole site is in place. */
async function run(outDir: string): Promise<void> {
  const env = { EVI_DATA_DIR: DATA_DIR, EVI_OUT_DIR: outDir, EVI_CACHE_DIR: cacheOf(outDir), SOURCE_DATE_EPOCH: String(SOURCE_DATE_EPOCH), EVI_PAGES: '1' };
  const err = await runNode(BUILD_NODE_ARGS, env, 'build');
  writeFileSync(`${logOf(outDir)}.part`, err);
  renameSync(`${logOf(outDir)}.part`, logOf(outDir));
}

/** Shared builds of earlier runs (an hour old) are removed on the way. */
function sweep(except: string): void {
  const hourAgo = Date.now() - 3_600_000;
  const key = basename(except);
  for (const e of readdirSync(BUILDS)) {
    if (e.startsWith(key) || e.startsWith(`.${key}`)) continue;
    const p = join(BUILDS, e);
    try {
      if (statSync(p).mtimeMs < hourAgo) rmSync(p, { recursive: true, force: true });
    } catch {
      // another run may be removing it too
    }
  }
}

async function buildShared(): Promise<SharedBuild> {
  const key = createHash('sha256')
    .update(`${process.ppid}|${DATA_DIR}|${INPUTS.map((p) => newestMtime(join(ROOT, p))).join(',')}|${newestMtime(DATA_DIR)}`)
    .digest('hex')
    .slice(0, 16);
  mkdirSync(BUILDS, { recursive: true });
  const dir = join(BUILDS, key);
  const lock = `${dir}.lock`;
  const complete = () => existsSync(logOf(dir));
  const shared = (): SharedBuild => ({ dist: dir, log: readFileSync(logOf(dir), 'utf8'), cache: cacheOf(dir) });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (complete()) return shared();
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
      return shared();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

let pending: Promise<SharedBuild> | undefined;

/**
 * The shared build (`dist` layout), its log and its cache, built at most once per test run.
 * @example
 * const { log } = await sharedBuild();
 */
export function sharedBuild(): Promise<SharedBuild> {
  return (pending ??= buildShared());
}

/**
 * The built site's folder (`dist` layout), built at most once per test run.
 * @example
 * const dist = await buildSite();
 * const meta = JSON.parse(readFileSync(join(dist, 'views/meta.json'), 'utf8'));
 */
export async function buildSite(): Promise<string> {
  return (await sharedBuild()).dist;
}
