/**
 * The Node server against odd and hostile requests, over raw sockets where an HTTP
 * client would refuse to send them: redirects stay on this origin, malformed targets
 * and Host headers get a JSON 400 (never 500), unknown methods and CONNECT a 405,
 * build internals are not served.
 */
import { spawn } from 'node:child_process';
import { connect, createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from '../src/core/schemas/responses.ts';
import { SERVER_LIMITS, startServer } from '../src/adapters/node/index.ts';
import type { RunningServer } from '../src/adapters/node/index.ts';
import { RateLimiter, clientKey } from '../src/api/rate-limit.ts';
import { builtDist } from './lib/dist.ts';
import { serveCommand } from './lib/serve-command.ts';

let dist: string;
let running: RunningServer;
let port: number;

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `text` as is and reads the answer until the server closes (or 5 s pass: a hang fails). */
function send(text: string): Promise<RawResponse> {
  return new Promise((ok, fail) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      fail(new Error(`no answer within 5 s to ${JSON.stringify(text.split('\r\n')[0])}; got ${JSON.stringify(data)}`));
    }, 5000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const end = data.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = data.slice(0, end === -1 ? data.length : end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = end === -1 ? '' : data.slice(end + 4);
      if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
      ok({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

function dechunk(text: string): string {
  let out = '';
  for (let rest = text; ; ) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 4 + size);
  }
}

/** One request, closing the connection, with the given request line and headers. */
function request(line: string, headers: string[] = ['Host: localhost']): Promise<RawResponse> {
  return send(`${line}\r\n${[...headers, 'Connection: close'].join('\r\n')}\r\n\r\n`);
}

function jsonError(res: RawResponse) {
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return ErrorResponseSchema.parse(JSON.parse(res.body));
}

beforeAll(async () => {
  dist = await builtDist();
  running = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, log: null, logError: () => {} });
  port = Number(new URL(running.url).port);
}, 600_000);

afterAll(async () => {
  await running?.close(100);
});

describe('redirects stay on this origin', () => {
  it('a folder without its slash is redirected to the normalised path, never to //host', async () => {
    for (const [target, location] of [
      ['//evil.com/..%2fapi-docs', '/api-docs/'],
      ['//evil.com/../api-docs', '/api-docs/'],
      ['///evil.com/..%2f..%2fapi-docs', '/api-docs/'],
      ['/%2fevil.com/..%2fapi-docs', '/api-docs/'],
      ['/%5cevil.com/..%2fapi-docs', '/api-docs/'],
      ['/api-docs/..', '/'],
      ['/api-docs?x=1', '/api-docs/?x=1'],
      ['//evil.com/..%2fapi-docs?next=//evil.com', '/api-docs/?next=//evil.com'],
    ] as const) {
      const res = await request(`GET ${target} HTTP/1.1`);
      if (res.status === 301) {
        expect(res.headers.location, target).toBe(location);
        expect(res.headers.location, target).toMatch(/^\/(?![/\\])/);
      } else {
        expect(res.status, target).toBe(200);
      }
    }
  });

  it('no target gives a Location that leaves the origin', async () => {
    for (const target of ['//evil.com', '//evil.com/', '/\\evil.com', '/%5C%5Cevil.com', '//evil.com/%2e%2e', '/.//evil.com/..', '//%2e%2e//evil.com/api-docs/..']) {
      const res = await request(`GET ${target} HTTP/1.1`);
      if (res.headers.location !== undefined) expect(res.headers.location, target).toMatch(/^\/(?![/\\])/);
      expect(res.status, target).toBeLessThan(500);
    }
  });
});

describe('malformed requests: like their path or a JSON 400, never 500', () => {
  it('a backslash or bad percent-encoding in an /api path', async () => {
    for (const target of ['/api/v1\\health', '/api\\v1/health', '/api/v1/he%zzalth', '/api/v1/company/%E0%A4%A', '/api/v1/search?q=%zz']) {
      const res = await request(`GET ${target} HTTP/1.1`);
      expect(res.status, target).toBeLessThan(500);
      if (res.status === 400) expect(jsonError(res).error, target).toBe('bad_request');
      else expect(res.status, target).toBeOneOf([200, 404]);
    }
    expect((await request('GET /api/v1/he%zzalth HTTP/1.1')).status).toBe(400);
    expect((await request('GET /api/v1\\health HTTP/1.1')).status).toBe(400);
  });

  it('an empty, bad, missing or repeated Host header', async () => {
    for (const headers of [['Host: '], ['Host: a b'], ['Host: evil.com/x'], ['Host: user@evil.com'], ['Host: [::1'], ['Host: x:99999'], ['Host: <script>'], [], ['Host: a', 'Host: b']]) {
      for (const path of ['/api/v1/health', '/', '/api-docs']) {
        const res = await request(`GET ${path} HTTP/1.1`, headers);
        expect(res.status, `${path} ${headers.join()}`).toBe(400);
        expect(jsonError(res).error).toBe('bad_request');
        expect(res.headers['cache-control']).toBe('no-store');
      }
    }
    for (const host of ['localhost', 'LOCALHOST:4321', '127.0.0.1:8080', '[::1]:4321', 'example.org.']) {
      expect((await request('GET /api/v1/health HTTP/1.1', [`Host: ${host}`])).status, host).toBe(200);
    }
    // HTTP/1.0 may omit it.
    expect((await request('GET /api/v1/health HTTP/1.0', [])).status).toBe(200);
  });

  it('an absolute-form target answers like its path', async () => {
    const res = await request('GET http://example.org/api/v1/health HTTP/1.1', ['Host: other.example']);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
    expect((await request('GET http://example.org/api-docs HTTP/1.1')).headers.location).toBe('/api-docs/');
    expect((await request('GET https://example.org/api/v1/nope HTTP/1.1')).status).toBe(404);
    for (const target of ['ftp://example.org/api/v1/health', 'http://', 'api/v1/health']) {
      const bad = await request(`GET ${target} HTTP/1.1`);
      expect(bad.status, target).toBe(400);
      expect(jsonError(bad).error).toBe('bad_request');
    }
  });

  it('a request line Node cannot parse gets a JSON 400', async () => {
    const res = await send('GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n');
    expect(res.status).toBe(400);
    expect(jsonError(res).error).toBe('bad_request');
  });
});

describe('methods: 405 with Allow and a JSON body, never a hang', () => {
  it('unknown methods and CONNECT on any path', async () => {
    for (const line of ['FOO /api/v1/health HTTP/1.1', 'FOO / HTTP/1.1', 'CONNECT example.com:443 HTTP/1.1', 'CONNECT /api/v1/health HTTP/1.1', 'PUT / HTTP/1.1', 'DELETE /api-docs/ HTTP/1.1', 'POST /api/v1/health HTTP/1.1', 'PROPFIND /views/ HTTP/1.1']) {
      const res = await request(line);
      expect(res.status, line).toBe(405);
      expect(res.headers.allow, line).toBe('GET, HEAD, OPTIONS');
      expect(jsonError(res).error, line).toBe('method_not_allowed');
    }
  });

  it('OPTIONS is still 204', async () => {
    expect((await request('OPTIONS /api-docs/ HTTP/1.1')).status).toBe(204);
    expect((await request('OPTIONS * HTTP/1.1')).status).toBe(204);
  });
});

describe('build internals are not served', () => {
  it('views, the build report and host configuration answer 404; the search index stays public', async () => {
    for (const path of ['/views/meta.json', '/views/', '/views', '/Views/meta.json', '/views%2fmeta.json', '/x/..%2fviews/meta.json', '/build-report.json', '/_headers', '/_redirects', '/serve.json', '/.assetsignore', '/api-docs/..%2fserve.json', '//api/v1/health.json', '/./api/v1/health.json']) {
      const res = await request(`GET ${path} HTTP/1.1`);
      expect(res.status, path).toBe(404);
      expect(res.headers.location, path).toBeUndefined();
    }
    expect((await request('GET /views/search-index.json HTTP/1.1')).status).toBe(200);
    expect((await request('GET /views/search-rankings.json HTTP/1.1')).status).toBe(200);
    expect((await request('GET /api/v1/health HTTP/1.1')).status).toBe(200);
  });
});

describe('limits against slow and greedy clients', () => {
  it('headers and request timeouts and a connection cap are set', () => {
    expect(running.server.headersTimeout).toBe(SERVER_LIMITS.headersTimeoutMs);
    expect(running.server.requestTimeout).toBe(SERVER_LIMITS.requestTimeoutMs);
    expect(running.server.maxConnections).toBe(SERVER_LIMITS.maxConnections);
    expect(SERVER_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(SERVER_LIMITS.requestTimeoutMs);
  });

  it('a client that never finishes its headers gets a JSON 408 and is closed', async () => {
    const slow = await startServer({ distDir: dist, port: 0, log: null, headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      const res = await new Promise<string>((ok, fail) => {
        const socket = connect(Number(new URL(slow.url).port), '127.0.0.1', () => socket.write('GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n'));
        let data = '';
        const timer = setTimeout(() => fail(new Error('still open after 5 s')), 5000);
        socket.on('data', (c: Buffer) => (data += c.toString()));
        socket.on('error', () => {});
        socket.on('close', () => {
          clearTimeout(timer);
          ok(data);
        });
      });
      expect(res).toMatch(/^HTTP\/1\.1 408 /);
      expect(res).toContain('"error":"bad_request"');
    } finally {
      await slow.close(100);
    }
  });
});

describe('npm run serve on a port already in use', () => {
  it('prints one line naming the port and PORT, and exits 1 without a stack trace', async () => {
    const blocker = createTcpServer();
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
    const busy = (blocker.address() as AddressInfo).port;
    try {
      const root = resolve(import.meta.dirname, '..');
      const [program, args] = serveCommand(root);
      const child = spawn(program, args, {
        cwd: root,
        env: { ...process.env, PORT: String(busy), HOST: '127.0.0.1', DIST_DIR: dist },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise<number | null>((ok) => child.once('exit', ok));
      expect(code).toBe(1);
      expect(out).toBe('');
      const lines = err.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Port ${busy} is already in use`);
      expect(lines[0]).toContain('PORT');
      expect(err).not.toMatch(/\n\s+at |Error:/);
    } finally {
      await new Promise((ok) => blocker.close(ok));
    }
  }, 60_000);
});

describe('rate limiter: one client per IPv4 address or IPv6 /64, a bounded table', () => {
  const hex = (n: number) => n.toString(16);

  it('every spelling of an address is one client', () => {
    for (const same of [
      ['1.2.3.4', '::ffff:1.2.3.4', '::FFFF:1.2.3.4', '::ffff:102:304', '0:0:0:0:0:ffff:0102:0304', '[::ffff:1.2.3.4]:443', '1.2.3.4:8080'],
      ['2001:db8::1', '2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8:0:0:ffff::', '[2001:DB8::abcd]:443', '2001:db8::1%eth0'],
    ]) {
      expect(new Set(same.map(clientKey)), same.join(' ')).toHaveProperty('size', 1);
    }
    expect(clientKey('2001:db8:0:1::1')).not.toBe(clientKey('2001:db8:0:0::1'));
    expect(clientKey('1.2.3.4')).not.toBe(clientKey('1.2.3.5'));
  });

  it('60,000 distinct addresses of one /64 count as ONE client', () => {
    const limiter = new RateLimiter({ limit: 60, now: () => 1_000_000 });
    let allowed = 0;
    for (let i = 0; i < 60_000; i++) {
      const spelling = i % 3 === 0 ? '2001:0DB8:00AB:0001' : i % 3 === 1 ? '2001:db8:ab:1' : '2001:db8:AB:01';
      if (limiter.check(`${spelling}:${hex(i >>> 16)}:${hex(i & 0xffff)}:${hex(i % 7)}:${hex(i % 65_521)}`).allowed) allowed++;
    }
    expect(limiter.size).toBe(1);
    expect(allowed).toBe(60);
  });

  it('60,000 distinct /64s keep the table at its bound, the oldest forgotten first', () => {
    const limiter = new RateLimiter({ limit: 60, maxClients: 10_000, now: () => 1_000_000 });
    for (let i = 0; i < 60_000; i++) {
      limiter.check(`2001:db8:${hex(i >>> 16)}:${hex(i & 0xffff)}::1`);
      if (i % 10_000 === 9_999) expect(limiter.size).toBe(10_000);
    }
    expect(limiter.size).toBe(10_000);
    // The newest client is remembered (1 of 60 used), the first one was evicted (fresh again).
    const last = 59_999;
    expect(limiter.check(`2001:db8:${hex(last >>> 16)}:${hex(last & 0xffff)}::2`).remaining).toBe(58);
    expect(limiter.check('2001:db8:0:0::2').remaining).toBe(59);
    expect(limiter.size).toBe(10_000);
  });
});
