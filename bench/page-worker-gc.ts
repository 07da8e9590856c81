/**
 * The garbage collection of one page worker's work: every profile page of a finished
 * build rendered in one thread, from the compiled pages in its build cache, as the page
 * workers render them (src/build/render-share.ts, 16 shares one after the other), under
 * V8's `--trace-gc-nvp` (in a child process). Prints the pages, the CPU, and V8's
 * scavenges (pauses, bytes allocated, survived and promoted) and full collections.
 *
 *   node --import tsx bench/page-worker-gc.ts <build output folder> <its cache folder>
 *
 * The compiled pages are the cache's newest `pages-*` entry (the last build's), copied under
 * `.cache/` for the run (they import Astro's packages by name); the pages are written to a
 * temporary folder (in /dev/shm where there is one), removed at the end. The views are the
 * output's (`views/`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RECIPE, SERVER, type PagesRecipe } from '../src/build/pages-cache.ts';
import { COMPANY_ROUTES } from '../src/build/render-pages.ts';
import { gcByIsolate, gcLine } from './lib/gc-trace.ts';

const SHARES = 16;
const [flag, ...rest] = process.argv.slice(2);

if (flag === '--child') {
  const [compiled, outDir, views] = rest as [string, string, string];
  process.env.EVI_VIEWS_DIR = views;
  process.env.EVI_PAGES_IN_WORKERS = '0';
  const { renderPageJob } = await import('../src/build/render-share.ts');
  const recipe = JSON.parse(readFileSync(join(compiled, '..', RECIPE), 'utf8')) as PagesRecipe;
  const routes = recipe.routes.filter((r) => COMPANY_ROUTES.includes(r.component)).map((r) => ({ ...r, from: 0 }));
  const cpu0 = process.cpuUsage();
  let pages = 0;
  for (let worker = 0; worker < SHARES; worker++) pages += (await renderPageJob({ serverDir: compiled, manifest: recipe.manifest, outDir, routes, worker, workers: SHARES })).pages;
  const cpu = process.cpuUsage(cpu0);
  console.error(JSON.stringify({ pages, cpu: (cpu.user + cpu.system) / 1e6 }));
} else {
  if (!flag || !rest[0]) throw new Error('usage: node --import tsx bench/page-worker-gc.ts <build output folder> <its cache folder>');
  const out = realpathSync(flag);
  const cache = resolve(rest[0]);
  const entry = readdirSync(cache)
    .filter((f) => f.startsWith('pages-'))
    .map((f) => join(cache, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!entry) throw new Error(`no compiled pages (pages-*) in ${cache}`);
  const root = resolve(import.meta.dirname, '..');
  const work = join(root, '.cache', `page-worker-gc-${process.pid}`);
  // In memory where there is a tmpfs: the disk's state (files just deleted) moves the CPU of writing ~0.3 GB of pages by seconds.
  const pagesOut = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'evi-page-worker-gc-'));
  try {
    // The recipe beside the modules, as in the cache entry.
    cpSync(join(entry, SERVER), join(work, SERVER), { recursive: true });
    cpSync(join(entry, RECIPE), join(work, RECIPE));
    const child = spawnSync(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', import.meta.filename, '--child', join(work, SERVER), pagesOut, join(out, 'views')], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
    if (child.status !== 0) throw new Error(child.stderr.slice(-4000));
    const { pages, cpu } = JSON.parse(child.stderr.trim().split('\n').at(-1)!) as { pages: number; cpu: number };
    console.log(`${pages.toLocaleString('en-US')} profile pages in one thread (${entry.split('/').at(-1)}), ${cpu.toFixed(2)} s of CPU; the rendering thread: ${gcLine(gcByIsolate(child.stdout)[0]!)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(pagesOut, { recursive: true, force: true });
  }
}
