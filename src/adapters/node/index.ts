/**
 * The Node server: the site's static files from `dist/`, and every `/api` request
 * through the Web-standard handler (via @hono/node-server), with the rate limit of
 * data-and-rules §4 and gzip/br by Accept-Encoding.
 */
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { HttpBindings } from '@hono/node-server';
import { createHandler } from '../../api/index.ts';
import type { HandlerOptions } from '../../api/index.ts';
import { ApiError } from '../../api/errors.ts';
import { errorResponse } from '../../api/http.ts';
import { Lru } from '../../api/lru.ts';
import { messages } from '../../api/messages.ts';
import { compressBody, negotiateEncoding } from './compress.ts';
import { clientAddress } from './conninfo.ts';
import { FsStore } from './fs-store.ts';
import { ReleaseFollower } from './release-follower.ts';
import { MCP_PATH, handleMcp } from '../../mcp/server.ts';
import { isSearchPage } from '../../core/urls.ts';
import { RateLimiter } from './rate-limit.ts';
import { createStatic, writeError } from './static.ts';

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
  /** How often the server looks whether a rebuild swapped the build behind distDir (default 1000 ms). */
  releaseCheckMs?: number;
  /** Time a client has to send the request line and headers (default 10 s); then 408 and the socket closes. */
  headersTimeoutMs?: number;
  /** Time a client has to send its whole request (default 30 s). */
  requestTimeoutMs?: number;
  /** Sockets open at once (default 1024); further connections are closed on arrival. */
  maxConnections?: number;
}

/**
 * Limits against slow or greedy clients (slowloris and the like): `headersTimeout`
 * bounds the time to send the headers, `requestTimeout` the whole request (the
 * response is not limited), `maxConnections` the sockets held open at once. Behind
 * a reverse proxy these only meet the proxy; see the README (Node server).
 */
export const SERVER_LIMITS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 1024 } as const;

/** What the server itself refuses, before a request reaches the handler or the files. */
const refusals = {
  badHost: 'The Host header is missing, repeated or not a valid host[:port].',
  badTarget: 'The request target is not a path (or an absolute http URL).',
  badPath: 'The request path contains a backslash or invalid percent-encoding.',
  badRequest: 'The request could not be parsed as HTTP/1.1.',
  timeout: 'The request was not received in time.',
  headersTooLarge: 'The request headers are too large.',
};
/** host, IPv4 or [IPv6], with an optional port (RFC 9110 §7.2; no user info, no spaces). */
const VALID_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;

function validHost(host: string): boolean {
  const m = VALID_HOST.exec(host);
  if (!m || (m[1] !== undefined && Number(m[1]) > 65535)) return false;
  try {
    return new URL(`http://${host}/`).host !== '';
  } catch {
    return false;
  }
}

/** `/api` and below, as the handler will see the path (dot segments resolved). */
function isApiPath(path: string): boolean {
  let normal = path;
  try {
    normal = new URL(`http://h${path}`).pathname;
  } catch {
    // keep the raw path
  }
  return normal === '/api' || normal.startsWith('/api/');
}

/**
 * Checks the request target and Host header, and brings an absolute-form target
 * (`GET http://host/path`) to origin form with its authority as Host (RFC 9112 §3.2.2).
 * Returns the path to route by, or the message of a 400.
 */
function admit(req: IncomingMessage): { path: string } | { refuse: string } {
  let url = req.url ?? '';
  if (/^https?:\/\//i.test(url)) {
    let absolute: URL;
    try {
      absolute = new URL(url);
    } catch {
      return { refuse: refusals.badTarget };
    }
    if (!validHost(absolute.host)) return { refuse: refusals.badHost };
    req.url = url = `${absolute.pathname}${absolute.search}`;
    req.headers.host = absolute.host;
  } else {
    if (url === '*' && req.method === 'OPTIONS') return { path: '*' };
    if (!url.startsWith('/')) return { refuse: refusals.badTarget };
    let hosts = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]?.toLowerCase() === 'host') hosts++;
    const host = req.headers.host;
    if (hosts > 1 || (host === undefined ? req.httpVersionMinor >= 1 || req.httpVersionMajor > 1 : !validHost(host))) return { refuse: refusals.badHost };
  }
  const q = url.indexOf('?');
  return { path: q === -1 ? url : url.slice(0, q) };
}

/** A JSON error written straight to a socket (no request object exists), then the socket is closed. */
function refuseRaw(socket: Duplex, status: number, reason: string, error: ApiError): void {
  const headers = errorResponse(error, status === 405 ? {} : { 'Cache-Control': 'no-store' }).headers;
  let head = `HTTP/1.1 ${status} ${reason}\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  socket.end(`${head}Connection: close\r\n\r\n${JSON.stringify(error.body)}`);
}

function methodNotAllowed(method: string | undefined): ApiError {
  return new ApiError(405, 'method_not_allowed', messages.methodNotAllowed(method && TOKEN.test(method) ? method : 'this'));
}

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
  // A rebuild swaps the release behind distDir; each request uses the build current at its start.
  const releases = new ReleaseFollower(
    options.distDir,
    (root) => ({
      handler: createHandler(new FsStore(root), { log: logError, ...NODE_HANDLER_OPTIONS, ...options.handler }),
      serveStatic: createStatic(root),
      encodedBodies: new Lru<Buffer>(1024),
    }),
    options.releaseCheckMs,
  );
  const limiter = new RateLimiter({ limit: options.rateLimitPerMinute ?? 60 });
  const trustProxy = options.trustProxy ?? 0;

  /** Runs the handler, then encodes the body for the client; ETags of encoded bodies carry the coding. */
  async function dispatch(request: Request): Promise<Response> {
    const { handler, encodedBodies } = releases.current();
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
          const error = new ApiError(429, 'rate_limited', messages.rateLimited(limiter.limit, rate.reset), { retryAfter: rate.reset });
          return errorResponse(error, rate.headers);
        }
        const res = await dispatch(request);
        // A shared cache (a CDN, nginx proxy_cache) would replay one client's remaining quota to
        // everyone: answers it may store carry only the policy, the same for all; the quota left
        // (RateLimit) goes only on answers no cache keeps (429, no-store).
        const shared = /\bpublic\b/.test(res.headers.get('cache-control') ?? '');
        for (const [name, value] of Object.entries(rate.headers)) if (!shared || name.toLowerCase() === 'ratelimit-policy') res.headers.set(name, value);
        return res;
      }
      return dispatch(request);
    },
    {
      // Requests the handler refuses to build a URL from (a bad Host, a backslash): the client's fault.
      hostname: 'localhost',
      errorHandler: (error) => {
        if (error instanceof RequestError) return errorResponse(new ApiError(400, 'bad_request', refusals.badPath));
        logError(`[server] ${error instanceof Error ? error.message : String(error)}`);
        return errorResponse(new ApiError(500, 'internal', messages.unexpected));
      },
    },
  );

  // MCP over Streamable HTTP (src/mcp/server.ts), rate limited like /api.
  const mcp = getRequestListener(async (request, env) => {
    if (limiter.enabled) {
      const rate = limiter.check(clientAddress((env as HttpBindings).incoming, trustProxy));
      if (!rate.allowed) return errorResponse(new ApiError(429, 'rate_limited', messages.rateLimited(limiter.limit, rate.reset), { retryAfter: rate.reset }), rate.headers);
    }
    return handleMcp(request, releases.current().handler, new URL(request.url).origin);
  });

  const limits = {
    headersTimeout: options.headersTimeoutMs ?? SERVER_LIMITS.headersTimeoutMs,
    requestTimeout: options.requestTimeoutMs ?? SERVER_LIMITS.requestTimeoutMs,
  };
  // Host is checked below, so a missing one gets a JSON 400 rather than Node's empty one.
  // Node looks for expired requests every connectionsCheckingInterval (default 30 s): a
  // quarter of the headers timeout keeps the limits close to what they say.
  const connectionsCheckingInterval = Math.min(30_000, Math.max(50, Math.floor(limits.headersTimeout / 4)));
  const server = createHttpServer({ ...limits, connectionsCheckingInterval, requireHostHeader: false }, (req: IncomingMessage, res: ServerResponse) => {
    const start = performance.now();
    const target = req.url;
    if (log) {
      res.once('close', () => log(`${req.method} ${target} ${res.statusCode} ${(performance.now() - start).toFixed(1)}ms`));
    }
    const admitted = admit(req);
    if ('refuse' in admitted) {
      // Not cached: a shared cache keyed by path alone must not hand this to good clients.
      writeError(res, new ApiError(400, 'bad_request', admitted.refuse), { Connection: 'close', 'Cache-Control': 'no-store' }).catch(() => res.destroy());
      return;
    }
    const pathname = admitted.path;
    if (pathname === '*') {
      res.writeHead(204, { Allow: 'GET, HEAD, OPTIONS' });
      res.end();
      return;
    }
    if (isApiPath(pathname)) {
      if (pathname.includes('\\') || !decodable(pathname)) {
        writeError(res, new ApiError(400, 'bad_request', refusals.badPath), { 'Cache-Control': 'no-store' }).catch(() => res.destroy());
        return;
      }
      // TRACE and TRACK cannot even become a fetch Request: every method the API does not take is a 405 here.
      if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
        writeError(res, methodNotAllowed(req.method), { Allow: 'GET, HEAD, OPTIONS' }).catch(() => res.destroy());
        return;
      }
      void api(req, res);
      return;
    }
    // An /api target whose dot segments lead elsewhere (/api/%2e%2e/x) still gets a JSON answer, never a page.
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      writeError(res, new ApiError(404, 'not_found', messages.notFoundPath(pathname))).catch(() => res.destroy());
      return;
    }
    if (pathname === MCP_PATH) {
      void mcp(req, res);
      return;
    }
    // The search results page is the handler's too (an HTML page, rate limited like /api).
    if (isSearchPage(pathname)) {
      void api(req, res);
      return;
    }
    releases.current().serveStatic(req, res, pathname).catch((error: unknown) => {
      logError(`[server] ${req.method} ${pathname}: ${error instanceof Error ? error.message : String(error)}`);
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal error\n');
      }
    });
  });
  server.headersTimeout = limits.headersTimeout;
  server.requestTimeout = limits.requestTimeout;
  server.maxConnections = options.maxConnections ?? SERVER_LIMITS.maxConnections;

  // CONNECT (no proxying here) and methods Node's parser does not know (`FOO`): 405, then close.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    log?.(`${req.method} ${req.url} 405`);
    refuseRaw(socket, 405, 'Method Not Allowed', methodNotAllowed(req.method));
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    if (error.code === 'HPE_INVALID_METHOD') {
      const method = error.rawPacket?.toString('latin1').split(/[ \r\n]/, 1)[0];
      refuseRaw(socket, 405, 'Method Not Allowed', methodNotAllowed(method));
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      refuseRaw(socket, 408, 'Request Timeout', new ApiError(400, 'bad_request', refusals.timeout));
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      refuseRaw(socket, 431, 'Request Header Fields Too Large', new ApiError(400, 'bad_request', refusals.headersTooLarge));
    } else {
      refuseRaw(socket, 400, 'Bad Request', new ApiError(400, 'bad_request', refusals.badRequest));
    }
  });
  return server;
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
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
