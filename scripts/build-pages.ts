/**
 * The pages step alone, over an existing build's views: renders the pages into a new folder
 * (replaced; pages only), e.g. to see a component change without building the data again.
 *   npx tsx scripts/build-pages.ts <build folder with views/> <output folder>
 * SITE_URL, EVI_CACHE_DIR, EVI_PAGES_COMPILE and EVI_PAGE_WORKERS as for the build.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildPages } from '../src/pipeline/pages/build-pages.ts';

const [from, out] = process.argv.slice(2);
if (!from || !out) {
  console.error('usage: scripts/build-pages.ts <build folder with views/> <output folder>');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const siteUrl = (process.env.SITE_URL ?? 'http://localhost:4321').replace(/\/+$/, '');
const cache = process.env.EVI_CACHE_DIR || '.cache/months';
const empty = await mkdtemp(join(tmpdir(), 'evi-pages-'));
await rm(resolve(out), { recursive: true, force: true });
const t0 = performance.now();
const cpu0 = process.cpuUsage();
try {
  const pages = await buildPages({ root, outDir: resolve(out), viewsDir: join(resolve(from), 'views'), jsonDir: empty, siteUrl, cacheDir: cache === 'off' ? null : resolve(cache), log: (l) => console.error(l) });
  const cpu = process.cpuUsage(cpu0);
  console.error(
    `pages step (${pages.compiled ? 'compiled' : 'compiled pages from the cache'}): ${pages.files} files, ${(pages.bytes / 2 ** 20).toFixed(1)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ` +
      `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (all threads)`,
  );
} finally {
  await rm(empty, { recursive: true, force: true });
}
