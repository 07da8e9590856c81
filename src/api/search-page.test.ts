import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../test/lib/fixture.ts';
import { createHandler } from './index.ts';
import { SEARCH_PROMPT, SEARCH_TEMPLATE } from './search-page.ts';
import { MemoryStore } from './store.ts';

const TEMPLATE =
  '<!DOCTYPE html><html lang="en"><head><title>Search companies</title></head><body><main><form action="/search/"><input id="company-search" name="q" type="search"></form>' +
  '<section id="results" aria-labelledby="results-h" data-search-page><h2 id="results-h">Results</h2><p>static fallback</p></section></main></body></html>';

const handle = createHandler(new MemoryStore({ ...fixtureFiles(), [SEARCH_TEMPLATE]: TEMPLATE }), { log: () => {} });
const get = async (path: string) => {
  const res = await handle(new Request(`http://localhost${path}`));
  return { res, text: await res.text() };
};

describe('the search results page (GET /search/?q=)', () => {
  it('is HTML built from the search endpoint body: each hit with industry, country, score, ranks and its profile link', async () => {
    const { res, text } = await get('/search/?q=kestrel');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const api = (await (await handle(new Request('http://localhost/api/v1/search?q=kestrel'))).json()) as { results: { slug: string; company: string; industry: string; country: string; latestRanking: { visibilityScore: number; rank: number; industryRank: number; totalCompaniesInIndustry: number } }[] };
    expect(api.results.length).toBeGreaterThan(0);
    const hits = [...text.matchAll(/<li><a href="\/company\/([^/]+)\/">/g)].map((m) => m[1]);
    expect(hits).toEqual(api.results.map((r) => r.slug));
    for (const r of api.results) {
      const l = r.latestRanking;
      expect(text).toContain(`${r.industry} · ${r.country} · score ${l.visibilityScore} · rank ${l.industryRank} of ${l.totalCompaniesInIndustry} in industry · rank ${l.rank} overall`);
    }
    // The template's static fallback is replaced; the query is in the box and the title; result pages are not indexed.
    expect(text).not.toContain('static fallback');
    expect(text).toContain('<input id="company-search" name="q" value="kestrel"');
    expect(text).toContain('<title>“kestrel”: Search companies</title>');
    expect(text).toContain('<meta name="robots" content="noindex">');
    expect(text).toContain('href="/api/v1/search?q=kestrel"');
  });

  it('answers with and without the trailing slash, and says when nothing matches', async () => {
    const { text } = await get('/search?q=zzzzqqqq');
    expect(text).toContain('No company matches “zzzzqqqq”');
    expect(text).not.toContain('<ol class="hits">');
  });

  it('escapes the query everywhere, replacement patterns included', async () => {
    const q = '<script>alert(1)</script> $& "x"';
    const { text } = await get(`/search/?q=${encodeURIComponent(q)}`);
    expect(text).not.toContain('<script>alert(1)');
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; $&amp; &quot;x&quot;');
    expect(text.match(/<title>/g)).toHaveLength(1);
  });

  it('without a query asks for one; a bad query is a 400 page with the API message, never JSON', async () => {
    const empty = await get('/search/');
    expect(empty.res.status).toBe(200);
    expect(empty.text).toContain(SEARCH_PROMPT);
    const long = await get(`/search/?q=${'a'.repeat(101)}`);
    expect(long.res.status).toBe(400);
    expect(long.res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(long.text).toMatch(/<section id="results"[^>]*><h2 id="results-h">Results<\/h2><p>[^<]*100[^<]*<\/p><\/section>/);
  });

  it('without a built template (EVI_PAGES=0) still answers a page', async () => {
    const bare = createHandler(new MemoryStore(fixtureFiles()), { log: () => {} });
    const res = await bare(new Request('http://localhost/search/?q=kestrel'));
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^<!doctype html>[\s\S]*<ol class="hits">/);
  });
});
