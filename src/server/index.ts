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
import { Lru } from '../api/lru.ts';
import { messages } from '../api/messages.ts';
import { compressBody, negotiateEncoding } from './compress.ts';
import { clientAddress } from './conninfo.ts';
import { FsStore } from './fs-store.ts';
import { ReleaseFollower } from './release-follower.ts';
import { MCP_PATH, handleMcp } from '../mcp/server.ts';
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
  /** How often the server looks whether a rebuild swapped the build behind distDir (default 1000 ms). */
  releaseCheckMs?: number;
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
        for (const [name, value] of Object.entries(rate.headers)) res.headers.set(name, value);
        return res;
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

  // MCP over Streamable HTTP (src/mcp/server.ts), rate limited like /api.
  const mcp = getRequestListener(async (request, env) => {
    if (limiter.enabled) {
      const rate = limiter.check(clientAddress((env as HttpBindings).incoming, trustProxy));
      if (!rate.allowed) return errorResponse(new ApiError(429, 'rate_limited', messages.rateLimited(limiter.limit, rate.reset), { retryAfter: rate.reset }), rate.headers);
    }
    return handleMcp(request, releases.current().handler, new URL(request.url).origin);
  });

  return createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const start = performance.now();
    if (log) {
      res.once('close', () => log(`${req.method} ${req.url} ${res.statusCode} ${(performance.now() - start).toFixed(1)}ms`));
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      void api(req, res);
      return;
    }
    if (pathname === MCP_PATH) {
      void mcp(req, res);
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
