/**
 * What a newcomer meets first, in Debian's Chromium (playwright-core, no browser
 * downloaded) over the Node server: every leaderboard row shows rank, company and score
 * without sideways scrolling from 320 to 1,440 px, names break between words only,
 * "15 of 18" and the home page's date stay on one line; at 390 px (light theme) and 1280 px
 * (dark theme): Enter in a search box with no option chosen opens the results page, with
 * and without JavaScript; the docs' Copy buttons leave the code visible and the docs'
 * header is as wide as their body; the profile's chart fills its column, its text no
 * larger than the body text, its rank axis on even steps. The theme changes colours only:
 * each layout is checked once per width. Screenshots: test-output/newcomer/.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import type { MetaView } from '../src/core/views/layout.ts';
import { ROOT } from './lib/build-once.ts';
import { builtDist } from './lib/dist.ts';
import { startServer } from '../src/adapters/node/index.ts';
import type { SiteServer } from './lib/static-server.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const SHOTS = join(ROOT, 'test-output', 'newcomer');
const hasChromium = existsSync(CHROMIUM);
type Theme = 'light' | 'dark';
/** A phone in the light theme, a laptop in the dark one. */
const SCREENS = [
  ['light', 390],
  ['dark', 1280],
] as const;

/** Runs in the page: each leaderboard row's problems (rank, company or score cut off or scrolled away; a word or a count broken over lines). */
function boardProblems(): string[] {
  const out: string[] = [];
  const lines = (node: Node, from = 0, to = node.textContent!.length) => {
    const range = document.createRange();
    range.setStart(node, from);
    range.setEnd(node, to);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  };
  const tables = [...document.querySelectorAll<HTMLTableElement>('table.board')];
  if (tables.length === 0) out.push('no table.board');
  for (const table of tables) {
    const wrap = table.closest<HTMLElement>('.table-wrap')!;
    if (wrap.scrollWidth > wrap.clientWidth + 1) out.push(`the table scrolls sideways: ${wrap.scrollWidth} in ${wrap.clientWidth}`);
    const box = wrap.getBoundingClientRect();
    for (const tr of table.tBodies[0]!.rows) {
      const cells = [...tr.cells];
      const [rank, company, score] = [cells[0]!, cells[1]!, cells[cells.length - 3]!];
      for (const [what, cell] of [['rank', rank], ['company', company], ['score', score]] as const) {
        const r = cell.getBoundingClientRect();
        if (r.width === 0 || r.left < box.left - 1 || r.right > box.right + 1 || r.right > document.documentElement.clientWidth) out.push(`${what} of row ${rank.textContent} outside the view: ${Math.round(r.left)}-${Math.round(r.right)}`);
      }
      // A name breaks between words only: each word on one line.
      const text = company.querySelector('a')!.firstChild!;
      for (const m of text.textContent!.matchAll(/\S+/g)) if (lines(text, m.index, m.index + m[0].length) > 1) out.push(`"${m[0]}" of "${text.textContent}" broken over lines`);
      for (const cell of cells.slice(2)) if (/\d+ of \d+/.test(cell.textContent!) && lines(cell.lastChild!) > 1) out.push(`"${cell.textContent}" wraps`);
    }
  }
  return out;
}

describe.skipIf(!hasChromium)('what a newcomer meets, from 320 to 1,440 px, light and dark', () => {
  let browser: Browser;
  let server: SiteServer;
  let meta: MetaView;
  let boards: string[];
  let profile: string;

  beforeAll(async () => {
    const dist = await builtDist();
    meta = JSON.parse(readFileSync(join(dist, 'views/meta.json'), 'utf8')) as MetaView;
    const country = meta.boards[meta.month]!.us ? 'us' : Object.keys(meta.boards[meta.month]!)[0]!;
    boards = ['/', `/leaderboards/${country}/all/`, `/leaderboards/${country}/${meta.boards[meta.month]![country]![0]!}/`];
    profile = `/company/${meta.examples.company}/`;
    server = await startServer({ distDir: dist, port: 0, host: '127.0.0.1', rateLimitPerMinute: 0, log: () => {} });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(theme: Theme, width: number, javaScriptEnabled = true): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme, javaScriptEnabled });
    return context.newPage();
  }

  it('from 320 to 1,440 px each leaderboard row shows rank, company and score without sideways scrolling; names and counts unbroken; the date on one line', async () => {
    const page = await open('light', 320);
    // The layout is CSS alone (no script reads the width): each page is loaded once and resized.
    for (const path of boards) {
      await page.goto(`${server.url}${path}`);
      for (const width of [320, 360, 390, 480, 600, 640, 700, 800, 1024, 1280, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        expect(await page.evaluate(boardProblems), `${path} at ${width}`).toEqual([]);
        if (path === '/') expect(await page.locator('main time').first().evaluate((t) => t.getClientRects().length), `the date at ${width}`).toBe(1);
        if (width === 390 || width === 1280) await page.locator('table.board').screenshot({ path: join(SHOTS, `${path.replace(/\W+/g, '-')}-${width}.png`) });
      }
    }
    await page.context().close();
  });

  for (const [theme, width] of SCREENS)
    describe(`${theme}, ${width} px`, () => {
      it('search: Enter with no option chosen opens the results page, with JavaScript and without', async () => {
        const q = meta.examples.search.split(' ')[0]!;
        for (const javaScript of [true, false]) {
          const page = await open(theme, width, javaScript);
          for (const path of ['/', '/api-docs/']) {
            await page.goto(`${server.url}${path}`);
            const input = page.getByRole('combobox', { name: 'Find a company' });
            await input.fill(q);
            // Let the list of options open (with script), then Enter without choosing one.
            if (javaScript) await page.locator('[data-search-results] [role="option"]').first().waitFor();
            await Promise.all([page.waitForURL(/\/search\/\?q=/), input.press('Enter')]);
            expect(new URL(page.url()).searchParams.get('q'), `${path}, script ${javaScript}`).toBe(q);
            expect(await page.locator('ol.hits li').count(), `${path}, script ${javaScript}`).toBeGreaterThan(0);
          }
          await page.context().close();
        }
      });

      it('api-docs: Copy buttons cover no code; the header is as wide as the body', async () => {
        const page = await open(theme, width);
        await page.goto(`${server.url}/api-docs/`);
        await page.locator('.pre-wrap button.copy').first().waitFor();
        const covered = await page.evaluate(() =>
          [...document.querySelectorAll('.pre-wrap')].flatMap((wrap) => {
            const b = wrap.querySelector('button.copy')!.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(wrap.querySelector('pre')!);
            const hit = [...range.getClientRects()].some((r) => r.width > 0 && r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top);
            return hit ? [wrap.querySelector('pre')!.textContent!.slice(0, 40)] : [];
          }),
        );
        expect(covered).toEqual([]);
        expect(await page.locator('.pre-wrap').count()).toBeGreaterThan(5);
        const [header, main] = await Promise.all(['header.site', 'main'].map((s) => page.locator(s).evaluate((e) => [Math.round(e.getBoundingClientRect().left), Math.round(e.getBoundingClientRect().right)])));
        expect(header).toEqual(main);
        await page.locator('.pre-wrap').first().screenshot({ path: join(SHOTS, `api-docs-code-${width}-${theme}.png`) });
        await page.context().close();
      });

      it('profile chart: fills its column, text no larger than the body text, rank ticks on even steps', async () => {
        const page = await open(theme, width);
        // The example profile, then profiles from the middle of a leaderboard, whose rank moved.
        await page.goto(`${server.url}${boards[2]}`);
        const others = await page.locator('table.board tbody tr td:nth-child(2) a').evaluateAll((links) => links.slice(5, 25).map((a) => a.getAttribute('href')!));
        let moved = 0;
        for (const path of [profile, ...others]) {
          await page.goto(`${server.url}${path}`);
          const chart = page.locator('figure.chart').first();
          await chart.scrollIntoViewIfNeeded();
          const m = await chart.evaluate((figure) => {
            const svg = figure.querySelector(':scope > svg')!;
            const box = svg.getBoundingClientRect();
            const texts = [...svg.querySelectorAll('text')];
            const outer = texts.map((t) => t.getBoundingClientRect());
            return {
              figure: figure.getBoundingClientRect().width,
              drawn: Math.max(...outer.map((r) => r.right)) - Math.min(...outer.map((r) => r.left)),
              svg: box.width,
              body: parseFloat(getComputedStyle(document.body).fontSize),
              sizes: texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM()!.a),
              // The rank axis: the tick labels of the lower panel, top to bottom.
              rankTicks: [...svg.querySelectorAll<SVGTextElement>('.axis text[text-anchor="end"]')].filter((t) => t.getBoundingClientRect().top - box.top > box.height / 2).map((t) => Number(t.textContent)),
            };
          });
          // The plot spans the column less the label margins, and the labels reach its edges.
          expect(m.svg + 98, path).toBeGreaterThan(m.figure * 0.99);
          expect(m.drawn, path).toBeGreaterThan(m.figure * 0.85);
          expect(Math.max(...m.sizes), path).toBeLessThanOrEqual(m.body);
          expect(Math.min(...m.sizes), path).toBeGreaterThanOrEqual(12);
          // Even steps (a leading 1 for the top may come before round steps of 5 or more).
          const ticks = m.rankTicks[0] === 1 && m.rankTicks.length > 2 && m.rankTicks[1]! - 1 !== m.rankTicks[2]! - m.rankTicks[1]! ? m.rankTicks.slice(1) : m.rankTicks;
          expect(new Set(ticks.slice(1).map((v, i) => v - ticks[i]!)).size, `${path}: ${m.rankTicks}`).toBeLessThanOrEqual(1);
          if (m.rankTicks.length >= 3) moved++;
          if (path === profile) await chart.screenshot({ path: join(SHOTS, `chart-${width}-${theme}.png`) });
          if (m.rankTicks.length >= 3) {
            await chart.screenshot({ path: join(SHOTS, `chart-moved-${width}-${theme}.png`) });
            break;
          }
        }
        expect(moved).toBeGreaterThan(0);
        await page.context().close();
      });
    });
});
