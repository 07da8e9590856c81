/**
 * The Node server over real HTTP on loopback, serving the real built dist/:
 * the shared API suite, then what only the server does (static files, gzip/br,
 * rate limit, failure isolation, request log, clean stop).
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema, HealthResponseSchema } from '../src/core/schemas/responses.ts';
import { viewPaths } from '../src/core/views/layout.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { startServer } from '../src/adapters/node/index.ts';
import type { RunningServer } from '../src/adapters/node/index.ts';
import { apiSuite } from './lib/api-suite.ts';
import { builtDist, corruptCopy } from './lib/dist.ts';
import { serveCommand } from './lib/serve-command.ts';

let dist: string;
const servers: RunningServer[] = [];
const logs: string[] = [];

async function serve(options: Partial<Parameters<typeof startServer>[0]> = {}): Promise<RunningServer> {
  const running = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, log: (l) => logs.push(l), logError: (l) => logs.push(l), ...options });
  servers.push(running);
  return running;
}

/** A raw request, so headers are exactly what was sent and the body arrives undecoded. */
function raw(url: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((ok, fail) => {
    const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

beforeAll(async () => {
  dist = await builtDist();
}, 600_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close(100)));
});

describe('Node server: API contract over HTTP', () => {
  let url: string;
  beforeAll(async () => {
    url = (await serve()).url;
  });
  apiSuite(() => ({
    fetch: (path, init) => fetch(`${url}${path}`, init),
    read: (path) => new FsStore(dist).read(path),
  }));
});

describe('Node server: its own duties', () => {
  let url: string;
  let meta: MetaView;
  beforeAll(async () => {
    url = (await serve()).url;
    meta = JSON.parse(readFileSync(join(dist, viewPaths.meta()), 'utf8')) as MetaView;
  });

  it('gzip and br by Accept-Encoding, with an ETag per coding and 304 on either', async () => {
    const path = `/api/v1/rankings?country=${meta.examples.country}`;
    const plain = await raw(url, path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const tag = plain.headers.etag as string;
    for (const [coding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await raw(url, path, { 'Accept-Encoding': `${coding}, identity` });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toContain('Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.body.length).toBeLessThan(plain.body.length);
      expect(decode(res.body).equals(plain.body)).toBe(true);
      expect(res.headers.etag).toBe(`${tag.slice(0, -1)}-${coding}"`);
      const again = await raw(url, path, { 'Accept-Encoding': coding, 'If-None-Match': res.headers.etag as string });
      expect(again.status).toBe(304);
      expect(again.headers.etag).toBe(res.headers.etag);
      expect(again.headers['access-control-allow-origin']).toBe('*');
      const head = await raw(url, path, { 'Accept-Encoding': coding }, 'HEAD');
      expect(head.headers['content-length']).toBe(res.headers['content-length']);
      expect(head.body.length).toBe(0);
    }
    expect((await raw(url, path, { 'Accept-Encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
  });

  it('serves the static files of dist with their content types', async () => {
    const res = await raw(url, '/views/search-index.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(readFileSync(join(dist, 'views/search-index.json')));
    const again = await raw(url, '/views/search-index.json', { 'If-None-Match': res.headers.etag as string });
    expect(again.status).toBe(304);
    // The search box's other view is public too; the rest of views/ is not.
    expect((await raw(url, '/views/search-rankings.json')).status).toBe(200);
    expect((await raw(url, '/views/meta.json')).status).toBe(404);
    expect((await raw(url, '/llms.txt')).headers['content-type']).toBe('text/plain; charset=utf-8');
    const folder = await raw(url, '/api-docs');
    expect(folder.status).toBe(301);
    expect(folder.headers.location).toBe('/api-docs/');
    expect((await raw(url, '/no/such/file.css')).status).toBe(404);
  });

  it('static files: br and gzip for text, one validator and 304, cache life by path, HEAD without a body', async () => {
    const file = readFileSync(join(dist, 'api-docs/index.html'));
    const page = await raw(url, '/api-docs/', { 'Accept-Encoding': 'gzip, br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(page.body)).toEqual(file);
    expect(page.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(page.headers['access-control-allow-origin']).toBe('*');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['last-modified']).toBeDefined();
    expect(gunzipSync((await raw(url, '/api-docs/', { 'Accept-Encoding': 'gzip' })).body)).toEqual(file);
    expect((await raw(url, '/api-docs/')).body).toEqual(file);
    const again = await raw(url, '/api-docs/', { 'Accept-Encoding': 'gzip', 'If-None-Match': page.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await raw(url, '/api-docs/', { 'Accept-Encoding': 'gzip, br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(page.headers['content-length']);
    expect(head.body.length).toBe(0);
    // Hashed assets are kept for a year; a missing one is the site's 404 page, kept for no time.
    const asset = readdirSync(join(dist, '_astro'))[0]!;
    expect((await raw(url, `/_astro/${asset}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await raw(url, '/_astro/no-such-asset.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(missing.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(missing.body).toEqual(readFileSync(join(dist, '404.html')));
  });

  it('nothing outside dist can be read, through static paths or the API', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/..%2Fpackage.json', '/views/..%2F..%2Fpackage.json', '/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/a%00b']) {
      const res = await raw(url, path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.body.toString()).not.toContain('employer-visibility-index');
    }
    for (const path of ['/api/v1/company/..%2F..%2F..%2Fpackage', '/api/v1/company/%2e%2e%2f%2e%2e%2fmeta']) {
      expect((await raw(url, path)).status, path).toBe(404);
    }
    const store = new FsStore(dist);
    expect(await store.read('../package.json')).toBeNull();
    expect(await store.read('/etc/passwd')).toBeNull();
    expect(await store.read('views/../../package.json')).toBeNull();
  });

  it('logs one line per request: method, path, status, milliseconds', async () => {
    logs.length = 0;
    await raw(url, '/api/v1/health');
    for (let i = 0; i < 100 && !logs.some((l) => l.startsWith('GET /api/v1/health ')); i++) await new Promise((r) => setTimeout(r, 10));
    expect(logs.filter((l) => l.startsWith('GET /api/v1/health '))).toHaveLength(1);
    expect(logs.at(-1)).toMatch(/^GET \/api\/v1\/health 200 \d+\.\dms$/);
  });
});

describe('Node server: rate limit (60 per rolling minute per client)', () => {
  it('the 61st request in a minute gets 429 with Retry-After and RateLimit fields; a forged X-Forwarded-For does not help', async () => {
    const { url } = await serve({ rateLimitPerMinute: 60 });
    for (let i = 0; i < 60; i++) {
      const res = await raw(url, i % 2 ? '/api/v1/health' : '/api/v1/nope', { 'X-Forwarded-For': `198.51.100.${i}` });
      expect(res.status).toBe(i % 2 ? 200 : 404);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=60;w=60');
      // Cacheable answers (200 and 404 here) never carry one client's remaining quota.
      expect(res.headers['cache-control']).toMatch(/public/);
      expect(res.headers.ratelimit).toBeUndefined();
    }
    for (const headers of [{}, { 'X-Forwarded-For': '203.0.113.7' }, { 'X-Forwarded-For': '203.0.113.8, 127.0.0.1' }] as Record<string, string>[]) {
      const res = await raw(url, '/api/v1/health', headers);
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.ratelimit).toMatch(/^"default";r=0;t=\d+$/);
      const body = ErrorResponseSchema.parse(JSON.parse(res.body.toString()));
      expect(body).toMatchObject({ error: 'rate_limited', retryAfter });
    }
    // Static files are not counted.
    expect((await raw(url, '/llms.txt')).status).toBe(200);
  });

  it('behind a trusted proxy, X-Forwarded-For names the client', async () => {
    const { url } = await serve({ rateLimitPerMinute: 2, trustProxy: 1 });
    const hit = (client: string) => raw(url, '/api/v1/health', { 'X-Forwarded-For': `10.9.9.9, ${client}` });
    expect((await hit('192.0.2.1')).status).toBe(200);
    expect((await hit('192.0.2.1')).status).toBe(200);
    expect((await hit('192.0.2.1')).status).toBe(429);
    expect((await hit('192.0.2.2')).status).toBe(200);
  });

  it('RATE_LIMIT_PER_MINUTE=0 disables it', async () => {
    const { url } = await serve({ rateLimitPerMinute: 0 });
    const statuses = await Promise.all(Array.from({ length: 80 }, () => raw(url, '/api/v1/health').then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect((await raw(url, '/api/v1/health')).headers.ratelimit).toBeUndefined();
  });
});

describe('Node server: failures stay local', () => {
  it('a corrupt view gives 502 for that request, logged once; the next request for another resource is 200', async () => {
    const { dir, bad, good } = corruptCopy(dist, 'evi-corrupt-');
    try {
      const errors: string[] = [];
      const { url } = await serve({ distDir: dir, logError: (l) => errors.push(l) });
      for (let i = 0; i < 2; i++) {
        const res = await raw(url, `/api/v1/company/${bad}`);
        expect(res.status).toBe(502);
        const text = res.body.toString();
        expect(ErrorResponseSchema.parse(JSON.parse(text)).error).toBe('internal');
        expect(text).not.toMatch(/JSON|position|\.ts|at /);
      }
      expect(errors).toHaveLength(1);
      expect((await raw(url, `/api/v1/company/${good}`)).status).toBe(200);
      expect(HealthResponseSchema.parse(JSON.parse((await raw(url, '/api/v1/health')).body.toString())).status).toBe('ok');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run serve (src/adapters/node/main.ts)', () => {
  it('serves on PORT and HOST, and stops cleanly on SIGTERM', async () => {
    const root = resolve(import.meta.dirname, '..');
    // The serve script's own command, Node flags included (bench:serve starts it the same way).
    const [program, args] = serveCommand(root);
    // V8's memory reducer off: after its idle-time collection the server could spend 40-55%
    // more CPU a request under load (BENCHMARKS.md, "Serve: V8's memory reducer").
    expect(args).toContain('--no-memory-reducer');
    const child = spawn(program, args, {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DIST_DIR: dist, RATE_LIMIT_PER_MINUTE: '5' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no listening line: ${out}`)), 30_000);
      child.stdout.on('data', () => {
        const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match?.[1]) {
          clearTimeout(timer);
          ok(match[1]);
        }
      });
    });
    const res = await fetch(`${url}/api/v1/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
    await res.arrayBuffer();
    for (let i = 0; i < 100 && !/GET \/api\/v1\/health 200/.test(out); i++) await new Promise((r) => setTimeout(r, 10));
    expect(out).toMatch(/GET \/api\/v1\/health 200 \d+\.\dms/);
    const code = await new Promise<number | null>((ok) => {
      child.once('exit', (c) => ok(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  }, 60_000);
});
