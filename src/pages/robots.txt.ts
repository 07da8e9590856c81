/** /robots.txt: everything may be crawled except the raw views; the sitemap is named by its absolute URL (robots.txt requires one). */
import type { APIRoute } from 'astro';
import { meta } from '../components/site-data.ts';

export const GET: APIRoute = () =>
  new Response(`User-agent: *\nAllow: /\nDisallow: /views/\n\nSitemap: ${meta().siteUrl}/sitemap.xml\n`, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
