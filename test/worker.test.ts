/**
 * The Worker under workerd (Miniflare 4 in-process, offline) over the real built
 * dist/ as its static assets, configured from wrangler.toml: the shared API suite,
 * routing of assets and failure isolation, the MCP endpoint through the SDK's Client over
 * Streamable HTTP (every tool answers exactly the JSON the Worker's API answers), the
 * rate limit (over a slim copy of the build: it asks for the health only, and Miniflare reads
 * every asset when it starts), and 1,000 seeded hostile requests.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Miniflare } from 'miniflare';
import type { RequestInit as MiniflareRequestInit } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from '../src/core/schemas/responses.ts';
import { RATE_LIMIT_PER_MINUTE } from '../src/core/policy.ts';
import { viewPaths } from '../src/core/views/layout.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { apiSuite } from './lib/api-suite.ts';
import { builtDist, corruptCopy, slimCopy } from './lib/dist.ts';
import { fuzzRequests, reachesWorker, runFuzz } from './lib/fuzz.ts';
import { bundleWorker, configured, startWorker } from './lib/workerd.ts';
import { inOneWindow, statuses } from './lib/rate-window.ts';


const root = resolve(import.meta.dirname, '..');
let dist: string;
let script: string;
const instances: Miniflare[] = [];

async function start(directory: string, options?: { rateLimits?: boolean }): Promise<Miniflare> {
  const mf = await startWorker(script, directory, options);
  instances.push(mf);
  return mf;
}

/** The Worker over the built site, as wrangler.toml configures it without the rate limit: one for the suites that read it only. */
let plain: Promise<Miniflare> | undefined;
const worker = () => (plain ??= start(dist));

const BASE = 'http://localhost';
const call = async (mf: Miniflare, path: string, init?: RequestInit) =>
  (await mf.dispatchFetch(`${BASE}${path}`, init as MiniflareRequestInit)) as unknown as Response;

beforeAll(async () => {
  [dist, script] = await Promise.all([builtDist(), bundleWorker('worker-test')]);
}, 600_000);

afterAll(async () => {
  await Promise.all(instances.map((mf) => mf.dispose()));
});

describe('Worker under workerd: API contract', () => {
  let mf: Miniflare;
  beforeAll(async () => {
    mf = await worker();
  }, 60_000);
  apiSuite(() => ({
    fetch: (path, init) => call(mf, path, init),
    read: (path) => new FsStore(dist).read(path),
  }));
});

describe('Worker under workerd: routing and failures', () => {
  let mf: Miniflare;
  beforeAll(async () => {
    mf = await worker();
  }, 60_000);

  it('wrangler.toml routes /api, /api/*, /mcp, the search results page and the profiles to the worker first, assets otherwise', async () => {
    const workerOptions = configured(dist);
    expect(readFileSync(join(root, 'wrangler.toml'), 'utf8')).toMatch(/^directory = "\.\/dist"$/m);
    expect(workerOptions.assets?.binding).toBe('ASSETS');
    expect(workerOptions.assets?.routerConfig?.static_routing?.user_worker).toEqual(['/api', '/api/*', '/mcp', '/search', '/search/', '/company/*', '/downloads/*', '/views/search-index.json', '/views/search-rankings.json']);
    // The search results page without JavaScript: HTML filled by the handler, with or without the slash.
    const meta = JSON.parse(readFileSync(join(dist, 'views/meta.json'), 'utf8')) as MetaView;
    for (const path of ['/search/', '/search']) {
      const page = await call(mf, `${path}?q=${encodeURIComponent(meta.examples.search)}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain(`<li><a href="/company/${meta.examples.company}/">`);
    }
    // The handler answers even where the static default file exists (it sets the ETag).
    const res = await call(mf, '/api/v1/health');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    await res.arrayBuffer();
    const asset = await call(mf, '/views/meta.json');
    expect(asset.status).toBe(200);
    expect(((await asset.json()) as MetaView).month).toBeTruthy();
  });

  it('a corrupt view gives 502 for that request; the next request for another resource is 200', async () => {
    const { dir, bad, good } = corruptCopy(dist, 'evi-worker-corrupt-');
    try {
      const broken = await start(dir);
      const res = await call(broken, `/api/v1/company/${bad}`);
      expect(res.status).toBe(502);
      const text = await res.text();
      expect(ErrorResponseSchema.parse(JSON.parse(text)).error).toBe('internal');
      expect(text).not.toMatch(/JSON|position|at /);
      expect((await call(broken, `/api/v1/company/${good}`)).status).toBe(200);
      expect((await call(broken, '/api/v1/health')).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('MCP over Streamable HTTP at /mcp on the Worker', () => {
  let mf: Miniflare;
  let client: Client;
  let meta: MetaView;
  const workerFetch = async (url: string | URL, init?: RequestInit) => call(mf, new URL(url).pathname + new URL(url).search, init);

  beforeAll(async () => {
    mf = await worker();
    meta = JSON.parse(readFileSync(join(dist, 'views/meta.json'), 'utf8')) as MetaView;
    client = new Client({ name: 'evi-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { fetch: workerFetch }));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('names itself and lists the eight read-only tools', async () => {
    expect(client.getServerVersion()?.name).toBe('employer-visibility-index');
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(8);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
  });

  it("answers every tool with the Worker API's JSON", async () => {
    const ex = meta.examples;
    const calls: [string, Record<string, unknown>, string][] = [
      ['get_index', {}, '/api/v1'],
      ['search_companies', { q: ex.search, limit: 3 }, `/api/v1/search?q=${encodeURIComponent(ex.search)}&limit=3`],
      ['get_company', { slug: ex.company }, `/api/v1/company/${ex.company}`],
      ['get_rankings', { industry: ex.industry, country: ex.country, limit: 5 }, `/api/v1/rankings?industry=${ex.industry}&country=${ex.country}&limit=5`],
      ['get_leaders', { industry: ex.industry, country: ex.country, limit: 3 }, `/api/v1/rankings/${ex.industry}/${ex.country}?limit=3`],
      ['compare_companies', { companies: ex.compare.join(',') }, `/api/v1/compare?companies=${ex.compare.join(',')}`],
      ['get_changelog', {}, '/api/v1/changelog'],
      ['get_health', {}, '/api/v1/health'],
    ];
    for (const [name, args, path] of calls) {
      const res = await call(mf, path);
      expect(res.status, path).toBe(200);
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError ?? false, name).toBe(false);
      expect(result.structuredContent, name).toEqual(await res.json());
    }
  });

  it("gives the API's message as a tool error", async () => {
    const res = await call(mf, '/api/v1/company/no-such-company-anywhere');
    const body = (await res.json()) as { message: string };
    const result = (await client.callTool({ name: 'get_company', arguments: { slug: 'no-such-company-anywhere' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.type === 'text' && result.content[0].text.startsWith(body.message)).toBe(true);
  });
});

describe("Worker under workerd: the rate limit (Cloudflare's Rate Limiting binding of wrangler.toml)", () => {
  let mf: Miniflare;
  let slim: string;
  beforeAll(async () => {
    slim = slimCopy(dist, 'evi-worker-limit-');
    mf = await start(slim, { rateLimits: true });
  }, 60_000);
  afterAll(() => {
    if (slim) rmSync(slim, { recursive: true, force: true });
  });

  it('wrangler.toml binds RATE_LIMITER at RATE_LIMIT_PER_MINUTE a minute', () => {
    expect(configured(dist).ratelimits?.RATE_LIMITER?.simple).toEqual({ limit: RATE_LIMIT_PER_MINUTE, period: 60 });
  });

  it('a client past the limit gets the JSON 429 with Retry-After, never stored; others and preflights are not counted', async () => {
    const from = (ip: string, init: RequestInit = {}) => call(mf, '/api/v1/health', { ...init, headers: { 'cf-connecting-ip': ip, ...(init.headers as Record<string, string> | undefined) } });
    const [answered, preflight, refused] = await inOneWindow(async (attempt) => {
      const client = `203.0.113.${7 + attempt}`;
      const answered = await statuses(RATE_LIMIT_PER_MINUTE, () => from(client));
      // Preflights pass whatever the count.
      const preflight = await from(client, { method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
      return [answered, preflight, await from(client)] as const;
    });
    expect(answered.filter((s) => s !== 200)).toEqual([]);
    expect(preflight.status).toBe(204);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(ErrorResponseSchema.parse(await refused.json())).toMatchObject({ error: 'rate_limited', retryAfter: 60 });
    // Another client, and requests without an address Cloudflare names, are answered.
    expect((await from('198.51.100.2')).status).toBe(200);
    expect((await call(mf, '/api/v1/health')).status).toBe(200);
  });

  it('every spelling of one IPv6 /64 is one client', async () => {
    const [answered, last] = await inOneWindow(async (attempt) => {
      let i = 0;
      const spelling = () => call(mf, '/api/v1/health', { headers: { 'cf-connecting-ip': `2001:db8:7:${7 + attempt}::${(++i).toString(16)}` } });
      return [await statuses(RATE_LIMIT_PER_MINUTE, spelling), await call(mf, '/api/v1/health', { headers: { 'cf-connecting-ip': `2001:DB8:7:${7 + attempt}:ffff:0:0:1` } })] as const;
    });
    expect(answered.filter((s) => s !== 200)).toEqual([]);
    expect(last.status).toBe(429);
  });
});

// The seeded request fuzzer (test/lib/fuzz.ts; `npm run fuzz` is the long run) against the
// Worker the suites above read, last: its slowest exchange is printed, not asserted.
describe('request fuzzer against the Worker under workerd', () => {
  it('what the runtime refuses before a Worker runs is told apart', () => {
    const at = (method: string, host: string | null) => ({ label: '', method, path: '/', bytes: `${method} / HTTP/1.1\r\n${host === null ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n` });
    expect(reachesWorker(at('GET', 'localhost'))).toBe(true);
    expect(reachesWorker(at('PROPFIND', '[::1]:80'))).toBe(true);
    for (const [method, host] of [['CONNECT', 'localhost'], ['FOO', 'localhost'], ['get', 'localhost'], ['GET', 'a b'], ['GET', 'evil.com/x'], ['GET', 'ex@mple'], ['GET', 'x:99999'], ['GET', 'é.example'], ['GET', null]] as const) {
      expect(reachesWorker(at(method, host)), `${method} ${host}`).toBe(false);
    }
  });

  it('1,000 seeded requests the edge would deliver, to the Worker on Miniflare’s socket: no 5xx, /api bodies JSON, nothing leaked', async () => {
    const meta = JSON.parse(readFileSync(join(dist, viewPaths.meta()), 'utf8')) as MetaView;
    const all = fuzzRequests(20261123, 2000, meta);
    const requests = all.filter(reachesWorker).slice(0, 1000);
    const port = Number((await (await worker()).ready).port);
    const report = await runFuzz(port, requests, { concurrency: 4, secrets: [dist, root], normalisePath: true });
    console.log(`worker fuzz: ${report.sent} requests, statuses ${JSON.stringify(report.statuses)}, slowest ${report.slowestMs.toFixed(0)} ms, ${report.slow.length} over 1 s`);
    expect(report.sent).toBe(1000);
    expect(report.failures).toEqual([]);
    expect(report.statuses['200']).toBeGreaterThan(50);
    expect(report.statuses['400']).toBeGreaterThan(25);
    expect(report.statuses['404']).toBeGreaterThan(25);
    expect(report.statuses['405']).toBeGreaterThan(25);
  }, 300_000);
});
