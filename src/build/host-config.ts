/**
 * Configuration for hosts that serve `dist/` as static files, derived from the endpoint
 * table (`src/api/endpoints.ts`): `_headers` / `_redirects` for hosts that read them
 * (Cloudflare, Netlify) and `serve.json` for `serve` (`npm run serve:static`). Every
 * endpoint with a static form gets its public paths (versioned and unversioned)
 * rewritten to its file, with the JSON content type, CORS and the cache life of its
 * policy. Nothing here lists an endpoint by hand.
 */
import { CACHE_POLICIES, ENDPOINTS, staticRewrites } from '../api/endpoints.ts';
import type { Endpoint } from '../api/endpoints.ts';
import { JSON_TYPE } from '../api/http.ts';
import { CACHE_VIEWS } from '../core/policy.ts';
import { API_PREFIX_UNVERSIONED } from '../core/urls.ts';
import { VIEWS_DIR } from '../core/views/layout.ts';

/** The one cache policy of the static `/api` files (every table entry with a static form shares it). */
function staticApiCacheControl(): string {
  const policies = new Set((ENDPOINTS as readonly Endpoint[]).filter((e) => e.static).map((e) => CACHE_POLICIES[e.cache]));
  if (policies.size !== 1) throw new Error('host-config: static endpoints with different cache policies need one header block each');
  return [...policies][0]!;
}

/**
 * `_redirects`: every public path of a static endpoint -> its file, as a 200 rewrite. The
 * fixed paths come first: Cloudflare matches those in constant time only above every rule
 * with a placeholder (wrangler says so for each one below).
 */
export function redirects(): string {
  const rules = staticRewrites();
  const fixed = rules.filter((r) => !r.from.includes(':'));
  return [...fixed, ...rules.filter((r) => !fixed.includes(r))]
    .map(({ from, to }) => `${from} ${to} 200\n`)
    .join('');
}

/** `_headers`: JSON type, CORS and cache life for `/api/*`; the views a function reads get CORS and no stale life. */
export function headers(): string {
  return [
    `${API_PREFIX_UNVERSIONED}/*`,
    '  Access-Control-Allow-Origin: *',
    `  Content-Type: ${JSON_TYPE}`,
    `  Cache-Control: ${staticApiCacheControl()}`,
    '  X-Content-Type-Options: nosniff',
    `/${VIEWS_DIR}/*`,
    '  Access-Control-Allow-Origin: *',
    `  Cache-Control: ${CACHE_VIEWS}`,
    '',
  ].join('\n');
}

/**
 * `serve.json` for `serve` (https://github.com/vercel/serve-handler#options): the same
 * rewrites and headers; clean URLs so folders answer with their `index.html`, and no
 * directory listings.
 */
export function serveJson(): string {
  const config = {
    cleanUrls: true,
    directoryListing: false,
    rewrites: serveRewrites(),
    headers: [
      {
        source: `${API_PREFIX_UNVERSIONED.slice(1)}/**`,
        headers: [
          { key: 'Access-Control-Allow-Origin', value: '*' },
          { key: 'Content-Type', value: JSON_TYPE },
          { key: 'Cache-Control', value: staticApiCacheControl() },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
        ],
      },
      {
        source: `${VIEWS_DIR}/**`,
        headers: [
          { key: 'Access-Control-Allow-Origin', value: '*' },
          { key: 'Cache-Control', value: CACHE_VIEWS },
        ],
      },
    ],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * `serve` applies rewrites again to their own result, so a spelling rewritten straight to
 * `company/x.json` would match `company/:slug` once more: every other spelling goes to
 * the versioned path first, and only that one to the file.
 */
function serveRewrites(): { source: string; destination: string }[] {
  return staticRewrites().map(({ from, to, canonical }) => ({ source: from, destination: from === canonical ? to : canonical }));
}

/** Every host file of the build, by its path under `dist/`. */
export function hostFiles(): [string, string][] {
  return [
    ['_headers', headers()],
    ['_redirects', redirects()],
    ['serve.json', serveJson()],
  ];
}
