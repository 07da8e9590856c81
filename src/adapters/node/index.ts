/**
 * The Node server: the site's static files from `dist/`, and every `/api` request through the
 * api (src/api/index.ts), which applies the policy. A GET or HEAD goes to the api by its raw
 * parts and the answer is written straight to the socket; OPTIONS and `/mcp` go through
 * @hono/node-server's Request/Response bridge.
 */
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type { HttpBindings } from '@hono/node-server';
import { ApiError, CACHE_NONE, PackedStore, RATE_LIMIT_PER_MINUTE, RateLimiter, createApi, errorAnswer, isSearchPage, messages, packedAnswer, requestLogLine, toResponse } from '../../api/index.ts';
import type { Answer, ApiOptions } from '../../api/index.ts';
import { MCP_PATH, handleMcp } from '../../mcp/server.ts';
import { compressBody } from './compress.ts';
import { clientAddress } from './conninfo.ts';
import { FsStore } from './fs-store.ts';
import { bufferedLines } from './log.ts';
import { writePage } from './page-answer.ts';
import { ReleaseFollower } from './release-follower.ts';
import { createStatic, writeAnswer, writeError } from './static.ts';

export interface ServerOptions {
  /** The built site (`dist`). */
  distDir: string;
  /** Requests per rolling minute per client on `/api`; 0 disables (default 60). */
  rateLimitPerMinute?: number;
  /** Reverse proxies in front whose `X-Forwarded-For` is believed (default 0: the socket's address counts). */
  trustProxy?: number;
  /** One line per request; `null` for none (default: stdout, written in batches). */
  log?: ((line: string) => void) | null;
  /** Failures of the handler (default stderr). */
  logError?: (line: string) => void;
  handler?: ApiOptions;
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
 * Limits against slow or greedy clients (slowloris and the like): time to send the headers,
 * time for the whole request, sockets open at once. Behind a reverse proxy they only meet the proxy.
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
  expectation: 'The Expect header is not one this server meets (only 100-continue is).',
};
/** host, IPv4 or [IPv6], with an optional port (RFC 9110 §7.2; no user info, no spaces). */
const VALID_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;

/** Hosts already judged: a server sees the same few Host values over and over. */
const hostVerdicts = new Map<string, boolean>();

function validHost(host: string): boolean {
  const known = hostVerdicts.get(host);
  if (known !== undefined) return known;
  const m = VALID_HOST.exec(host);
  let ok = false;
  if (m && !(m[1] !== undefined && Number(m[1]) > 65535)) {
    try {
      ok = new URL(`http://${host}/`).host !== '';
    } catch {
      ok = false;
    }
  }
  if (hostVerdicts.size >= 1024) hostVerdicts.clear();
  hostVerdicts.set(host, ok);
  return ok;
}

/** `/api` and below, as the handler will see the path (dot segments resolved). */
function isApiPath(path: string): boolean {
  // Without dot segments or escapes the path is already what the URL parser would make of it.
  if (!path.includes('.') && !path.includes('%')) return path === '/api' || path.startsWith('/api/');
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
function refuseRaw(socket: Duplex, status: number, reason: string, error: ApiError, method: string | null | undefined): void {
  const { headers, body } = errorAnswer(error, status === 405 ? {} : { 'Cache-Control': CACHE_NONE });
  // No body for HEAD, nor when the packet that failed does not begin with the request line
  // (null: the method is unknown, and a client that sent HEAD would read a body as the next answer).
  const bodyless = method === null || method === 'HEAD';
  let head = `HTTP/1.1 ${status} ${reason}\r\n`;
  for (let i = 0; i < headers.length; i += 2) if (!bodyless || !/^content-(length|type)$/i.test(headers[i]!)) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  if (bodyless) head += 'Content-Length: 0\r\n';
  socket.end(Buffer.concat([Buffer.from(`${head}Connection: close\r\n\r\n`), bodyless ? Buffer.alloc(0) : (body ?? Buffer.alloc(0))]));
}

/** The method of the request line a failed packet begins with; null when it begins later in the request, undefined without a packet. */
const methodOf = (packet: Buffer | undefined): string | null | undefined => (packet ? (/^([A-Z]{1,32}) /.exec(packet.toString('latin1', 0, 40))?.[1] ?? null) : undefined);

function methodNotAllowed(method: string | undefined): ApiError {
  return new ApiError(405, 'method_not_allowed', messages.methodNotAllowed(method && TOKEN.test(method) ? method : 'this'));
}

/** Cache sizes of the api on a Node server: a small dataset's views fit whole, a large one keeps its most requested. */
export const NODE_HANDLER_OPTIONS = {
  viewCacheBytes: 64 * 1024 * 1024,
  responseCacheBytes: 16 * 1024 * 1024,
  answerCacheBytes: 64 * 1024 * 1024,
} satisfies ApiOptions;

/**
 * @example
 * const server = createServer({ distDir: 'dist' });
 * server.listen(4321, '127.0.0.1');
 */
export function createServer(options: ServerOptions): Server {
  const defaultLog = options.log === undefined ? bufferedLines(process.stdout) : null;
  const log = defaultLog ? defaultLog.write : options.log;
  const logError = options.logError ?? ((line: string) => process.stderr.write(`${line}\n`));
  const limiter = new RateLimiter({ limit: options.rateLimitPerMinute ?? RATE_LIMIT_PER_MINUTE });
  const trustProxy = options.trustProxy ?? 0;
  const requestLog = log ? (entry: Parameters<typeof requestLogLine>[0]) => log(requestLogLine(entry)) : null;
  // A rebuild swaps the release behind distDir; each request uses the build current at its start.
  const releases = new ReleaseFollower(
    options.distDir,
    (root) => {
      const store = new PackedStore(new FsStore(root));
      return {
        api: createApi(store, { log: logError, ...NODE_HANDLER_OPTIONS, ...options.handler, limiter, compress: compressBody, requestLog }),
        store,
        serveStatic: createStatic(root),
      };
    },
    options.releaseCheckMs,
  );
  const client = (req: IncomingMessage) => (limiter.enabled ? clientAddress(req, trustProxy) : undefined);

  /** Writes a GET/HEAD answer of the api, made now or kept. */
  function answerApi(req: IncomingMessage, res: ServerResponse, method: string): void {
    const answer = releases.current().api.answer({
      method,
      target: req.url as string,
      client: client(req),
      acceptEncoding: req.headers['accept-encoding'],
      ifNoneMatch: req.headers['if-none-match'],
    });
    if (answer instanceof Promise) answer.then((a) => writeAnswer(res, a), () => res.destroy());
    else writeAnswer(res, answer);
  }

  // OPTIONS (the CORS preflight) and MCP over Streamable HTTP (src/mcp/server.ts, rate limited like /api):
  // rare, or streamed, so they take the Request/Response bridge.
  const bridge = getRequestListener(
    async (request, env) => {
      const { api } = releases.current();
      const incoming = (env as HttpBindings).incoming;
      if (new URL(request.url).pathname !== MCP_PATH) return api.fetch(request, { clientAddress: client(incoming) });
      const refused: Answer | null = api.admit(client(incoming));
      if (refused) return toResponse(refused);
      return handleMcp(request, (r) => api.fetch(r), new URL(request.url).origin);
    },
    {
      hostname: 'localhost',
      errorHandler: (error) => {
        logError(`[server] ${error instanceof Error ? error.message : String(error)}`);
        return toResponse(errorAnswer(new ApiError(500, 'internal', messages.unexpected)));
      },
    },
  );

  /** One log line when the response is done (the api logs its own answers). */
  const logOnClose = (req: IncomingMessage, res: ServerResponse) => {
    if (!log) return;
    const start = performance.now();
    const target = req.url;
    res.once('close', () => log(requestLogLine({ method: req.method ?? '', target: target ?? '', status: res.statusCode, ms: performance.now() - start })));
  };

  const limits = {
    headersTimeout: options.headersTimeoutMs ?? SERVER_LIMITS.headersTimeoutMs,
    requestTimeout: options.requestTimeoutMs ?? SERVER_LIMITS.requestTimeoutMs,
  };
  // Host is checked below, so a missing one gets a JSON 400 rather than Node's empty one.
  // Node checks for expired requests every connectionsCheckingInterval: a quarter of the
  // headers timeout keeps the limits close to what they say.
  const connectionsCheckingInterval = Math.min(30_000, Math.max(50, Math.floor(limits.headersTimeout / 4)));
  const server = createHttpServer({ ...limits, connectionsCheckingInterval, requireHostHeader: false }, (req: IncomingMessage, res: ServerResponse) => {
    const admitted = admit(req);
    if ('refuse' in admitted) {
      logOnClose(req, res);
      // Not cached: a shared cache keyed by path alone must not hand this to good clients.
      writeError(res, new ApiError(400, 'bad_request', admitted.refuse), { Connection: 'close', 'Cache-Control': CACHE_NONE });
      return;
    }
    const pathname = admitted.path;
    const method = req.method as string;
    if (isApiPath(pathname)) {
      if (pathname.includes('\\') || (pathname.includes('%') && !decodable(pathname))) {
        logOnClose(req, res);
        writeError(res, new ApiError(400, 'bad_request', refusals.badPath), { 'Cache-Control': CACHE_NONE });
        return;
      }
      if (method === 'GET' || method === 'HEAD') return answerApi(req, res, method);
      if (method === 'OPTIONS') return void bridge(req, res);
      // TRACE and TRACK cannot even become a fetch Request: every method the API does not take is a 405 here.
      logOnClose(req, res);
      writeError(res, methodNotAllowed(method), { Allow: 'GET, HEAD, OPTIONS' });
      return;
    }
    // The search results page is the handler's too (an HTML page, rate limited like /api).
    if (isSearchPage(pathname) && (method === 'GET' || method === 'HEAD')) return answerApi(req, res, method);
    logOnClose(req, res);
    if (pathname === '*') {
      res.writeHead(204, { Allow: 'GET, HEAD, OPTIONS' });
      res.end();
      return;
    }
    // An /api target whose dot segments lead elsewhere (/api/%2e%2e/x) still gets a JSON answer, never a page.
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      writeError(res, new ApiError(404, 'not_found', messages.notFoundPath(pathname)));
      return;
    }
    if (pathname === MCP_PATH || isSearchPage(pathname)) return void bridge(req, res);
    const { store, serveStatic } = releases.current();
    // Profile pages and split files of a packed layout first, then the site's files.
    const served = packedAnswer(store, method, pathname, req.headers['if-none-match'] ?? null).then((page) => (page ? writePage(req, res, page) : serveStatic(req, res, pathname)));
    served.catch((error: unknown) => {
      logError(`[server] ${req.method} ${pathname}: ${error instanceof Error ? error.message : String(error)}`);
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal error\n');
      }
    });
  });
  if (defaultLog) server.on('close', defaultLog.flush);
  server.headersTimeout = limits.headersTimeout;
  server.requestTimeout = limits.requestTimeout;
  server.maxConnections = options.maxConnections ?? SERVER_LIMITS.maxConnections;

  // CONNECT (no proxying here) and methods Node's parser does not know (`FOO`): 405, then close.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    log?.(`${req.method} ${req.url} 405`);
    refuseRaw(socket, 405, 'Method Not Allowed', methodNotAllowed(req.method), req.method);
  });
  // An Expect other than 100-continue: Node's own 417 is empty; this one is JSON with CORS like every refusal.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    logOnClose(req, res);
    const answer = errorAnswer(new ApiError(400, 'bad_request', refusals.expectation), { 'Cache-Control': CACHE_NONE });
    writeAnswer(res, { ...answer, status: 417 });
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const seen = methodOf(error.rawPacket);
    if (error.code === 'HPE_INVALID_METHOD') {
      const method = error.rawPacket?.toString('latin1').split(/[ \r\n]/, 1)[0];
      refuseRaw(socket, 405, 'Method Not Allowed', methodNotAllowed(method), method);
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      refuseRaw(socket, 408, 'Request Timeout', new ApiError(400, 'bad_request', refusals.timeout), seen);
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      refuseRaw(socket, 431, 'Request Header Fields Too Large', new ApiError(400, 'bad_request', refusals.headersTooLarge), seen);
    } else {
      refuseRaw(socket, 400, 'Bad Request', new ApiError(400, 'bad_request', refusals.badRequest), seen);
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
