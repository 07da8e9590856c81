/**
 * The pages step alone over an existing build's views (read only), for profiling and
 * timing it apart from the rest of the build:
 *   node --import tsx bench/pages-step.ts <build folder with views/> <output folder>
 * SITE_URL as for the build. The output folder is replaced.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildPages } from '../src/build/build-pages.ts';

const [from, out] = process.argv.slice(2);
if (!from || !out) {
  console.error('usage: bench/pages-step.ts <build folder with views/> <output folder>');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const siteUrl = (process.env.SITE_URL ?? 'http://localhost:4321').replace(/\/+$/, '');
const empty = await mkdtemp(join(tmpdir(), 'evi-pages-'));
await rm(resolve(out), { recursive: true, force: true });
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const pages = await buildPages({ root, outDir: resolve(out), viewsDir: join(resolve(from), 'views'), jsonDir: empty, siteUrl });
const cpu = process.cpuUsage(cpu0);
await rm(empty, { recursive: true, force: true });
console.log(
  `pages step: ${pages.files} files, ${(pages.bytes / 2 ** 20).toFixed(1)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s wall, ` +
    `main thread+workers CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`,
);
