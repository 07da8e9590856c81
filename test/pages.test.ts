/**
 * Cloudflare Pages with the API as Pages Functions: `npm run preview:pages` (wrangler pages
 * dev, offline, under workerd) over the built site, as a user runs it. The shared API suite
 * through Pages' routing, then what Pages' own static serving does around the function, and
 * the rate limit. test/packed.test.ts runs the preview with RATE_LIMIT_PER_MINUTE=0.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from '../src/core/schemas/responses.ts';
import { RATE_LIMIT_PER_MINUTE } from '../src/core/policy.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { apiSuite } from './lib/api-suite.ts';
import { builtDist } from './lib/dist.ts';
import { startPreview } from './lib/preview.ts';
import type { Preview } from './lib/preview.ts';
import { inOneWindow, statuses } from './lib/rate-window.ts';

const root = resolve(import.meta.dirname, '..');
let dist: string;
let pages: Preview;

// The Pages project binds Cloudflare's rate limiter (60 a minute per client), which wrangler
// pages dev simulates, keyed by the CF-Connecting-IP header: every request of these tests
// names an address of its own, unless it names one itself, so that only the rate-limit test
// below is limited.
const realFetch = globalThis.fetch;
let clients = 0;
function ownClientFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
  if (!headers.has('cf-connecting-ip')) {
    clients++;
    headers.set('cf-connecting-ip', `198.18.${(clients >> 8) & 255}.${clients & 255}`);
  }
  return realFetch(input, { ...init, headers });
}

beforeAll(async () => {
  globalThis.fetch = ownClientFetch as typeof fetch;
  dist = await builtDist();
  pages = await startPreview('preview:pages', dist);
}, 600_000);

afterAll(async () => {
  globalThis.fetch = realFetch;
  await pages?.close();
});

describe('Pages Functions (npm run preview:pages): API contract', () => {
  apiSuite(() => ({
    fetch: (path, init) => fetch(`${pages.url}${path}`, init),
    read: (path) => new FsStore(dist).read(path),
  }));
});

describe('Pages Functions: routing around the function', () => {
  it('the Pages project runs the Worker’s compatibility date, serves the folder it is given, and honours PORT and HOST', async () => {
    const date = (file: string) => /^compatibility_date = "([^"]+)"$/m.exec(readFileSync(join(root, file), 'utf8'))![1];
    expect(date('deploy/pages/wrangler.toml')).toBe(date('wrangler.toml'));
    // The static files are the build under test (DIST_DIR), not whatever the root's dist/ holds.
    const robots = await fetch(`${pages.url}/robots.txt`);
    expect(await robots.text()).toBe(readFileSync(join(dist, 'robots.txt'), 'utf8'));
    expect(new URL(pages.url).hostname).toBe('127.0.0.1');
  });

  it('every /api path is the function’s: JSON, CORS, a short cache life for errors, never the HTML 404', async () => {
    for (const path of ['/api/v1/search', '/api/v1/compare', '/api/v1/company/no-such-company/', '/api/v1/nope', '/api/v2', '/api/v1/rankings/all', '/api/v1/health.json', '/api/v1/index.json', '/api/404.html', '/api/v1/company/x/y/z']) {
      const res = await fetch(`${pages.url}${path}`);
      const text = await res.text();
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=60');
      expect(ErrorResponseSchema.parse(JSON.parse(text)).message.length, path).toBeGreaterThan(0);
    }
    // The function's ETag, not the static file's: the handler answered the default form too.
    const health = await fetch(`${pages.url}/api/v1/health`);
    expect(health.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    await health.arrayBuffer();
  });

  it('the site is Pages’ static files: pages, the HTML 404 page outside /api, views', async () => {
    const home = await fetch(`${pages.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    await home.arrayBuffer();
    const missing = await fetch(`${pages.url}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    await missing.arrayBuffer();
    const docs = await fetch(`${pages.url}/api-docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('<h1');
    const index = await fetch(`${pages.url}/views/search-index.json`);
    expect(index.status).toBe(200);
    await index.arrayBuffer();
  });

  it('serves neither the build’s report nor a host file the Node server refuses', async () => {
    // Pages serves the folder whole (no ignore file); `_headers` and `_redirects` are its own,
    // and wrangler pages dev answers them with a 502 of its own: never the file.
    for (const path of ['/build-report.json', '/_headers', '/_redirects']) {
      const res = await fetch(`${pages.url}${path}`);
      const text = await res.text();
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      if (existsSync(join(dist, path))) expect(text, path).not.toContain(readFileSync(join(dist, path), 'utf8').slice(0, 40));
    }
  });

  it('the OpenAPI servers resolve to the origin that serves the document, on any port', async () => {
    const docUrl = `${pages.url}/api/v1/openapi.json`;
    const doc = (await (await fetch(docUrl)).json()) as { servers: { url: string }[] };
    const base = new URL(doc.servers[0]!.url, docUrl);
    expect(base.origin).toBe(pages.url);
    expect((await fetch(new URL('api/v1/health', base))).status).toBe(200);
  });

  it('/mcp is the MCP server over Streamable HTTP', async () => {
    const res = await fetch(`${pages.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_health', arguments: {} } }),
    });
    expect(res.status).toBe(200);
    const out = (await res.json()) as { result: { structuredContent: unknown } };
    const health = await (await fetch(`${pages.url}/api/v1/health`)).json();
    expect(out.result.structuredContent).toEqual(health);
  });
});

describe('Pages Functions: the rate limit', () => {
  it('the Pages project binds the same limiter as the Worker', () => {
    const block = (file: string) => /\[\[ratelimits\]\][^[]*/.exec(readFileSync(join(root, file), 'utf8').replace(/^#.*$/gm, ''))?.[0].trim();
    expect(block('deploy/pages/wrangler.toml')).toBeDefined();
    expect(block('deploy/pages/wrangler.toml')).toBe(block('wrangler.toml'));
  });

  it('a client past 60 requests a minute gets the JSON 429 with Retry-After; another client does not', async () => {
    const from = (ip: string) => fetch(`${pages.url}/api/v1/health`, { headers: { 'cf-connecting-ip': ip } });
    const [answered, refused] = await inOneWindow(async (attempt) => {
      const client = `203.0.113.${50 + attempt}`;
      return [await statuses(RATE_LIMIT_PER_MINUTE, () => from(client)), await from(client)] as const;
    });
    expect(answered.filter((s) => s !== 200)).toEqual([]);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(ErrorResponseSchema.parse(await refused.json()).error).toBe('rate_limited');
    expect((await from('203.0.113.49')).status).toBe(200);
  });
});
