/**
 * The search results page without JavaScript (`GET /search/?q=`): the built page
 * `search/index.html` is the template (the site's header, styles and search box), and
 * its results section is filled from the search endpoint's own body, so the page and
 * `/api/v1/search` always agree. Every text from the request or the data is escaped
 * (Hono's `html` helper).
 */
import { html } from 'hono/html';
import type { SearchResponse } from '../core/schemas/responses.ts';
import { API_PREFIX, queryString } from '../core/urls.ts';

/** Where the built template lives in the output folder. */
export const SEARCH_TEMPLATE = 'search/index.html';

/** Used when the build wrote no pages (`EVI_PAGES=0`). */
const BARE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Search companies</title></head><body><main><h1>Search companies</h1><form action="/search/" method="get"><label for="q">Find a company</label> <input id="q" name="q"> <button type="submit">Search</button></form><section id="results"></section></main></body></html>';

/** What the page says before a query is typed. */
export const SEARCH_PROMPT = 'Type a company name, an alias or a website in the box above.';

/** How a hit matched, in words (`matchedOn` of the search endpoint). */
const MATCHED: Record<SearchResponse['results'][number]['matchedOn'], string> = {
  name: 'name',
  alias: 'matched one of its other names',
  domain: 'matched its website',
  prefix: 'matched the start of its name',
  fuzzy: 'a close spelling',
  words: 'every word found in its name',
  acronym: 'matched the initials of its name',
};

export type SearchOutcome = { body: SearchResponse } | { message: string };

function resultsSection(q: string, country: string | undefined, outcome: SearchOutcome): string {
  const json = `${API_PREFIX}/search${queryString({ q, country })}`;
  if (!('body' in outcome)) {
    return html`<section id="results" aria-labelledby="results-h" data-search-page data-served><h2 id="results-h">Results</h2><p>${outcome.message}</p></section>`.toString();
  }
  const { results, betterMatchElsewhere: better, month } = outcome.body;
  const found = results.length === 0 ? html`<p>No company matches “${q}”. Check the spelling, or try the website’s domain.</p>` : html`<p>${results.length} ${results.length === 1 ? 'company' : 'companies'} found, best match first; scores and ranks of ${month}.</p>`;
  const items = results.map(
    (r) =>
      html`<li><a href="/company/${r.slug}/">${r.company}</a>${r.matchedOn === 'name' ? '' : html` <span class="muted">(${MATCHED[r.matchedOn]})</span>`}<span class="info">${r.industry} · ${r.country} · score ${r.latestRanking.visibilityScore} · rank ${r.latestRanking.industryRank} of ${r.latestRanking.totalCompaniesInIndustry} in industry · rank ${r.latestRanking.rank} overall</span></li>`,
  );
  const elsewhere = better ? html`<p>A better match outside ${country}: <a href="/company/${better.slug}/">${better.company}</a> (${better.country}).</p>` : '';
  return html`<section id="results" aria-labelledby="results-h" data-search-page data-served><h2 id="results-h">Results for “${q}”</h2>${found}${results.length ? html`<ol class="hits">${items}</ol>` : ''}${elsewhere}<p class="muted">The same results as JSON: <a href="${json}">${json}</a></p></section>`.toString();
}

/**
 * The whole page: the template with the query in the search box and in the title,
 * the results section replaced, and `noindex` (result pages are not for search engines).
 * @example
 * searchPageHtml(template, 'quill', undefined, { body }); // '<!DOCTYPE html>…<ol class="hits"><li><a href="/company/quill-works/">Quill Works</a>…'
 */
export function searchPageHtml(template: string | null, q: string, country: string | undefined, outcome: SearchOutcome): string {
  const page = template ?? BARE;
  const start = page.indexOf('<section id="results"');
  const end = start === -1 ? -1 : page.indexOf('</section>', start);
  const section = resultsSection(q, country, outcome);
  let out = start === -1 || end === -1 ? page.replace('</main>', () => `${section}</main>`) : page.slice(0, start) + section + page.slice(end + '</section>'.length);
  out = out.replace(/(<input\b[^>]*\bname="q")/, (m) => `${m} value="${html`${q}`.toString()}"`);
  out = out.replace('<title>', () => `<title>${q ? html`“${q}”: `.toString() : ''}`);
  // Function replacers: a `$&` in the query must stay text.
  return out.replace('<head>', () => '<head><meta name="robots" content="noindex">');
}
