/**
 * The Node server: the site's static files from `dist/`, and every `/api` request
 * through the Web-standard handler (via @hono/node-server), with the rate limit of
 * data-and-rules §4 and gzip/br by Accept-Encoding.
 */
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { HttpBindings } from '@hono/node-server';
import { createHandler } from '../api/index.ts';
import type { HandlerOptions } from '../api/index.ts';
import { ApiError } from '../api/errors.ts';
import { errorResponse } from '../api/http.ts';
import { LRUCache } from 'lru-cache';
import { messages } from '../api/messages.ts';
import { compressBody, negotiateEncoding } from './compress.ts';
import { clientAddress } from './conninfo.ts';
import { FsStore } from './fs-store.ts';
import { READ_METHODS, checkTarget, clientErrorStatus, isApiPath, refusalBody, refusalHeaders, writeRaw } from './guard.ts';
import { RateLimiter } from './rate-limit.ts';
import { createStatic } from './static.ts';

export interface ServerOptions {
  /** The built site (`dist`). */
  distDir: string;
  /** Requests per rolling minute per client on `/api`; 0 disables (default 60). */
  rateLimitPerMinute?: number;
  /** Reverse proxies in front whose `X-Forwarded-For` is believed (default 0: the socket's address counts). */
  trustProxy?: number;
  /** One line per request; `null` for none (default stdout). */
  log?: ((line: string) => void) | null;
  /** Failures of the handler (default stderr). */
  logError?: (line: string) => void;
  handler?: HandlerOptions;
  /** Clients the rate limiter remembers at most (default 100,000; the least recently seen is evicted). */
  rateLimitClients?: number;
  /** Limits of the HTTP server (see {@link SERVER_LIMITS}). */
  limits?: Partial<typeof SERVER_LIMITS>;
}

/**
 * Limits against slow or greedy clients: the whole header block must arrive within
 * `headersTimeout`, the whole request (with any body) within `requestTimeout`, an idle
 * keep-alive connection is closed after `keepAliveTimeout`, and at most `maxConnections`
 * sockets are open at once (further ones are refused by closing them). Node's defaults
 * are 60 s / 300 s / 5 s / unlimited.
 */
export const SERVER_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxConnections: 1_024,
  maxRequestsPerSocket: 1_000,
};

const MIN_COMPRESS = 1024;

/**
 * Cache sizes of the handler on a Node server: the sample dataset's 28 MB of views
 * fit whole; a reference-scale dataset keeps its most requested views.
 */
export const NODE_HANDLER_OPTIONS = {
  viewCacheBytes: 64 * 1024 * 1024,
  responseCacheBytes: 32 * 1024 * 1024,
} satisfies HandlerOptions;
const ENCODED_SUFFIX = /-(br|gzip)"/;
const ENCODED_SUFFIXES = /-(br|gzip)"/g;

/**
 * @example
 * const server = createServer({ distDir: 'dist' });
 * server.listen(4321, '127.0.0.1');
 */
export function createServer(options: ServerOptions): Server {
  const log = options.log === undefined ? (line: string) => process.stdout.write(`${line}\n`) : options.log;
  const logError = options.logError ?? ((line: string) => process.stderr.write(`${line}\n`));
  const handler = createHandler(new FsStore(options.distDir), { log: logError, ...NODE_HANDLER_OPTIONS, ...options.handler });
  const limiter = new RateLimiter({ limit: options.rateLimitPerMinute ?? 60, maxClients: options.rateLimitClients });
  const trustProxy = options.trustProxy ?? 0;
  const serveStatic = createStatic(options.distDir);
  // Compressed API bodies by ETag and coding, bounded by bytes (lru-cache).
  const encodedBodies = new LRUCache<string, Buffer>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (b) => Math.max(1, b.byteLength) });

  /** Runs the handler, then encodes the body for the client; ETags of encoded bodies carry the coding. */
  async function dispatch(request: Request): Promise<Response> {
    const method = request.method;
    const encoding = negotiateEncoding(request.headers.get('accept-encoding'));
    const ifNoneMatch = request.headers.get('if-none-match');
    let forward = request;
    if (method === 'HEAD' || (ifNoneMatch !== null && ENCODED_SUFFIX.test(ifNoneMatch))) {
      const headers = new Headers(request.headers);
      if (ifNoneMatch !== null) headers.set('if-none-match', ifNoneMatch.replace(ENCODED_SUFFIXES, '"'));
      // HEAD is answered as GET without the body, so it reports the encoded length.
      forward = new Request(request.url, { method: method === 'HEAD' ? 'GET' : method, headers });
    }
    let res = await handler(forward);
    const etag = res.headers.get('etag');
    if (encoding && etag) {
      const suffixed = `${etag.slice(0, -1)}-${encoding}"`;
      if (res.status === 200 && Number(res.headers.get('content-length')) >= MIN_COMPRESS) {
        let body = encodedBodies.get(suffixed);
        if (body) await res.body?.cancel();
        else encodedBodies.set(suffixed, (body = compressBody(new Uint8Array(await res.arrayBuffer()), encoding)));
        const headers = new Headers(res.headers);
        headers.set('Content-Encoding', encoding);
        headers.set('Content-Length', String(body.byteLength));
        headers.set('ETag', suffixed);
        res = new Response(new Uint8Array(body.buffer, body.byteOffset, body.byteLength) as Uint8Array<ArrayBuffer>, { status: 200, headers });
      } else if (res.status === 304 && ifNoneMatch?.includes(suffixed)) {
        res.headers.set('ETag', suffixed);
      }
    }
    if (method === 'HEAD') res = new Response(null, { status: res.status, headers: res.headers });
    return res;
  }

  const api = getRequestListener(
    async (request, env) => {
      if (limiter.enabled && request.method !== 'OPTIONS') {
        const rate = limiter.check(clientAddress((env as HttpBindings).incoming, trustProxy));
        if (!rate.allowed) {
          // The RateLimit fields go on the 429 only (no-store): a success stays shareable by any cache.
          const error = new ApiError(429, 'rate_limited', messages.rateLimited(limiter.limit, rate.reset), { retryAfter: rate.reset });
          return errorResponse(error, rate.headers);
        }
      }
      return dispatch(request);
    },
    {
      errorHandler: (error) => {
        logError(`[server] ${error instanceof Error ? error.message : String(error)}`);
        return errorResponse(new ApiError(500, 'internal', messages.unexpected));
      },
    },
  );

  function refuse(res: ServerResponse, status: number, message: string): void {
    const body = refusalBody(status, message);
    res.writeHead(status, refusalHeaders(status, Buffer.byteLength(body)));
    res.end(body);
  }

  const limits = { ...SERVER_LIMITS, ...options.limits };
  const server = createHttpServer(
    { headersTimeout: limits.headersTimeout, requestTimeout: limits.requestTimeout, keepAliveTimeout: limits.keepAliveTimeout, requireHostHeader: false },
    (req: IncomingMessage, res: ServerResponse) => {
      const start = performance.now();
      if (log) {
        res.once('close', () => log(`${req.method} ${req.url} ${res.statusCode} ${(performance.now() - start).toFixed(1)}ms`));
      }
      const local = req.socket.localAddress ?? '127.0.0.1';
      const fallbackHost = `${local.includes(':') ? `[${local}]` : local}:${req.socket.localPort ?? 80}`;
      const target = checkTarget(req, fallbackHost);
      if ('status' in target) return refuse(res, target.status, target.message);
      if (!READ_METHODS.has(req.method ?? '')) {
        return refuse(res, 405, messages.methodNotAllowed(String(req.method).slice(0, 20)));
      }
      // From here on the handler and the static files see an origin-form target and a valid Host.
      req.url = target.path + target.query;
      req.headers.host = target.host;
      if (isApiPath(target.path)) {
        void api(req, res);
        return;
      }
      serveStatic(req, res, target.path).catch((error: unknown) => {
        logError(`[server] ${req.method} ${target.path}: ${error instanceof Error ? error.message : String(error)}`);
        if (res.headersSent) res.destroy();
        else refuse(res, 400, 'The request could not be answered.');
      });
    },
  );
  server.maxConnections = limits.maxConnections;
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  // Requests the parser rejects (unknown method, bad header, timeout): a JSON answer, then close.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const { status, message } = clientErrorStatus(error.code);
    writeRaw(socket, status, message);
  });
  // CONNECT is not a tunnel here: 405 like every other method but GET, HEAD and OPTIONS.
  server.on('connect', (_req: IncomingMessage, socket) => {
    writeRaw(socket, 405, messages.methodNotAllowed('CONNECT'));
  });
  return server;
}

export interface RunningServer {
  server: Server;
  /** `http://host:port` */
  url: string;
  /** Stops accepting, lets requests in flight finish (closing idle keep-alive sockets), then resolves. */
  close(graceMs?: number): Promise<void>;
}

/**
 * @example
 * const { url, close } = await startServer({ distDir: 'dist', port: 0 });
 */
export async function startServer(options: ServerOptions & { port?: number; host?: string }): Promise<RunningServer> {
  const server = createServer(options);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4321, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: (graceMs = 5000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
