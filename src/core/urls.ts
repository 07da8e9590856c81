/** Every public URL of the service, built in one place from the site origin (service-spec §4). */

/** The versioned API prefix (service-spec §9: clients pin it). */
export const API_PREFIX = '/api/v1';
/** The unversioned prefix, equivalent to {@link API_PREFIX}. */
export const API_PREFIX_UNVERSIONED = '/api';
/** The HTML search results page: the form's target without JavaScript, answered by the handler where a function runs. */
export const SEARCH_PAGE_PATH = '/search';
/** Whether a request path is the search results page (with or without its trailing slash). */
export const isSearchPage = (path: string): boolean => path === SEARCH_PAGE_PATH || path === `${SEARCH_PAGE_PATH}/`;

/** A list value is written comma-separated (compare's `companies`), each item percent-encoded. */
export type QueryValue = string | number | readonly string[] | null | undefined;
export type QueryValues = Record<string, QueryValue>;

const encodeValue = (value: Exclude<QueryValue, null | undefined>): string =>
  typeof value === 'object' ? value.map((item) => encodeURIComponent(item)).join(',') : encodeURIComponent(String(value));

/**
 * `?a=1&b=2` from the defined, non-empty values, in the order given; `''` when none.
 * @example queryString({ industry: 'retail', country: 'us', page: undefined }) // '?industry=retail&country=us'
 */
export function queryString(query: QueryValues = {}): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '' || (typeof value === 'object' && value.length === 0)) continue;
    parts.push(`${name}=${encodeValue(value)}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/**
 * Fills `{name}` placeholders of an endpoint path with percent-encoded values.
 * @example fillPath('/rankings/{industry}/{country}', { industry: 'retail', country: 'us' }) // '/rankings/retail/us'
 */
export function fillPath(path: string, values: QueryValues): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') throw new Error(`urls: no value for {${name}} in ${path}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * The public URLs of one deployment, absolute on `origin` (no trailing slash).
 *
 * @example
 * const u = siteUrls('https://evi.example');
 * u.profile('kestrel-aerospace-group'); // 'https://evi.example/company/kestrel-aerospace-group/'
 * u.api('/rankings', { country: 'gb' }); // 'https://evi.example/api/v1/rankings?country=gb'
 */
export function siteUrls(origin: string) {
  const api = (path = '', query?: QueryValues) => `${origin}${API_PREFIX}${path}${queryString(query)}`;
  return {
    origin,
    home: `${origin}/`,
    docs: `${origin}/api-docs/`,
    methodology: `${origin}/api-docs/#methodology`,
    llmsTxt: `${origin}/llms.txt`,
    /** The manifest of the bulk downloads (every month's files). */
    downloads: `${origin}/downloads/manifest.json`,
    /** The Atom feed of releases and corrections. */
    feed: `${origin}/feed.xml`,
    openapi: api('/openapi.json'),
    /** The public profile page of a company. */
    profile: (slug: string) => `${origin}/company/${slug}/`,
    /** Any API URL: `path` below the versioned prefix, then the query. */
    api,
    /** The profile endpoint; `country` only when it is not the company's default. */
    company: (slug: string, country: string | null = null) => api(`/company/${slug}`, { country }),
  };
}

export type SiteUrls = ReturnType<typeof siteUrls>;

/**
 * A link's `href` on the site's own pages: root-relative when `url` is on `origin`, so a
 * page works on whatever origin serves it (another port, a preview host); unchanged otherwise.
 *
 * rootRelative('https://evi.example/api/v1?x=1', 'https://evi.example'); // '/api/v1?x=1'
 */
export function rootRelative(url: string, origin: string): string {
  if (url === origin) return '/';
  return url.startsWith(origin) && /^[/?#]/.test(url.slice(origin.length)) ? url.slice(origin.length) : url;
}
