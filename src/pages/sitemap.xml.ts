/**
 * /sitemap.xml (sitemaps.org): every HTML page of the build, with the dataset's
 * last update. Written as an endpoint because @astrojs/sitemap is not a dependency.
 */
import type { APIRoute } from 'astro';
import { companySlugs, meta } from '../components/site-data.ts';
import type { MetaView } from '../core/views/layout.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function sitemapPaths(m: MetaView, slugs: string[]): string[] {
  const boards = m.boards[m.month] ?? {};
  return [
    '/',
    '/api-docs/',
    ...Object.keys(boards).sort().flatMap((c) => [`/leaderboard/${c}/`, ...[...boards[c]!].sort().map((i) => `/leaderboard/${c}/${i}/`)]),
    ...slugs.map((s) => `/company/${s}/`),
  ];
}

export function sitemapXml(m: MetaView, slugs: string[]): string {
  const lastmod = m.lastUpdated.slice(0, 10);
  const urls = sitemapPaths(m, slugs).map((p) => `<url><loc>${esc(m.siteUrl + p)}</loc><lastmod>${lastmod}</lastmod></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export const GET: APIRoute = () => new Response(sitemapXml(meta(), companySlugs()), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
