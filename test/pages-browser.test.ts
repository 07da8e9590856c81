/**
 * Every page a person lands on, in Debian's Chromium driven by playwright-core (no
 * browser is downloaded), served by the Node server: nothing overflows horizontally on the
 * home page, /api-docs/ (with a try-it answer shown), three profiles (one with several
 * countries), two leaderboards and the search results page, from 320 to 1440 px, and
 * axe-core finds no violation on each kind of page at 390 and 1280 px, in the light and the
 * dark theme (a profile with one country and one with several are two kinds; a second page of
 * a kind already checked is the same template and branch); each page is under 100 KB before
 * compression. The dark theme sets colours only (src/styles/site.css, checked below): in it
 * axe runs its colour rules, and the layout, the light theme's, is not checked again. Chart
 * text stays at least 12 px as rendered, down to 320 px.
 * Screenshots (the first screen of each page at 390 and 1280 px): test-output/pages/.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import type { MetaView } from '../src/core/views/layout.ts';
import { ROOT, buildSite } from './lib/build-once.ts';
import { startServer } from '../src/adapters/node/index.ts';
import type { SiteServer } from './lib/static-server.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const SHOTS = join(ROOT, 'test-output', 'pages');
const hasChromium = existsSync(CHROMIUM);
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The widths checked for overflow; axe and the screenshots at a phone's and a laptop's. */
const WIDTHS = [320, 390, 1280, 1440];
const AXE_WIDTHS = [390, 1280];

/** The axe rules whose outcome depends on colours. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

interface AxeResult { violations: { id: string; impact: string; nodes: { target: unknown[] }[] }[] }

/** Runs in the page: how far the document is wider than the viewport, and the widest culprits. */
function overflow(): { excess: number; culprits: string[] } {
  const vw = document.documentElement.clientWidth;
  const culprits: string[] = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > vw + 1 && !el.closest('.table-wrap, pre')) culprits.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(r.right)}`);
  }
  return { excess: document.documentElement.scrollWidth - vw, culprits: culprits.slice(0, 5) };
}

describe('the dark theme', () => {
  it('sets colours only: custom properties of the palette, nothing of the layout', () => {
    const css = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(css|astro)$/.test(f))
      .map((f) => readFileSync(join(ROOT, 'src', f), 'utf8'));
    const blocks = css.flatMap((text) => text.split('@media (prefers-color-scheme: dark)').slice(1));
    expect(blocks.length).toBe(1);
    const declarations = blocks[0]!.slice(blocks[0]!.indexOf('{') + 1, blocks[0]!.indexOf('}')).split('{')[1]!.split(';').map((d) => d.trim()).filter(Boolean);
    expect(declarations.length).toBeGreaterThan(5);
    for (const d of declarations) expect(d).toMatch(/^--[a-z0-9-]+:\s*#[0-9a-f]{3,8}$/i);
  });
});

describe.skipIf(!hasChromium)('pages at every width, in both themes', () => {
  let browser: Browser;
  let server: SiteServer;
  /** `kind`: the template and branch the page is rendered by; axe checks one page of each. */
  let pages: { name: string; path: string; kind: string }[];

  beforeAll(async () => {
    const dist = await buildSite();
    const meta = JSON.parse(readFileSync(join(dist, 'views/meta.json'), 'utf8')) as MetaView;
    // A profile with several countries: the one whose page has the overview table.
    const multi = readdirSync(join(dist, 'company')).find((slug) => {
      const f = join(dist, 'company', slug, 'index.html');
      return existsSync(f) && readFileSync(f, 'utf8').includes('aria-label="Overview by country"');
    });
    expect(multi).toBeDefined();
    const country = Object.keys(meta.boards[meta.month]!).sort()[0]!;
    const industry = meta.boards[meta.month]![country]![0]!;
    const profileKind = (slug: string) => (readFileSync(join(dist, 'company', slug, 'index.html'), 'utf8').includes('aria-label="Overview by country"') ? 'profile-multi' : 'profile');
    pages = [
      { name: 'home', path: '/' },
      { name: 'api-docs', path: '/api-docs/' },
      { name: 'profile', path: `/company/${meta.examples.company}/`, kind: profileKind(meta.examples.company) },
      { name: 'profile-multi', path: `/company/${multi}/`, kind: 'profile-multi' },
      { name: 'profile-other', path: `/company/${meta.examples.compare[1]}/`, kind: profileKind(meta.examples.compare[1]!) },
      { name: 'leaderboard', path: `/leaderboards/${country}/all/` },
      { name: 'leaderboard-industry', path: `/leaderboards/${country}/${industry}/` },
      { name: 'search', path: `/search/?q=${encodeURIComponent(meta.examples.search.split(' ')[0]!)}` },
    ].map((p) => ({ kind: p.name, ...p }));
    expect(pages.map((p) => p.kind), 'a profile with one country and one with several').toEqual(expect.arrayContaining(['profile', 'profile-multi']));
    server = await startServer({ distDir: dist, port: 0, host: '127.0.0.1', rateLimitPerMinute: 0, log: () => {} });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  // Each page is loaded once per theme, then resized: no script reads the width (the layout
  // is CSS alone), so a page resized to a width lays out as one loaded at it.
  for (const theme of ['light', 'dark'] as const)
    it(`${theme}: ${theme === 'light' ? `nothing overflows at ${WIDTHS.join(', ')} px; axe finds no violation` : 'axe finds no violation of its colour rules'} at ${AXE_WIDTHS.join(' and ')} px`, async () => {
      const context = await browser.newContext({ viewport: { width: AXE_WIDTHS[0]!, height: 900 }, colorScheme: theme });
      const page: Page = await context.newPage();
      const checked = new Set<string>();
      for (const p of pages) {
        await page.setViewportSize({ width: AXE_WIDTHS[0]!, height: 900 });
        const response = await page.goto(`${server.url}${p.path}`);
        expect(response!.headers()['content-type'], p.path).toBe('text/html; charset=utf-8');
        expect((await response!.body()).byteLength, `${p.path} under 100 KB`).toBeLessThan(100 * 1024);
        if (p.name === 'api-docs') {
          // The try-it answer is part of the page axe checks.
          const form = page.locator('#endpoint-getRankings form.try');
          await form.getByRole('button', { name: 'Send' }).click();
          await page.locator('#endpoint-getRankings .try-out pre').waitFor();
        }
        if (p.name === 'search') expect(await page.locator('ol.hits li').count(), p.path).toBeGreaterThan(0);
        // The theme is applied by CSS alone: the first paint already has the dark background.
        const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        expect(bg, p.path).toBe(theme === 'dark' ? 'rgb(20, 23, 28)' : 'rgb(255, 255, 255)');
        // Open the history tables, so that axe checks them too.
        await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
        const axe = !checked.has(p.kind);
        checked.add(p.kind);
        if (axe) await page.addScriptTag({ content: AXE });
        // The dark theme changes colours only: its layout is the light theme's, checked there.
        for (const width of theme === 'light' ? WIDTHS : AXE_WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          if (theme === 'light') expect(await page.evaluate(overflow), `${p.path} at ${width}`).toEqual({ excess: 0, culprits: [] });
          if (!AXE_WIDTHS.includes(width)) continue;
          await page.screenshot({ path: join(SHOTS, `${p.name}-${width}-${theme}.png`) });
          if (!axe) continue;
          const options = theme === 'dark' ? { resultTypes: ['violations'], runOnly: COLOUR_RULES } : { resultTypes: ['violations'] };
          const result = (await page.evaluate((o) => (window as unknown as { axe: { run: (c: Document, o: object) => Promise<unknown> } }).axe.run(document, o), options)) as AxeResult;
          const found = result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(' ')}`);
          expect(found, `${p.path} ${theme} ${width}`).toEqual([]);
        }
        if (theme === 'light' && p.name === 'profile') {
          await page.setViewportSize({ width: 320, height: 800 });
          // Chart text at 320 px as rendered: the font size in SVG units times the SVG's scale on screen.
          const sizes = await page.evaluate(() =>
            [...document.querySelectorAll<SVGTextElement>('figure.chart svg text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM()!.a),
          );
          expect(sizes.length).toBeGreaterThan(5);
          expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
          await page.screenshot({ path: join(SHOTS, 'profile-320.png'), fullPage: true });
        }
      }
      await context.close();
    });

  it('/api-docs/: sticky contents sidebar when wide, identifiers on one line, copy buttons that copy', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await page.goto(`${server.url}/api-docs/`);
    expect(await page.locator('nav.docs-nav').evaluate((n) => getComputedStyle(n).position)).toBe('sticky');
    // A parameter name such as "country" is never split over two lines.
    const broken = await page.evaluate(() =>
      [...document.querySelectorAll('td code')].filter((c) => c.getClientRects().length > 1 || c.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(c).fontSize)).map((c) => c.textContent),
    );
    expect(broken).toEqual([]);
    expect(await page.locator('td code').count()).toBeGreaterThan(5);
    const block = page.locator('.pre-wrap').first();
    await block.locator('button.copy').click();
    await expect.poll(() => block.locator('button.copy').innerText()).toBe('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await block.locator('pre').innerText());
    await context.close();
  });
});
