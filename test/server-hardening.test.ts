/**
 * The Node server under hostile input, over raw sockets on loopback, serving the real
 * built dist/: no open redirect, 400 JSON (never 500) for malformed requests, 405 with
 * Allow for every other method (CONNECT and unknown ones included), absolute-form
 * targets routed like their path, internal files not served, the limits set; and the
 * rate limiter's keys and bounded table.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from '../src/core/schemas/responses.ts';
import { SERVER_LIMITS, startServer } from '../src/server/index.ts';
import type { RunningServer } from '../src/server/index.ts';
import { RateLimiter, clientKey } from '../src/server/rate-limit.ts';
import { builtDist } from './lib/dist.ts';
import { rawExchange } from './lib/raw-http.ts';

let dist: string;
let running: RunningServer;
let port: number;
const errors: string[] = [];

beforeAll(async () => {
  dist = await builtDist();
  running = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, log: null, logError: (l) => errors.push(l) });
  port = Number(new URL(running.url).port);
}, 600_000);

afterAll(async () => {
  await running?.close(100);
});

const send = (head: string) => rawExchange(port, `${head}\r\n\r\n`);
const get = (target: string, host = 'localhost') => send(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close`);

function jsonError(answer: { body: string; headers: Record<string, string> }, code: string) {
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = ErrorResponseSchema.parse(JSON.parse(answer.body));
  expect(body.error).toBe(code);
  expect(answer.body).not.toMatch(/\n\s+at |\.ts\b|\/work\/|node_modules/);
}

describe('Node server: redirects stay on this origin', () => {
  it('//evil.com/..%2fapi-docs redirects to the normal path /api-docs/, never off-site', async () => {
    const res = await get('//evil.com/..%2fapi-docs');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/api-docs/');
  });

  it('every folder redirect is a same-origin path built from the normal form', async () => {
    for (const target of ['/api-docs', '//api-docs', '/./api-docs', '/x/../api-docs', '///evil.com/../api-docs', '/%2e%2e/api-docs', '/api-docs?x=//evil.com']) {
      const res = await get(target);
      expect(res.status, target).toBe(301);
      expect(res.headers.location, target).toMatch(/^\/api-docs\/(\?.*)?$/);
      expect(res.headers.location!.startsWith('//'), target).toBe(false);
    }
  });
});

describe('Node server: malformed requests get 400 JSON, never 500', () => {
  it('an empty, bad or missing Host on HTTP/1.1', async () => {
    for (const host of ['', 'a b', 'evil.com/x', 'x:99999', '[::1', 'ex@mple.com']) {
      const res = await get('/api/v1/health', host);
      expect(res.status, host).toBe(400);
      jsonError(res, 'bad_request');
    }
    const none = await send('GET /api/v1/health HTTP/1.1\r\nConnection: close');
    expect(none.status).toBe(400);
    jsonError(none, 'bad_request');
  });

  it('HTTP/1.0 without Host gets the right answer', async () => {
    const res = await send('GET /api/v1/health HTTP/1.0');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
  });

  it('a backslash in an /api path, and a target that is not a path', async () => {
    for (const target of ['/api\\v1/health', '/api/v1/company/\\..\\x', '*', 'api/v1/health']) {
      const res = await get(target);
      expect(res.status, target).toBe(400);
      jsonError(res, 'bad_request');
    }
  });

  it('an absolute-form target is routed like its path', async () => {
    const res = await get('http://other.example/api/v1/health', 'ignored.example');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
    const page = await get('http://other.example/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('a request the parser rejects gets a JSON 400', async () => {
    const res = await rawExchange(port, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(res.status).toBe(400);
    jsonError(res, 'bad_request');
  });

  it('nothing of the above reached the error log', () => {
    expect(errors).toEqual([]);
  });
});

describe('Node server: methods', () => {
  it('CONNECT, unknown methods and every write method get 405 with Allow', async () => {
    for (const head of [
      'CONNECT evil.com:443 HTTP/1.1\r\nHost: evil.com:443',
      'FOO /api/v1/health HTTP/1.1\r\nHost: x',
      'BREW / HTTP/1.1\r\nHost: x',
      'POST /api/v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close',
      'DELETE / HTTP/1.1\r\nHost: x\r\nConnection: close',
      'TRACE /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close',
      'PROPFIND / HTTP/1.1\r\nHost: x\r\nConnection: close',
    ]) {
      const res = await send(head);
      expect(res.status, head).toBe(405);
      expect(res.headers.allow, head).toBe('GET, HEAD, OPTIONS');
      jsonError(res, 'method_not_allowed');
    }
  });
});

describe('Node server: internal files are not served', () => {
  it('views (but the search index), build-report.json, _headers, _redirects: 404, in any spelling', async () => {
    for (const target of ['/views/meta.json', '/views/', '/views', '/%76iews/meta.json', '/VIEWS/meta.json', '//views/meta.json', '/x/../views/meta.json', '/build-report.json', '/_headers', '/_redirects', '/_Redirects']) {
      const res = await get(target);
      expect(res.status, target).toBe(404);
    }
    expect((await get('/views/search-index.json')).status).toBe(200);
  });
});

describe('Node server: limits', () => {
  it('headersTimeout, requestTimeout and a connection cap are set', () => {
    expect(running.server.headersTimeout).toBe(SERVER_LIMITS.headersTimeout);
    expect(running.server.requestTimeout).toBe(SERVER_LIMITS.requestTimeout);
    expect(running.server.maxConnections).toBe(SERVER_LIMITS.maxConnections);
    expect(SERVER_LIMITS.headersTimeout).toBeLessThanOrEqual(SERVER_LIMITS.requestTimeout);
    expect(SERVER_LIMITS.requestTimeout).toBeLessThan(300_000);
  });

  it('connections beyond maxConnections are refused, the others answered', async () => {
    const small = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, log: null, limits: { maxConnections: 1 } });
    try {
      const smallPort = Number(new URL(small.url).port);
      const { connect } = await import('node:net');
      const holder = connect(smallPort, '127.0.0.1');
      await new Promise((ok) => holder.once('connect', ok));
      await new Promise((ok) => setTimeout(ok, 50));
      const refused = await rawExchange(smallPort, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(refused.status).toBe(0);
      holder.destroy();
      await new Promise((ok) => setTimeout(ok, 50));
      expect((await rawExchange(smallPort, 'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(200);
    } finally {
      await small.close(100);
    }
  });

  it('a port in use gives one line naming the port and PORT', async () => {
    const blocker = createServer();
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
    const busy = (blocker.address() as AddressInfo).port;
    try {
      const root = resolve(import.meta.dirname, '..');
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
        cwd: root,
        env: { ...process.env, PORT: String(busy), HOST: '127.0.0.1', DIST_DIR: dist },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise<number | null>((ok) => child.once('exit', ok));
      expect(code).toBe(1);
      const lines = err.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Port ${busy}`);
      expect(lines[0]).toContain('PORT');
    } finally {
      blocker.close();
    }
  }, 60_000);
});

describe('rate limiter: client keys and a bounded table', () => {
  it('every spelling of one address is one client; IPv6 by /64', () => {
    const v4 = ['192.0.2.1', '::ffff:192.0.2.1', '::FFFF:192.0.2.1', '192.0.2.1:5000', '[::ffff:192.0.2.1]:80', ' 192.0.2.1 '];
    expect(new Set(v4.map(clientKey))).toEqual(new Set(['192.0.2.1']));
    const v6 = ['2001:db8::1', '2001:DB8::1', '2001:0db8:0000:0000:0000:0000:0000:0001', '[2001:db8::1]:443', '2001:db8::ffff:abcd', '2001:db8:0:0:1:2:3:4', 'fe80::1%eth0'.replace('fe80::1', '2001:db8::9')];
    expect(new Set(v6.map(clientKey))).toEqual(new Set(['2001:db8::/64']));
    expect(clientKey('2001:db8:0:1::1')).not.toBe(clientKey('2001:db8::1'));
    expect(clientKey('192.0.2.2')).not.toBe(clientKey('192.0.2.1'));
  });

  it('one client spelled many ways is limited as one', () => {
    const limiter = new RateLimiter({ limit: 3, now: () => 1000 });
    expect(['2001:db8::1', '2001:DB8::2', '[2001:db8::3]:1'].map((a) => limiter.check(a).allowed)).toEqual([true, true, true]);
    expect(limiter.check('2001:0db8::ffff').allowed).toBe(false);
    expect(limiter.check('2001:db8:0:1::1').allowed).toBe(true);
  });

  it('600,000 addresses of one /64 are one entry; 600,000 /64s stay within the bound, oldest evicted', () => {
    const limiter = new RateLimiter({ limit: 60, maxClients: 10_000, now: () => 5000 });
    const hex = (n: number) => n.toString(16);
    for (let i = 0; i < 600_000; i++) limiter.check(`2001:db8:1:2:${hex(i >>> 16)}:${hex(i & 0xffff)}::1`);
    expect(limiter.size).toBe(1);
    for (let i = 0; i < 600_000; i++) limiter.check(`2001:db8:${hex(i >>> 16)}:${hex(i & 0xffff)}::1`);
    expect(limiter.size).toBe(10_000);
    // The first /64 (the oldest) was evicted and starts afresh; the newest still remembers its request.
    expect(limiter.check('2001:db8:1:2::1').remaining).toBe(59);
    expect(limiter.check(`2001:db8:${hex(599_999 >>> 16)}:${hex(599_999 & 0xffff)}::7`).remaining).toBe(58);
  }, 120_000);
});
