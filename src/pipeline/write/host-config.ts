/**
 * Configuration for hosts that serve `dist/` as static files, derived from the endpoint table:
 * `_headers` / `_redirects` (Cloudflare, Netlify) and `serve.json` (`serve`). Every static
 * endpoint's public paths are rewritten to its file, with JSON type, CORS and a cache life.
 *
 * The rest of `/api` on a `static` build: an unknown path gets `api/404.html`, a JSON
 * not-found body; query parameters are refused with a JSON 400 only where the host can
 * match them (Netlify); elsewhere a query form gets the default file.
 */
import { CACHE_POLICIES, ENDPOINTS, deploymentOf, runsFunction, staticRewrites } from '../../api/endpoints.ts';
import type { Endpoint } from '../../api/endpoints.ts';
import { JSON_TYPE } from '../../api/http.ts';
import { messages } from '../../api/messages.ts';
import { CACHE_ERROR, CACHE_VIEWS } from '../../core/policy.ts';
import type { DeployTarget } from '../../core/policy.ts';
import type { ErrorResponse } from '../../core/schemas/responses.ts';
import { API_PREFIX_UNVERSIONED } from '../../core/urls.ts';
import { VIEWS_DIR } from '../../core/views/layout.ts';
import type { MetaView } from '../../core/views/layout.ts';

/** Cloudflare Pages serves the nearest `404.html` up the folders of a missing path: this one covers `/api`. */
export const API_NOT_FOUND_FILE = 'api/404.html';
/** The JSON 400 a Netlify query rule answers with (static builds only). */
export const API_QUERY_FILE = 'api/query-not-answered.json';

/**
 * The cache life of the static `/api` files. On a `static` build one header set covers a
 * path's file and its 404 alike, so every answer gets the error's short life.
 */
function staticApiCacheControl(target: DeployTarget): string {
  if (!runsFunction(target)) return CACHE_ERROR;
  const policies = new Set((ENDPOINTS as readonly Endpoint[]).filter((e) => e.static).map((e) => CACHE_POLICIES[e.cache]));
  if (policies.size !== 1) throw new Error('host-config: static endpoints with different cache policies need one header block each');
  return [...policies][0]!;
}

/** Netlify's query-parameter rules: every query parameter of a static endpoint gets the JSON 400. */
function queryRefusals(target: DeployTarget): string[] {
  const lines: string[] = [];
  for (const { from, endpoint } of staticRewrites(target)) for (const name of Object.keys(endpoint.query.shape)) lines.push(`${from} ${name}=:value /${API_QUERY_FILE} 400!\n`);
  return lines;
}

/**
 * `_redirects`: every public path of a static endpoint -> its file, as a 200 rewrite. Fixed
 * paths first: Cloudflare matches those in constant time only above every placeholder rule.
 */
export function redirects(target: DeployTarget): string {
  const rules = staticRewrites(target);
  const fixed = rules.filter((r) => !r.from.includes(':'));
  const rewrites = [...fixed, ...rules.filter((r) => !fixed.includes(r))].map(({ from, to }) => `${from} ${to} 200\n`);
  // Netlify's custom 404 per folder, last; Cloudflare skips the line and answers the nearest 404.html.
  const notFound = runsFunction(target) ? [] : [`${API_PREFIX_UNVERSIONED}/* /${API_NOT_FOUND_FILE} 404\n`];
  return [...(runsFunction(target) ? [] : queryRefusals(target)), ...rewrites, ...notFound].join('');
}

/**
 * `_headers`: JSON type, CORS and cache life for `/api` and `/api/*` (Cloudflare's `/api/*`
 * does not match `/api` itself); the views a function reads get CORS and no stale life.
 */
export function headers(target: DeployTarget): string {
  const api = ['  Access-Control-Allow-Origin: *', `  Content-Type: ${JSON_TYPE}`, `  Cache-Control: ${staticApiCacheControl(target)}`, '  X-Content-Type-Options: nosniff'];
  return [
    API_PREFIX_UNVERSIONED,
    ...api,
    `${API_PREFIX_UNVERSIONED}/*`,
    ...api,
    `/${VIEWS_DIR}/*`,
    '  Access-Control-Allow-Origin: *',
    `  Cache-Control: ${CACHE_VIEWS}`,
    '',
  ].join('\n');
}

/** `serve.json` for `serve` (serve-handler's options): the same rewrites and headers, clean URLs, no listings. */
export function serveJson(target: DeployTarget): string {
  const config = {
    cleanUrls: true,
    directoryListing: false,
    rewrites: serveRewrites(target),
    headers: [
      {
        source: `${API_PREFIX_UNVERSIONED.slice(1)}/**`,
        headers: [
          { key: 'Access-Control-Allow-Origin', value: '*' },
          { key: 'Content-Type', value: JSON_TYPE },
          { key: 'Cache-Control', value: staticApiCacheControl(target) },
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

/** `serve` rewrites its own result again, so every spelling goes to the versioned path first, and only that to the file. */
function serveRewrites(target: DeployTarget): { source: string; destination: string }[] {
  return staticRewrites(target).map(({ from, to, canonical }) => ({ source: from, destination: from === canonical ? to : canonical }));
}

const errorFile = (body: ErrorResponse): string => `${JSON.stringify(body)}\n`;

/** `.assetsignore`: what wrangler leaves out of a Worker's assets, so the edge serves no more than the Node server. */
export const ASSETS_IGNORE = 'serve.json\n';

/** Every host file of the build, by its path under `dist/`. */
export function hostFiles(meta: Pick<MetaView, 'index'>): [string, string][] {
  const target = deploymentOf(meta.index);
  return [
    ['_headers', headers(target)],
    ['.assetsignore', ASSETS_IGNORE],
    ['_redirects', redirects(target)],
    ['serve.json', serveJson(target)],
    // Where the function runs it answers every /api path itself: no error files.
    ...(runsFunction(target)
      ? []
      : ([
          [API_NOT_FOUND_FILE, errorFile({ error: 'not_found', message: messages.notFoundStatic })],
          [API_QUERY_FILE, errorFile({ error: 'bad_request', message: messages.queryNotAnswered })],
        ] as [string, string][])),
  ];
}
