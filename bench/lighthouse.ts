/**
 * Lighthouse on the built site (`npm run bench:lighthouse`, after `npm run build`): the
 * home page, /api-docs/, a leaderboard, a profile and the search results page, served by the Node server on a free
 * loopback port, audited in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium; no
 * browser is downloaded) with Lighthouse's mobile and desktop settings. Prints a table of
 * the four category scores, writes each report under bench/out/lighthouse/, and exits 1
 * when accessibility or best practices is below 100 on any page.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { Config, Flags, Result } from 'lighthouse';
import { startServer } from '../src/adapters/node/index.ts';
import type { MetaView } from '../src/core/views/layout.ts';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/** The categories that must score 100. */
const REQUIRED = ['accessibility', 'best-practices'] as const;

const root = resolve(import.meta.dirname, '..');
const dist = resolve(root, process.env.DIST_DIR ?? 'dist');
const out = join(root, 'bench', 'out', 'lighthouse');

const meta = JSON.parse(readFileSync(join(dist, 'views', 'meta.json'), 'utf8')) as MetaView;
const country = meta.boards[meta.month]?.[meta.examples.country] ? meta.examples.country : Object.keys(meta.boards[meta.month] ?? {})[0]!;
const industry = meta.boards[meta.month]?.[country]?.includes(meta.examples.industry) ? meta.examples.industry : 'all';
const pages = [
  { name: 'home', path: '/' },
  { name: 'api-docs', path: '/api-docs/' },
  { name: 'leaderboard', path: `/leaderboards/${country}/${industry}/` },
  { name: 'profile', path: `/company/${meta.examples.company}/` },
  // The search results page the function builds (GET /search/?q=).
  { name: 'search', path: `/search/?q=${encodeURIComponent(meta.examples.search)}` },
];
const forms: { name: string; config?: Config }[] = [{ name: 'mobile' }, { name: 'desktop', config: desktopConfig }];

mkdirSync(out, { recursive: true });
const server = await startServer({ distDir: dist, port: 0, host: '127.0.0.1', rateLimitPerMinute: 0, log: () => {} });
const chrome = await launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
const rows: string[] = [];
const failures: string[] = [];
try {
  for (const form of forms)
    for (const page of pages) {
      const flags: Flags = { port: chrome.port, output: 'html', logLevel: 'error', onlyCategories: [...CATEGORIES] };
      const started = performance.now();
      const run = await lighthouse(`${server.url}${page.path}`, flags, form.config);
      if (!run) throw new Error(`lighthouse gave no result for ${page.path}`);
      const lhr: Result = run.lhr;
      if (lhr.runtimeError) throw new Error(`${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      writeFileSync(join(out, `${page.name}-${form.name}.html`), String(run.report));
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      rows.push(`| ${page.path} | ${form.name} | ${CATEGORIES.map(score).join(' | ')} | ${((performance.now() - started) / 1000).toFixed(1)} |`);
      for (const id of REQUIRED) {
        if (score(id) === 100) continue;
        const failed = lhr.categories[id]!.auditRefs.filter((a) => a.weight > 0 && (lhr.audits[a.id]?.score ?? 1) < 1).map((a) => a.id);
        failures.push(`${page.path} (${form.name}) ${id} ${score(id)}: ${failed.join(', ')}`);
      }
      console.error(`  ${page.path} ${form.name}: done`);
    }
} finally {
  await chrome.kill();
  await server.close();
}

console.log(`Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, ${CHROME} (${CHROME_FLAGS.join(' ')}), ${new Date().toISOString().slice(0, 10)}`);
console.log(`| Page | Settings | ${CATEGORIES.join(' | ')} | s |`);
console.log(`|---|---|${CATEGORIES.map(() => '---:').join('|')}|---:|`);
for (const r of rows) console.log(r);
console.log(`Reports: bench/out/lighthouse/`);
if (failures.length) {
  console.error(`Below 100:\n${failures.join('\n')}`);
  process.exit(1);
}
