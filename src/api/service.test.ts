import { describe, expect, it } from 'vitest';
import { fixtureStore, meta } from '../../test/lib/fixture.ts';
import { createApi, requestLogLine } from './service.ts';
import type { Answer, ApiRequest, RequestLogEntry } from './service.ts';
import type { Encoding } from './encoding.ts';
import { RateLimiter } from './rate-limit.ts';
import { MemoryStore } from './store.ts';

const header = (answer: Answer, name: string) => {
  const i = answer.headers.findIndex((h, j) => j % 2 === 0 && h === name);
  return i === -1 ? undefined : answer.headers[i + 1];
};
const text = (answer: Answer) => new TextDecoder().decode(answer.body ?? new Uint8Array());

/** A reversible stand-in for a real codec: the bytes reversed, prefixed by the coding's name. */
function recordingCompressor() {
  const calls: string[] = [];
  const compress = (body: Uint8Array, encoding: Encoding) => {
    calls.push(encoding);
    return new Uint8Array([...new TextEncoder().encode(`${encoding}:`), ...[...body].reverse()]);
  };
  return { calls, compress };
}

const get = (target: string, more: Partial<ApiRequest> = {}): ApiRequest => ({ method: 'GET', target, ...more });

describe('createApi: the policy around the handler', () => {
  it('keeps an answer by its target: the second GET is answered synchronously with the same bytes', async () => {
    const api = createApi(fixtureStore(), { log: () => {} });
    const first = await api.answer(get('/api/v1/health'));
    const second = api.answer(get('/api/v1/health'));
    expect(second).not.toBeInstanceOf(Promise);
    expect(text(second as Answer)).toBe(text(first));
    expect(JSON.parse(text(first))).toMatchObject({ status: 'ok' });
    expect(header(first, 'content-length')).toBe(String(first.body!.byteLength));
  });

  it('compresses a body once per ETag and coding, shared by targets with the same body', async () => {
    const { calls, compress } = recordingCompressor();
    const api = createApi(fixtureStore(), { log: () => {}, compress });
    // Two spellings of one request: the same body, two targets.
    const targets = [`/api/v1/rankings?country=${meta.examples.country}`, `/api/v1/rankings?country=${meta.examples.country.toUpperCase()}`];
    const plain = await api.answer(get(targets[0]!));
    expect(plain.body!.byteLength).toBeGreaterThan(1024);
    for (const target of targets) {
      for (let i = 0; i < 3; i++) {
        const br = await api.answer(get(target, { acceptEncoding: 'gzip, br' }));
        expect(header(br, 'content-encoding')).toBe('br');
        expect(header(br, 'etag')).toBe(`${header(plain, 'etag')!.slice(0, -1)}-br"`);
        expect(text(br)).toBe(`br:${[...text(plain)].reverse().join('')}`);
      }
    }
    await api.answer(get(targets[1]!, { acceptEncoding: 'gzip' }));
    expect(calls).toEqual(['br', 'gzip']);
  });

  it('keeps a coded body in a buffer of its own size, not in the compressor\'s larger chunk', async () => {
    // As Node's zlib does: the result is a view of a bigger buffer.
    const compress = (body: Uint8Array, encoding: Encoding) => {
      const coded = recordingCompressor().compress(body, encoding);
      const chunk = new Uint8Array(coded.byteLength + 16_384);
      chunk.set(coded, 8);
      return chunk.subarray(8, 8 + coded.byteLength);
    };
    const api = createApi(fixtureStore(), { log: () => {}, compress });
    const target = `/api/v1/rankings?country=${meta.examples.country}`;
    const plain = await api.answer(get(target));
    const br = await api.answer(get(target, { acceptEncoding: 'br' }));
    expect(text(br)).toBe(`br:${[...text(plain)].reverse().join('')}`);
    expect(br.body!.buffer.byteLength).toBe(br.body!.byteLength);
    expect(header(br, 'content-length')).toBe(String(br.body!.byteLength));
  });

  it('304 for either ETag of a body, with the ETag of the coding it would send; HEAD has the headers and no body', async () => {
    const api = createApi(fixtureStore(), { log: () => {}, compress: recordingCompressor().compress });
    const target = `/api/v1/rankings?country=${meta.examples.country}`;
    const plain = await api.answer(get(target));
    const br = await api.answer(get(target, { acceptEncoding: 'br' }));
    for (const tag of [header(plain, 'etag')!, header(br, 'etag')!, `"x", ${header(br, 'etag')}`, '*']) {
      const again = await api.answer(get(target, { acceptEncoding: 'br', ifNoneMatch: tag }));
      expect(again.status, tag).toBe(304);
      expect(again.body).toBeNull();
      expect(header(again, 'etag')).toBe(header(br, 'etag'));
      expect(header(again, 'access-control-allow-origin')).toBe('*');
      expect(header(again, 'content-length')).toBeUndefined();
    }
    expect((await api.answer(get(target, { ifNoneMatch: '"other"' }))).status).toBe(200);
    const head = await api.answer({ method: 'HEAD', target, acceptEncoding: 'br' });
    expect(head.body).toBeNull();
    expect(head.headers).toEqual(br.headers);
  });

  it('rate limit: cacheable answers carry only the policy, the 429 and uncacheable answers the quota', async () => {
    const limiter = new RateLimiter({ limit: 3, now: () => 1_000_000 });
    const files = fixtureStore();
    const api = createApi(files, { log: () => {}, limiter });
    const ok = await api.answer(get('/api/v1/health', { client: '192.0.2.1' }));
    expect(header(ok, 'ratelimit-policy')).toBe('"default";q=3;w=60');
    expect(header(ok, 'ratelimit')).toBeUndefined();
    // A view that cannot be read: 502, no-store, never kept; it carries the client's quota.
    const broken = new MemoryStore({ 'views/meta.json': '{' });
    const failing = createApi(broken, { log: () => {}, limiter });
    const bad = await failing.answer(get('/api/v1/health', { client: '192.0.2.1' }));
    expect(bad.status).toBe(502);
    expect(header(bad, 'cache-control')).toBe('no-store');
    expect(header(bad, 'ratelimit')).toBe('"default";r=1;t=60');
    await api.answer(get('/api/v1', { client: '192.0.2.1' }));
    const refused = await api.answer(get('/api/v1/health', { client: '::ffff:192.0.2.1' }));
    expect(refused.status).toBe(429);
    expect(header(refused, 'retry-after')).toBe('60');
    expect(header(refused, 'access-control-allow-origin')).toBe('*');
    expect(JSON.parse(text(refused))).toMatchObject({ error: 'rate_limited', retryAfter: 60 });
    // Another client, and a request with no client address (an in-process caller), are not refused.
    expect((await api.answer(get('/api/v1/health', { client: '192.0.2.2' }))).status).toBe(200);
    expect((await api.answer(get('/api/v1/health'))).status).toBe(200);
    expect(api.admit('192.0.2.1')?.status).toBe(429);
    expect(api.admit('192.0.2.3')).toBeNull();
  });

  it('the Web-standard form: fetch(request, { clientAddress }) gives the same answer as a Response', async () => {
    const limiter = new RateLimiter({ limit: 1, now: () => 5_000 });
    const api = createApi(fixtureStore(), { log: () => {}, limiter });
    const res = await api.fetch(new Request('http://localhost/api/v1/health'), { clientAddress: '198.51.100.7' });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=1;w=60');
    expect((await res.json()) as object).toMatchObject({ status: 'ok' });
    expect((await api.fetch(new Request('http://localhost/api/v1/health'), { clientAddress: '198.51.100.7' })).status).toBe(429);
    // The preflight is never counted.
    expect((await api.fetch(new Request('http://localhost/api/v1/health', { method: 'OPTIONS' }), { clientAddress: '198.51.100.7' })).status).toBe(204);
  });

  it('calls the request-log hook once per answer, refusals included', async () => {
    const entries: RequestLogEntry[] = [];
    const api = createApi(fixtureStore(), { log: () => {}, limiter: new RateLimiter({ limit: 1 }), requestLog: (e) => entries.push(e) });
    await api.answer(get('/api/v1/health', { client: '192.0.2.9' }));
    await api.answer(get('/api/v1/nope?x=1', { client: '192.0.2.9' }));
    await api.fetch(new Request('http://localhost/api/v1', { method: 'POST' }));
    expect(entries.map((e) => [e.method, e.target, e.status])).toEqual([
      ['GET', '/api/v1/health', 200],
      ['GET', '/api/v1/nope?x=1', 429],
      ['POST', '/api/v1', 405],
    ]);
    expect(requestLogLine({ method: 'GET', target: '/api/v1', status: 200, ms: 0.04 })).toBe('GET /api/v1 200 0.0ms');
  });

  it('keeps answers within its byte budget', async () => {
    const api = createApi(fixtureStore(), { log: () => {}, answerCacheBytes: 16_384 });
    const target = `/api/v1/rankings?country=${meta.examples.country}`;
    await api.answer(get(target));
    expect(api.answer(get(target))).not.toBeInstanceOf(Promise);
    // Other answers push it out: the budget holds only a few.
    for (let limit = 1; limit <= 20; limit++) await api.answer(get(`/api/v1/rankings?limit=${limit}`));
    expect(api.answer(get(target))).toBeInstanceOf(Promise);
  });
});

describe('RateLimiter window', () => {
  it('counts a rolling window exactly, requests of one millisecond sharing one entry', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 1_000_000, windowMs: 1000, now: () => now });
    for (let i = 0; i < 500_000; i++) limiter.check('192.0.2.1');
    now = 600;
    for (let i = 0; i < 500_000; i++) limiter.check('192.0.2.1');
    expect(limiter.check('192.0.2.1').allowed).toBe(false);
    // A request counts while it is less than a window old: at 999 the first half is inside, at 1000 it has left.
    now = 999;
    expect(limiter.check('192.0.2.1').allowed).toBe(false);
    now = 1000;
    const r = limiter.check('192.0.2.1');
    expect(r.allowed).toBe(true);
    expect(r.remaining).toBe(499_999);
    expect(r.reset).toBe(1);
  });

  it('writes the RateLimit fields of each decision, Retry-After only on a refusal', () => {
    let now = 10_000;
    const limiter = new RateLimiter({ limit: 2, now: () => now });
    const first = limiter.check('192.0.2.4');
    now = 40_000;
    const second = limiter.check('192.0.2.4');
    const refused = limiter.check('192.0.2.4');
    // Each decision keeps its own figures, however many checks came after it.
    expect(first.headers).toEqual({ 'RateLimit-Policy': '"default";q=2;w=60', RateLimit: '"default";r=1;t=60' });
    expect(second.headers).toEqual({ 'RateLimit-Policy': '"default";q=2;w=60', RateLimit: '"default";r=0;t=30' });
    expect(refused.headers).toEqual({ 'RateLimit-Policy': '"default";q=2;w=60', RateLimit: '"default";r=0;t=30', 'Retry-After': '30' });
  });
});
