/**
 * The policy every adapter applies around the handler, in one place: the rate limit
 * of data-and-rules §4 (with cache-safe RateLimit fields), answers kept by request
 * target, validators (304), content codings compressed once per body and coding,
 * and a request-log hook. Adapters give the runtime's facts (the client's address,
 * a compressor) and translate the answer; none re-implements policy.
 *
 * Views never change during an instance's life (a new build gets a new instance), so
 * an answer is a function of its target alone: once made, a GET is answered from
 * the kept bytes without building a Request or a Response (`answer`), which is what
 * lets the Node server write straight to its socket.
 */
import { LRUCache } from 'lru-cache';
import { createApp } from './app.ts';
import type { AppOptions } from './app.ts';
import { MIN_COMPRESS, negotiateEncoding } from './encoding.ts';
import type { Compressor, Encoding } from './encoding.ts';
import { ApiError } from './errors.ts';
import { RETAINED_304_HEADERS, errorParts } from './http.ts';
import { messages } from './messages.ts';
import { RateLimiter } from './rate-limit.ts';
import type { RateLimitResult } from './rate-limit.ts';
import type { ViewStore } from './store.ts';

/** What the runtime knows about the connection (Hono's `env`): the client's address, when it has one. */
export interface ClientEnv {
  /** The address the rate limit counts (socket peer, or the address a trusted proxy names). Absent: not counted. */
  clientAddress?: string;
}

/** A GET or HEAD by its raw parts, as an adapter reads them off the wire. */
export interface ApiRequest {
  method: string;
  /** Origin-form path and query as received, e.g. `/api/v1/company/x?country=us`. */
  target: string;
  client?: string;
  acceptEncoding?: string | string[] | null;
  ifNoneMatch?: string | null;
}

/** An answer ready for the wire: headers as a flat `[name, value, name, value, …]` list (what `node:http`'s `writeHead` takes). */
export interface Answer {
  status: number;
  headers: string[];
  body: Uint8Array | null;
}

/** One line of the request log, handed to the adapter's hook. */
export interface RequestLogEntry {
  method: string;
  target: string;
  status: number;
  /** Time to answer, in ms. */
  ms: number;
}

/** `GET /api/v1/health 200 0.4ms`: the line the Node server writes per request. */
export function requestLogLine(entry: RequestLogEntry): string {
  return `${entry.method} ${entry.target} ${entry.status} ${entry.ms.toFixed(1)}ms`;
}

export interface ApiOptions extends AppOptions {
  /**
   * The rate limiter counting clients (shared by the instances of successive builds,
   * so a release does not reset anyone's quota); absent or `limit: 0`: no limit.
   */
  limiter?: RateLimiter | null;
  /** Compressor for `br`/`gzip` answers; absent: answers are sent as they are (a CDN in front compresses). */
  compress?: Compressor | null;
  /** Answers kept by request target (LRU), in bytes of their bodies and codings. */
  answerCacheBytes?: number;
  /** Called once per request answered. */
  requestLog?: ((entry: RequestLogEntry) => void) | null;
}

const defaults = {
  limiter: null,
  compress: null,
  // Safe within a Worker isolate's 128 MB; the Node server raises it.
  answerCacheBytes: 4 * 1024 * 1024,
  requestLog: null,
} satisfies Required<Omit<ApiOptions, keyof AppOptions>>;

type Variant = Encoding | 'identity';

/** An answer kept for a target, with its codings and 304s made on first use. */
interface Kept {
  status: number;
  /** Headers of the answer but its length, validator and coding. */
  base: string[];
  bytes: Uint8Array;
  /** The identity body's strong ETag (200 only). */
  etag: string | null;
  compressible: boolean;
  /** Kept by target (a shared cache could keep it too); the others are made anew per request. */
  kept: boolean;
  full: Partial<Record<Variant, Answer>>;
  unchanged: Partial<Record<Variant, Answer>>;
  size: number;
}

const RETAINED = new Set(RETAINED_304_HEADERS);
const OWN_HEADERS = new Set(['content-length', 'etag', 'content-encoding']);
const CODED_SUFFIX = /-(?:br|gzip)"$/;

/**
 * The bytes in a buffer of their own size. Node's zlib hands back a view of a 16 KiB
 * chunk, so a kept 400-byte brotli body held 16 KiB that the cache, weighing
 * `byteLength`, never counted (at the reference scale ~5,000 coded answers: ~80 MB).
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? bytes : new Uint8Array(bytes);
}

/** RFC 9110 §13.1.2 weak comparison, with the coding suffix of our own ETags removed. */
export function noneMatch(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const tags = ifNoneMatch.match(/"[^"]*"/g);
  if (!tags) return false;
  for (const tag of tags) if (tag === etag || tag.replace(CODED_SUFFIX, '"') === etag) return true;
  return false;
}

function pairs(headers: Headers): string[] {
  const out: string[] = [];
  for (const [name, value] of headers) if (!OWN_HEADERS.has(name)) out.push(name, value);
  return out;
}

/** An {@link ApiError} as an {@link Answer} (for refusals an adapter makes before the handler). */
export function errorAnswer(error: ApiError, extraHeaders: Record<string, string> = {}): Answer {
  const { status, headers, bytes } = errorParts(error, extraHeaders);
  return { status, headers: pairs(headers).concat('content-length', String(bytes.byteLength)), body: bytes };
}

/**
 * The 429 of a limiter outside the handler (Cloudflare's Rate Limiting binding on the
 * Worker), the same body and headers as the handler's own: `Retry-After`, never stored.
 */
export function rateLimitedResponse(limit: number, retryAfter: number): Response {
  const error = new ApiError(429, 'rate_limited', messages.rateLimited(limit, retryAfter), { retryAfter });
  return toResponse(errorAnswer(error, { 'Retry-After': String(retryAfter) }));
}

/** An {@link Answer} as a Web `Response`. */
export function toResponse(answer: Answer): Response {
  const headers = new Headers();
  for (let i = 0; i < answer.headers.length; i += 2) headers.append(answer.headers[i] as string, answer.headers[i + 1] as string);
  return new Response(answer.body as Uint8Array<ArrayBuffer> | null, { status: answer.status, headers });
}

/** The handler with the policy around it. */
export interface Api {
  /** The Web-standard handler: `fetch(Request, env) => Response`. */
  fetch(request: Request, env?: ClientEnv): Promise<Response>;
  /** A GET or HEAD from its raw parts; synchronous when the answer is kept. */
  answer(request: ApiRequest): Answer | Promise<Answer>;
  /** Counts a request the adapter routes elsewhere (MCP): the 429 when refused, else `null`. */
  admit(client: string | undefined): Answer | null;
}

/**
 * @example
 * const api = createApi(new MemoryStore(files), { limiter: new RateLimiter({ limit: 60 }) });
 * const res = await api.fetch(new Request('http://localhost/api/v1/health'), { clientAddress: '203.0.113.9' });
 */
export function createApi(store: ViewStore, options: ApiOptions = {}): Api {
  const opts = { ...defaults, ...options };
  const app = createApp(store, options);
  const limiter = opts.limiter?.enabled ? opts.limiter : null;
  const policyHeader = limiter ? ['ratelimit-policy', limiter.policy] : [];
  const compress = opts.compress;
  const log = opts.requestLog;
  const keeping = opts.answerCacheBytes > 0;
  const kept = new LRUCache<string, Kept>({ maxSize: Math.max(1, opts.answerCacheBytes), sizeCalculation: (k) => k.size });
  const pending = new Map<string, Promise<Kept>>();
  /** Coded bodies by `etag|coding`: targets with the same body share one compression. */
  const coded = new LRUCache<string, Uint8Array>({ maxSize: Math.max(1, opts.answerCacheBytes), sizeCalculation: (b) => Math.max(1, b.byteLength) });

  function refusal(rate: RateLimitResult): Answer {
    const error = new ApiError(429, 'rate_limited', messages.rateLimited(limiter!.limit, rate.reset), { retryAfter: rate.reset });
    return errorAnswer(error, rate.headers);
  }

  function keep(target: string, status: number, headers: Headers, bytes: Uint8Array): Kept {
    const etag = status === 200 ? headers.get('etag') : null;
    const base = pairs(headers);
    const entry: Kept = {
      status,
      base,
      bytes,
      etag,
      compressible: compress !== null && etag !== null && bytes.byteLength >= MIN_COMPRESS,
      kept: false,
      full: {},
      unchanged: {},
      // The body, and a generous share for the header lists of its answers (the 200s and 304s of each coding) and the objects.
      size: bytes.byteLength + 2 * target.length + 4 * base.reduce((n, h) => n + h.length, 0) + 1024,
    };
    // What a shared cache may keep, we keep; the rest (no-store, 5xx) is made anew each time.
    if (keeping && /\bpublic\b/.test(headers.get('cache-control') ?? '')) {
      entry.base.push(...policyHeader);
      entry.kept = true;
      kept.set(target, entry);
    }
    return entry;
  }

  /** Makes (once, however many ask at the same time) the answer for a target by running the app. */
  function make(target: string): Promise<Kept> {
    let p = pending.get(target);
    if (p) return p;
    p = (async () => {
      let request: Request;
      try {
        request = new Request(`http://localhost${target}`);
      } catch {
        const { status, headers, bytes } = errorParts(new ApiError(400, 'bad_request', messages.badTarget));
        return keep(target, status, headers, bytes);
      }
      const res = await app.fetch(request);
      return keep(target, res.status, res.headers, new Uint8Array(await res.arrayBuffer()));
    })();
    pending.set(target, p);
    void p.finally(() => pending.delete(target)).catch(() => {});
    return p;
  }

  function variant(target: string, entry: Kept, encoding: Encoding | null): Answer {
    const key: Variant = encoding && entry.compressible ? encoding : 'identity';
    let answer = entry.full[key];
    if (answer) return answer;
    let body = entry.bytes;
    const headers = entry.base.slice();
    if (key !== 'identity') {
      const codedKey = `${entry.etag}|${key}`;
      let bytes = coded.get(codedKey);
      if (!bytes) coded.set(codedKey, (bytes = ownBuffer(compress!(entry.bytes, key))));
      body = bytes;
      headers.push('content-encoding', key);
    }
    headers.push('content-length', String(body.byteLength));
    if (entry.etag) headers.push('etag', key === 'identity' ? entry.etag : `${entry.etag.slice(0, -1)}-${key}"`);
    answer = { status: entry.status, headers, body };
    entry.full[key] = answer;
    if (key !== 'identity' && entry.kept && kept.get(target) === entry) {
      // Weigh the new coding in: lru-cache takes a size only with a value it does not hold.
      kept.delete(target);
      entry.size += body.byteLength;
      kept.set(target, entry);
    }
    return answer;
  }

  function notModified(entry: Kept, full: Answer, key: Variant): Answer {
    let answer = entry.unchanged[key];
    if (!answer) {
      const headers: string[] = [];
      for (let i = 0; i < full.headers.length; i += 2) if (RETAINED.has(full.headers[i] as string)) headers.push(full.headers[i] as string, full.headers[i + 1] as string);
      entry.unchanged[key] = answer = { status: 304, headers, body: null };
    }
    return answer;
  }

  function finish(request: ApiRequest, target: string, entry: Kept, rate: RateLimitResult | null): Answer {
    const encoding = entry.compressible ? negotiateEncoding(request.acceptEncoding) : null;
    const full = variant(target, entry, encoding);
    let answer = full;
    if (entry.etag && request.ifNoneMatch && noneMatch(request.ifNoneMatch, entry.etag)) {
      answer = notModified(entry, full, encoding && entry.compressible ? encoding : 'identity');
    }
    if (rate && !entry.kept) {
      // Not kept (no-store, 5xx): the client's remaining quota may go on it.
      answer = { ...answer, headers: [...answer.headers, 'ratelimit-policy', limiter!.policy, 'ratelimit', rate.headers.RateLimit as string] };
    }
    return request.method === 'HEAD' && answer.body !== null ? { ...answer, body: null } : answer;
  }

  function logged(request: ApiRequest, start: number, answer: Answer): Answer {
    log?.({ method: request.method, target: request.target, status: answer.status, ms: performance.now() - start });
    return answer;
  }

  function answer(request: ApiRequest): Answer | Promise<Answer> {
    const start = log ? performance.now() : 0;
    let rate: RateLimitResult | null = null;
    if (limiter && request.client !== undefined) {
      rate = limiter.check(request.client);
      if (!rate.allowed) return logged(request, start, refusal(rate));
    }
    const target = request.target;
    const entry = kept.get(target);
    if (entry) return logged(request, start, finish(request, target, entry, rate));
    return make(target).then(
      (made) => logged(request, start, finish(request, target, made, rate)),
      (error: unknown) => {
        opts.log?.(`[api] ${request.method} ${target}: unexpected ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return logged(request, start, errorAnswer(new ApiError(500, 'internal', messages.unexpected)));
      },
    );
  }

  return {
    answer,
    admit(client) {
      if (!limiter || client === undefined) return null;
      const rate = limiter.check(client);
      return rate.allowed ? null : refusal(rate);
    },
    async fetch(request, env = {}) {
      const method = request.method;
      if (method === 'GET' || method === 'HEAD') {
        const url = new URL(request.url);
        const a = await answer({
          method,
          target: `${url.pathname}${url.search}`,
          client: env.clientAddress,
          acceptEncoding: request.headers.get('accept-encoding'),
          ifNoneMatch: request.headers.get('if-none-match'),
        });
        return toResponse(a);
      }
      // Preflights and refused methods: the app answers (CORS, 405); only non-OPTIONS requests count.
      const start = log ? performance.now() : 0;
      const refused = method === 'OPTIONS' ? null : this.admit(env.clientAddress);
      const res = refused ? toResponse(refused) : await app.fetch(request);
      log?.({ method, target: new URL(request.url).pathname, status: res.status, ms: performance.now() - start });
      return res;
    },
  };
}
