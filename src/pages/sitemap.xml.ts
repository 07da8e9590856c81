/**
 * /sitemap.xml (sitemaps.org): every page of the site, from the same data the pages are
 * built from. Written as a route rather than with @astrojs/sitemap: the profile pages'
 * URLs come from the views, and one small function keeps them and the sitemap in step.
 */
import type { APIRoute } from 'astro';
import { companySlugs, meta } from '../components/site-data.ts';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function sitemap(site: string, lastmod: string, slugs: string[], boards: Record<string, string[]>): string {
  const leaderboards = Object.entries(boards).flatMap(([country, industries]) => ['all', ...industries].map((i) => `/leaderboards/${country}/${i}/`));
  const urls = ['/', '/api-docs/', ...leaderboards, ...slugs.map((s) => `/company/${s}/`)];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((u) => `  <url><loc>${xml(`${site}${u}`)}</loc><lastmod>${lastmod}</lastmod></url>`),
    '</urlset>',
    '',
  ].join('\n');
}

export const GET: APIRoute = () => {
  const m = meta();
  return new Response(sitemap(m.siteUrl, m.lastUpdated, companySlugs(), m.boards[m.month] ?? {}), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
