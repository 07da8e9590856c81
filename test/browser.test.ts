/**
 * The pages in a real browser: Debian's Chromium driven by playwright-core (no
 * browser is ever downloaded), served by the Node server (the function answers /api and
 * the search results page). Docs -> #methodology -> search with a typo, chosen
 * with the keyboard -> profile with its SVG chart, no console error, AA text contrast as rendered,
 * and the same pages readable with JavaScript off; the docs' try-it forms with and without
 * script; the search form on a host with the function and on a pure static host; and the
 * issue's "done when" walk on a phone in both themes. Screenshots: test-output/.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import type { MetaView } from '../src/core/views/layout.ts';
import { ROOT, buildSite } from './lib/build-once.ts';
import { startServer } from '../src/adapters/node/index.ts';
import { serveSite } from './lib/static-server.ts';
import type { SiteServer } from './lib/static-server.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const SHOTS = join(ROOT, 'test-output');
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`test/browser.test.ts skipped: ${CHROMIUM} is absent (install it with: apt-get install -y chromium)`);

/** Runs in the page: text elements whose colour is below WCAG AA against their effective background. */
function contrastFailures(): string[] {
  const parse = (c: string) => (c.match(/[\d.]+/g) ?? ['0', '0', '0', '0']).map(Number) as number[];
  const lum = ([r, g, b]: number[]) => {
    const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
  };
  const background = (el: Element | null): number[] => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3]! > 0) return c;
    }
    return [255, 255, 255];
  };
  const out: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set<Element>();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || seen.has(el) || !n.textContent?.trim() || el.getClientRects().length === 0) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    const fg = parse(el instanceof SVGElement ? style.fill : style.color);
    const bg = background(el instanceof SVGElement ? el.closest('svg') : el);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi! + 0.05) / (lo! + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) out.push(`${el.tagName.toLowerCase()} "${n.textContent.trim().slice(0, 40)}": ${ratio.toFixed(2)}:1`);
  }
  return out;
}

describe.skipIf(!hasChromium)('the site in Chromium', () => {
  let browser: Browser;
  let server: SiteServer;
  /** The built site as a pure static host serves it: no search function. */
  let staticHost: SiteServer;
  let meta: MetaView;
  const errors: string[] = [];

  const watch = (page: Page) => {
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${page.url()}: console: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    page.on('requestfailed', (r) => errors.push(`${page.url()}: request failed: ${r.url()}`));
    return page;
  };

  beforeAll(async () => {
    const dist = await buildSite();
    meta = JSON.parse(readFileSync(join(dist, 'views/meta.json'), 'utf8')) as MetaView;
    server = await startServer({ distDir: dist, port: 0, host: '127.0.0.1', rateLimitPerMinute: 0, log: () => {} });
    staticHost = await serveSite(dist);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await staticHost?.close();
  });

  it('docs -> #methodology -> search with a typo -> profile with its history chart', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = watch(await context.newPage());

    await page.goto(`${server.url}/api-docs/`);
    expect(await page.locator('h1').count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'api-docs.png') });
    expect(await page.evaluate(contrastFailures)).toEqual([]);

    await page.locator('nav[aria-label="On this page"] a[href="#methodology"]').click();
    await page.waitForURL(/#methodology$/);
    const top = await page.evaluate(() => document.getElementById('methodology')!.getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(5);
    expect(await page.locator('#methodology h2').innerText()).toBe('Methodology');
    await page.screenshot({ path: join(SHOTS, 'methodology.png') });

    const name = meta.examples.search;
    // Two letters swapped (dropping one can land on a real lookalike, such as Astholm for Astuholm).
    const typo = name.slice(0, 2) + name[3] + name[2] + name.slice(4);
    const input = page.getByLabel('Find a company');
    await input.scrollIntoViewIfNeeded();
    await input.pressSequentially(typo, { delay: 15 });
    // ARIA combobox: options show industry, country, score and rank; arrows and Enter choose.
    const first = page.locator('[data-search-results] [role="option"]').first();
    // Results of a shorter prefix may show while typing; wait for those of the whole query.
    await page.waitForFunction((href) => document.querySelector('[data-search-results] [role="option"]')?.getAttribute('data-href') === href, `/company/${meta.examples.company}/`);
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    expect(await first.getAttribute('data-href')).toBe(`/company/${meta.examples.company}/`);
    expect(await first.locator('.info').innerText()).toMatch(/^.+ · .+ · score [\d.]+ · rank \d+ of \d+ in industry$/);
    expect(await page.locator('[data-search-status]').innerText()).toMatch(/found/);
    await input.press('ArrowDown');
    expect(await input.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    expect(await first.getAttribute('aria-selected')).toBe('true');
    await page.locator('form[data-search]').screenshot({ path: join(SHOTS, 'search.png') });
    await input.press('Escape');
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    await input.press('ArrowDown');
    expect(await input.getAttribute('aria-expanded')).toBe('true');

    await input.press('Enter');
    await page.waitForURL(`**/company/${meta.examples.company}/`);
    expect(await page.locator('h1').innerText()).toBe(name);
    const chart = page.locator('figure.chart svg').first();
    await chart.scrollIntoViewIfNeeded();
    const d = await chart.locator('path.score').getAttribute('d');
    expect(d).toMatch(/^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+)+/);
    expect(await chart.locator('path.rank').getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+)+/);
    expect(await chart.locator('title').textContent()).toMatch(/Visibility Score and rank in /);
    expect(await chart.locator('desc').textContent()).toMatch(/Last change|Only one month/);
    expect(await chart.locator('circle.score-dot, .score-dot circle').count()).toBeGreaterThan(1);
    const box = await chart.locator('path.score').boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    await chart.screenshot({ path: join(SHOTS, 'chart.png') });
    expect(await page.evaluate(contrastFailures)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'profile.png'), fullPage: true });

    await page.goto(`${server.url}/`);
    expect(await page.evaluate(contrastFailures)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'home.png') });
    await context.close();
    expect(errors).toEqual([]);
  });

  it('is readable with JavaScript off', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 800, height: 900 } });
    const page = watch(await context.newPage());

    await page.goto(`${server.url}/api-docs/#methodology`);
    const methodology = await page.locator('#methodology').innerText();
    for (const m of meta.methodology.models) expect(methodology).toContain(m);
    for (const t of meta.themes ?? []) expect(methodology).toContain(t);
    expect(await page.locator('pre code').count()).toBeGreaterThan(5);

    await page.goto(`${server.url}/company/${meta.examples.company}/`);
    expect(await page.locator('h1').innerText()).toBe(meta.examples.search);
    expect(await page.locator('figure.chart svg path').first().isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'profile-no-js.png') });

    await page.goto(`${server.url}/`);
    expect(await page.locator('table tbody tr').count()).toBeGreaterThan(5);
    // Without script the search form leads to the HTML results page the function builds, never to JSON.
    await page.getByLabel('Find a company').fill(meta.examples.search);
    const [response] = await Promise.all([page.waitForResponse(/\/search\/\?q=/), page.getByRole('button', { name: 'Search' }).click()]);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await page.locator('h2#results-h').innerText()).toBe(`Results for “${meta.examples.search}”`);
    expect(await page.getByLabel('Find a company').inputValue()).toBe(meta.examples.search);
    const first = page.locator('ol.hits li').first();
    expect(await first.locator('a').getAttribute('href')).toBe(`/company/${meta.examples.company}/`);
    expect(await first.locator('.info').innerText()).toMatch(/^.+ · .+ · score [\d.]+ · rank \d+ of \d+ in industry · rank \d+ overall$/);
    await page.screenshot({ path: join(SHOTS, 'search-no-js.png'), fullPage: true });
    await first.locator('a').click();
    await page.waitForURL(`**/company/${meta.examples.company}/`);
    expect(await page.locator('h1').innerText()).toBe(meta.examples.search);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('on a pure static host the search form lands on the static results page, never on JSON', async () => {
    const q = encodeURIComponent(meta.examples.search);
    for (const javaScriptEnabled of [false, true]) {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 390, height: 800 } });
      const page = watch(await context.newPage());
      if (javaScriptEnabled) {
        // With script the box lists the matches itself; the static page runs the query of its address.
        await page.goto(`${staticHost.url}/search/?q=${q}`);
        await page.waitForFunction((href) => document.querySelector('[data-search-results] [role="option"]')?.getAttribute('data-href') === href, `/company/${meta.examples.company}/`);
      } else {
        await page.goto(`${staticHost.url}/`);
        await page.getByLabel('Find a company').fill(meta.examples.search);
        const [response] = await Promise.all([page.waitForResponse(/\/search\/\?q=/), page.getByRole('button', { name: 'Search' }).click()]);
        expect(response.headers()['content-type']).toBe('text/html; charset=utf-8');
        expect(await page.locator('[data-no-js]').innerText()).toMatch(/no search function/);
        expect(await page.locator('#results a[href^="/leaderboards/"]').count()).toBeGreaterThan(3);
      }
      await page.screenshot({ path: join(SHOTS, `search-static-${javaScriptEnabled ? 'js' : 'no-js'}.png`) });
      await context.close();
    }
    expect(errors).toEqual([]);
  });

  it('the docs try-it form shows the JSON inline with script, and is a GET form to the JSON without', async () => {
    const section = '#endpoint-getCompany';
    const slug = meta.examples.compare[1]!;
    const on = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = watch(await on.newPage());
    await page.goto(`${server.url}/api-docs/${section}`);
    const form = page.locator(`${section} form.try`);
    // With script the path parameter is editable; the answer appears below the form, not as a new page.
    const path = form.getByLabel('slug');
    expect(await path.isEnabled()).toBe(true);
    await path.fill(slug);
    await form.getByLabel('country').fill('');
    await form.getByRole('button', { name: 'Send' }).click();
    const out = page.locator(`${section} .try-out pre`);
    await out.waitFor();
    const shown = JSON.parse(await out.innerText()) as { slug: string };
    expect(shown.slug).toBe(slug);
    expect(await page.locator(`${section} .try-out p`).innerText()).toMatch(new RegExp(`^HTTP 200 .*/api/v1/company/${slug}$`));
    expect(page.url()).toContain('/api-docs/');
    await page.locator(section).screenshot({ path: join(SHOTS, 'try-it-js.png') });
    await on.close();

    const off = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 900 } });
    const plain = watch(await off.newPage());
    await plain.goto(`${server.url}/api-docs/${section}`);
    const fixed = plain.locator(`${section} form.try`);
    expect(await fixed.getByLabel('slug').isDisabled()).toBe(true);
    expect(await fixed.getByLabel('slug').inputValue()).toBe(meta.examples.company);
    const [response] = await Promise.all([plain.waitForResponse(/\/api\/v1\/company\//), fixed.getByRole('button', { name: 'Send' }).click()]);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^application\/json/);
    expect(((await response.json()) as { slug: string }).slug).toBe(meta.examples.company);
    await off.close();
    expect(errors).toEqual([]);
  });

  for (const colorScheme of ['light', 'dark'] as const)
    it(`done when: on a phone (${colorScheme}) a person finds a company, reads its profile and chart, browses its industry leaderboard and copies a working curl`, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme, isMobile: true, hasTouch: true });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const page = watch(await context.newPage());
      const shot = (step: string) => page.screenshot({ path: join(SHOTS, `walk-${colorScheme}-${step}.png`), fullPage: true });
      /** Every stop of the walk is an HTML page (never raw JSON) that fits the phone's width. */
      const fits = async (where: string) => {
        expect(await page.evaluate(() => document.contentType), where).toBe('text/html');
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${where}: horizontal overflow`).toBe(0);
      };

      await page.goto(`${server.url}/`);
      await fits('home');
      const input = page.getByLabel('Find a company');
      await input.pressSequentially(meta.examples.search, { delay: 10 });
      await page.waitForFunction((href) => document.querySelector('[data-search-results] [role="option"]')?.getAttribute('data-href') === href, `/company/${meta.examples.company}/`);
      await shot('1-search');
      await input.press('ArrowDown');
      await input.press('Enter');
      await page.waitForURL(`**/company/${meta.examples.company}/`);
      await fits('profile');
      expect(await page.locator('h1').innerText()).toBe(meta.examples.search);
      const chart = page.locator('figure.chart svg').first();
      expect(await chart.isVisible()).toBe(true);
      expect(await chart.locator('desc').textContent()).toMatch(/Last change|Only one month/);
      // The chart fills the column: its plot, and its labels in the margins beside it.
      expect((await page.locator('figure.chart').first().boundingBox())!.width).toBeGreaterThan(300);
      await shot('2-profile');

      // The profile's own industry leaderboard in its default country.
      const board = page.locator('section.country').first().locator('a[href^="/leaderboards/"]:not([href$="/all/"])').first();
      const href = (await board.getAttribute('href'))!;
      await board.click();
      await page.waitForURL(`**${href}`);
      await fits('leaderboard');
      expect(await page.locator(`tbody a[href="/company/${meta.examples.company}/"]`).count()).toBe(1);
      await shot('3-leaderboard');

      await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'API documentation' }).click();
      await page.waitForURL('**/api-docs/');
      await fits('docs');
      const curl = page.locator('#endpoint-getRankings .pre-wrap').filter({ hasText: 'curl ' }).first();
      await curl.scrollIntoViewIfNeeded();
      await curl.getByRole('button', { name: 'Copy this code' }).click();
      await expect.poll(() => curl.getByRole('button').innerText()).toBe('Copied');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      const url = /^curl -sS '([^']+)'$/.exec(copied.trim())?.[1];
      expect(url, copied).toBeDefined();
      // The build's absolute URLs name SITE_URL; the same path on this server answers.
      const res = await fetch(`${server.url}${new URL(url!).pathname}${new URL(url!).search}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { rankings: unknown[] }).rankings.length).toBeGreaterThan(0);
      await curl.screenshot({ path: join(SHOTS, `walk-${colorScheme}-4-curl.png`) });
      await context.close();
      expect(errors).toEqual([]);
    });
});
