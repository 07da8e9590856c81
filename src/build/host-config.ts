/**
 * Configuration for pure static hosts that read `_headers` / `_redirects`
 * (Cloudflare, Netlify): the default response of every endpoint is a static file,
 * and these rules give `/api/...` paths the JSON content type, CORS and cache life.
 */
const REWRITES: [string, string][] = [
  ['', 'index.json'],
  ['/health', 'health.json'],
  ['/rankings', 'rankings.json'],
  ['/rankings/:industry/:country', 'rankings/:industry/:country.json'],
  ['/company/:slug', 'company/:slug.json'],
  ['/openapi.json', 'openapi.json'],
];

export const API_CACHE_CONTROL = 'public, max-age=1800, s-maxage=3600, stale-while-revalidate=86400';

export function redirects(): string {
  const lines: string[] = [];
  for (const prefix of ['/api/v1', '/api'])
    for (const [from, to] of REWRITES) {
      lines.push(`${prefix}${from} /api/v1/${to} 200`);
      if (from === '') lines.push(`${prefix}/ /api/v1/${to} 200`);
    }
  return lines.join('\n') + '\n';
}

export function headers(): string {
  return [
    '/api/*',
    '  Access-Control-Allow-Origin: *',
    '  Content-Type: application/json; charset=utf-8',
    `  Cache-Control: ${API_CACHE_CONTROL}`,
    '  X-Content-Type-Options: nosniff',
    '/views/*',
    '  Access-Control-Allow-Origin: *',
    '  Cache-Control: public, max-age=1800, s-maxage=3600',
    '',
  ].join('\n');
}

export function hostFiles(): [string, string][] {
  return [
    ['_headers', headers()],
    ['_redirects', redirects()],
  ];
}
