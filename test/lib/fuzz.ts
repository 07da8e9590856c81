/**
 * A seeded request fuzzer for the Node server and the Worker: every endpoint and parameter with valid,
 * edge and hostile values, odd methods and headers, and raw malformed requests, all sent
 * over raw sockets so that nothing is cleaned up on the way. The same seed gives the same
 * requests. Used by `test/fuzz.test.ts` (a bounded count) and `scripts/fuzz.ts` (a long run).
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { MetaView } from '../../src/core/views/layout.ts';
import { rawExchange } from './raw-http.ts';

/** mulberry32: a small, fast, seeded PRNG (enough for choosing test inputs). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FuzzRequest {
  /** What was sent, for the failure report. */
  label: string;
  bytes: string;
  /** The method and path, when the request is well-formed enough to have them. */
  method?: string;
  path?: string;
}

const HOSTILE = [
  '', ' ', '%', '%%', '%zz', '%00', '%ff%fe', '%c0%af', '..', '../../../../etc/passwd', '..%2f..%2fpackage.json', '%2e%2e%2f%2e%2e%2f',
  '\\..\\..\\windows', '<script>alert(1)</script>', "' OR 1=1 --", '${jndi:ldap://x}', '{{7*7}}', '__proto__', 'constructor', 'toString',
  'null', 'undefined', 'NaN', 'Infinity', '-0', '1e308', '0x10', '0b1', '1.5', '-1', '0', '00', '+1', ' 5', '9'.repeat(400), 'a'.repeat(5000),
  'é', 'ü', '日本', '🦄', '\u202e', '\ufeff', 'A,B', ',,,', ',', '[]', '{}', '[object Object]', 'true',
];
const INTS = ['1', '2', '5', '10', '20', '21', '25', '99', '100', '101', '0', '-1', '1.0', '1e1', '08', ' 1', '1 ', '999999999999999999999', ''];
const MONTHS = ['2020-01', '2026-13', '2026-00', '9999-12', '0000-01', '2026-1', '26-10', 'latest', 'current'];
const SORTS = ['rank', 'mentions', 'name', 'change', 'score', 'RANK', '-rank', 'rank,name', ''];
const METHODS = ['GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'HEAD', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'CONNECT', 'PURGE', 'PROPFIND', 'M-SEARCH', 'FOO', 'get', 'G\u00e9T'];
const ENCODINGS = ['gzip', 'br', 'deflate', 'br;q=0, gzip', 'identity', '*', 'gzip;q=0', 'zstd', 'x'.repeat(300), ''];

export function fuzzRequests(seed: number, count: number, meta: MetaView): FuzzRequest[] {
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const chance = (p: number) => rand() < p;
  const ex = meta.examples;
  const countries = ['us', 'US', 'gb', 'United Kingdom', 'uk', 'USA', 'zz', ex.country, 'united states', 'Saudi Arabia'];
  const industries = [ex.industry, ex.industry.toUpperCase(), 'technology', 'Nope Industry', 'all'];
  const slugs = [ex.company, ex.company.toUpperCase(), ...ex.compare, 'no-such-company', 'a', 'A_B', '-x-'];
  const months = [meta.index.month, ...MONTHS];

  /** A value from the valid, edge or hostile pool, percent-encoded most of the time. */
  const value = (valid: readonly string[]): string => {
    const v = chance(0.45) ? pick(valid) : chance(0.5) ? pick(INTS) : pick(HOSTILE);
    return chance(0.85) ? encodeURIComponent(v) : v.replace(/[^\x21-\x7e]|#/gu, encodeURIComponent);
  };
  const query = (params: [string, readonly string[]][]): string => {
    const parts: string[] = [];
    for (const [name, valid] of params) if (chance(0.5)) parts.push(`${name}=${value(valid)}`);
    if (chance(0.1)) parts.push(`${pick(params)[0]}=${value(pick(params)[1])}`); // repeated
    if (chance(0.1)) parts.push(pick(['foo=bar', 'x', '=', '&', 'callback=alert', '__proto__[x]=1', 'limit']));
    return parts.length ? `?${parts.join('&')}` : chance(0.05) ? '?' : '';
  };

  const apiPath = (): string => {
    const base = pick(['/api/v1', '/api/v1', '/api', '/api/v2', '/api//v1', '/API/v1']);
    switch (Math.floor(rand() * 9)) {
      case 0:
        return `${base}${pick(['', '/', '/health', '/health/', '/openapi.json', '/nope', '/../v1/health', '/%2e%2e/x', '//health'])}${query([['x', ['1']]])}`;
      case 1:
        return `${base}/search${query([['q', [ex.search, ex.company, 'dynamics', 'a', '']], ['country', countries], ['limit', INTS]])}`;
      case 2:
        return `${base}/company/${value(slugs)}${chance(0.1) ? '/' : ''}${query([['country', countries]])}`;
      case 3:
      case 4:
        return `${base}/rankings${chance(0.1) ? '/' : ''}${query([['industry', industries], ['country', countries], ['month', months], ['limit', INTS], ['page', INTS], ['sort', SORTS]])}`;
      case 5:
        return `${base}/rankings/${value(industries)}/${value(countries)}${chance(0.1) ? pick(['/', '/x', '/../..']) : ''}${query([['limit', INTS], ['month', months]])}`;
      case 6:
        return `${base}/compare${query([['companies', [ex.compare.join(','), `${ex.company},${ex.company}`, ex.compare.slice(0, 1).join(','), [...ex.compare, ...slugs].join(',')]], ['country', countries]])}`;
      case 7:
        return `${base}/${value(['rankings', 'company', 'compare', 'search'])}/${value(slugs)}/${value(slugs)}`;
      default:
        return `${base}${pick(['/company', '/company/', '/rankings/x', '/compare/', '/search/x', '/health?x=' + 'y'.repeat(3000)])}`;
    }
  };
  const staticPath = (): string =>
    pick([
      '/', '/index.html', '/404.html', '/api-docs', '/api-docs/', '//evil.com/..%2fapi-docs', '///evil.com', '/views/meta.json', '/views/search-index.json', '/views/',
      '/build-report.json', '/_headers', '/_redirects', '/llms.txt', '/favicon.ico', '/company', `/company/${ex.company}/`, '/../package.json', '/%2e%2e/package.json',
      '/a%00b', '/%ff', '/x/../../etc/passwd', `/${'x/'.repeat(500)}`, '/index.html?x=1', '/_astro/', '/_astro/nope.js',
    ]);

  const header = (): string =>
    pick([
      `Accept-Encoding: ${pick(ENCODINGS)}`,
      `If-None-Match: ${pick(['*', '"abc"', 'W/"x"', '"x-gzip", "y-br"', 'garbage', '""'])}`,
      `If-Modified-Since: ${pick(['Thu, 01 Jan 1970 00:00:00 GMT', 'yesterday', ''])}`,
      `Origin: ${pick(['https://evil.example', 'null', ''])}`,
      `X-Forwarded-For: ${pick(['1.2.3.4', '::ffff:1.2.3.4', 'garbage, 2001:db8::1', '', '1.2.3.4:80, [::1]:8'])}`,
      `Range: ${pick(['bytes=0-10', 'bytes=-1', 'bytes=9999999-', 'lines=1'])}`,
      `Accept: ${pick(['application/json', 'text/html', '*/*', 'x/y;q=nope'])}`,
      `Access-Control-Request-Method: ${pick(['GET', 'POST', 'DELETE'])}`,
      `X-Long: ${'v'.repeat(Math.floor(rand() * 6000))}`,
      'Expect: 100-continue',
      'Cookie: a=b',
    ]);

  const hosts = ['localhost', 'localhost', 'localhost:4321', '127.0.0.1', '[::1]:80', '', 'a b', 'evil.com/x', 'x:99999', 'ex@mple', '[::1', 'é.example', 'a'.repeat(300)];

  const raws = (): FuzzRequest => {
    const bytes = pick([
      'GET /\r\n\r\n',
      'GET /api/v1/health HTTP/2.0\r\nHost: x\r\n\r\n',
      'GET /api/v1/health HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET /api/v1/health HTTP/1.1\nHost: x\n\n',
      'GET  /api/v1/health  HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/v1/he alth HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/v1/health\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n',
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\n Folded: y\r\n\r\n',
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n',
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
      'POST /api/v1/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n',
      `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      `GET /api/v1/${'p'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Bin: \u0001\u0002\r\n\r\n',
      '\r\n\r\nGET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n',
      'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
      'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n',
      'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET http://evil.example/api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET https://evil.example HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET http://[::1/api HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/v1/health HTTP/1.0\r\n\r\n',
      'GET /api\\v1\\health HTTP/1.1\r\nHost: x\r\n\r\n',
      '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003',
      'garbage\r\n\r\n',
    ]);
    return { label: `raw ${JSON.stringify(bytes.slice(0, 80))}`, bytes };
  };

  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    if (chance(0.12)) {
      out.push(raws());
      continue;
    }
    const method = pick(METHODS);
    const path = chance(0.8) ? apiPath() : staticPath();
    const lines = [`${method} ${path} HTTP/1.1`];
    if (!chance(0.03)) lines.push(`Host: ${chance(0.85) ? 'localhost' : pick(hosts)}`);
    for (let h = Math.floor(rand() * 4); h > 0; h--) lines.push(header());
    let body = '';
    if (chance(0.05)) {
      body = pick(['{"a":1}', 'x'.repeat(2000), '']);
      lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    }
    lines.push('Connection: close');
    out.push({ label: `${method} ${path.slice(0, 120)}`, bytes: `${lines.join('\r\n')}\r\n\r\n${body}`, method, path });
  }
  return out;
}

/** The methods workerd's HTTP server parses (others it answers 501 itself) and a Worker can receive (not CONNECT). */
const WORKER_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PURGE', 'PROPFIND']);

/**
 * Whether a request is one Cloudflare's edge hands to a Worker: well formed (not one of the
 * raw malformed ones), a method the runtime parses other than CONNECT, and a valid Host. The
 * others are refused by the runtime before any Worker code runs (locally workerd answers them
 * 400, 500 or 501 itself: "Incoming CONNECT on a worker not supported", "invalid hostname"),
 * so the Worker's fuzz run sends only these.
 */
export function reachesWorker(r: FuzzRequest): boolean {
  if (!r.method || !WORKER_METHODS.has(r.method)) return false;
  const host = /\r\nHost: ([^\r]*)\r\n/.exec(r.bytes)?.[1];
  if (host === undefined) return false;
  // RFC 9110 §7.2: host [":" port], ASCII; no path, user or query smuggled in.
  if (!/^[\x21-\x7e]+$/.test(host)) return false;
  try {
    const url = new URL(`http://${host}/`);
    return url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

export interface FuzzReport {
  sent: number;
  statuses: Record<string, number>;
  failures: string[];
  /** Slowest exchange, ms (reported, never asserted). */
  slowestMs: number;
  /** Exchanges over one second, with their time (reported, never asserted). */
  slow: string[];
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function decodeBody(raw: Buffer, headers: Record<string, string>): string {
  let body = headers['transfer-encoding']?.includes('chunked') ? dechunk(raw) : raw;
  const coding = headers['content-encoding'];
  if (coding === 'gzip') body = gunzipSync(body);
  else if (coding === 'br') body = brotliDecompressSync(body);
  else if (coding === 'deflate') body = inflateSync(body);
  return body.toString('utf8');
}

/** What no body may hold: a stack frame, or a path of the machine the server runs on. */
export function leaks(body: string, secrets: readonly string[]): string | null {
  if (/\n\s+at \S+ \(|\bat (?:async )?\S+ \(?(?:file:\/\/|node:|\/)[^)\s]*:\d+:\d+/.test(body)) return 'a stack trace';
  for (const secret of secrets) if (secret && body.includes(secret)) return `the path ${secret}`;
  if (/node_modules\/|file:\/\/\//.test(body)) return 'a file path';
  return null;
}

/**
 * Sends `requests` to the server on `port`, `concurrency` at a time, and checks every answer:
 * a status line (the server always answers), no 5xx, every `/api` body JSON (when a body is
 * allowed), no stack or machine path in any body.
 */
export async function runFuzz(port: number, requests: FuzzRequest[], options: { concurrency?: number; secrets?: string[]; normalisePath?: boolean } = {}): Promise<FuzzReport> {
  /**
   * Whether a request is for /api. With `normalisePath`, by the path the runtime hands over after
   * removing dot segments (workerd and Cloudflare's edge turn `/api/../v1/health` and
   * `/api/%2e%2e/x` into `/v1/health` and `/x`: not /api paths); else by the path as sent.
   */
  const isApi = (path: string): boolean => {
    let p = path;
    if (options.normalisePath) {
      try {
        p = new URL(path, 'http://host').pathname;
      } catch {
        // as sent
      }
    }
    return /^\/api(\/|\?|$)/.test(p);
  };
  const report: FuzzReport = { sent: 0, statuses: {}, failures: [], slowestMs: 0, slow: [] };
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++] as FuzzRequest;
      const start = performance.now();
      const answer = await rawExchange(port, Buffer.from(request.bytes, 'latin1'), 10_000);
      const ms = performance.now() - start;
      report.slowestMs = Math.max(report.slowestMs, ms);
      if (ms > 1000) report.slow.push(`${request.label}: ${Math.round(ms)} ms`);
      report.sent++;
      report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1;
      const fail = (why: string) => report.failures.push(`${request.label}: ${why} (status ${answer.status})`);
      if (answer.status === 0) {
        fail('no answer');
        continue;
      }
      if (answer.status >= 500) fail('5xx');
      const bodyless = request.method === 'HEAD' || answer.status === 204 || answer.status === 304 || (answer.status >= 100 && answer.status < 200);
      if (bodyless) continue;
      let body: string;
      try {
        body = decodeBody(Buffer.from(answer.body, 'latin1'), answer.headers);
      } catch {
        fail('undecodable body');
        continue;
      }
      const leak = leaks(body, options.secrets ?? []);
      if (leak) fail(`the body shows ${leak}`);
      const api = request.path !== undefined && isApi(request.path);
      if ((api || answer.headers['content-type']?.startsWith('application/json')) ) {
        try {
          JSON.parse(body);
        } catch {
          fail(`the body is not JSON: ${JSON.stringify(body.slice(0, 80))}`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  return report;
}
