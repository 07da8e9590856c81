/**
 * Found by search engines: the built sitemap lists exactly the HTML pages of the
 * build, robots.txt points at it, every page has a canonical link and a description,
 * profiles and leaderboards carry Open Graph tags; each page stays under 100 KB.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SITE_URL, buildSite } from './lib/build-once.ts';

function htmlPages(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return e === 'api' || e === 'views' ? [] : htmlPages(p, root);
    return e === 'index.html' ? [`/${relative(root, dir)}${dir === root ? '' : '/'}`] : [];
  });
}

describe('sitemap, robots.txt, canonical and Open Graph', () => {
  let dist: string;
  beforeAll(async () => {
    dist = await buildSite();
  });

  it('the sitemap lists every HTML page of the build, and only those', () => {
    const xml = readFileSync(join(dist, 'sitemap.xml'), 'utf8');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.slice(SITE_URL.length)).sort();
    expect(locs).toEqual(htmlPages(dist).sort());
    expect(locs).toContain('/api-docs/');
    expect(locs.some((l) => /^\/leaderboard\/[a-z]{2}\/[a-z0-9-]+\/$/.test(l))).toBe(true);
  });

  it('robots.txt and the favicon are static files', () => {
    expect(readFileSync(join(dist, 'robots.txt'), 'utf8')).toMatch(/^Sitemap: \/sitemap\.xml$/m);
    expect(existsSync(join(dist, 'favicon.ico'))).toBe(true);
  });

  it('every page has one canonical link to itself and a description; profiles and leaderboards have Open Graph tags; each is under 100 KB', () => {
    for (const page of htmlPages(dist)) {
      const file = join(dist, page, 'index.html');
      const html = readFileSync(file, 'utf8');
      expect(statSync(file).size, page).toBeLessThan(100_000);
      expect(html.match(/<link rel="canonical" href="([^"]+)"/)?.[1], page).toBe(`${SITE_URL}${page}`);
      expect(html, page).toMatch(/<meta name="description" content="[^"]{20,}"/);
      if (/^\/(company|leaderboard)\//.test(page)) {
        expect(html, page).toContain(`<meta property="og:url" content="${SITE_URL}${page}"`);
        expect(html, page).toMatch(/<meta property="og:title" content="[^"]+"/);
      }
    }
  });
});
