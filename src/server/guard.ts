/**
 * What the Node server checks before a request reaches the API or the static files:
 * the request target and `Host` (RFC 9112 §3.2), the method, and the internal files
 * of `dist/` that are never served. Every refusal is a short JSON body with the
 * right status, never a 500 and never a stack.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ALLOW } from '../api/http.ts';

/** A request target and authority the rest of the server can trust. */
export interface Target {
  /** Origin-form path, starting with exactly one `/` when it names the API (may still hold `//` for static lookups). */
  path: string;
  /** `?...` or empty. */
  query: string;
  /** A syntactically valid authority: `name[:port]` or `[v6][:port]`. */
  host: string;
}

export interface Refusal {
  status: 400 | 405;
  message: string;
}

/** A registered name (letters, digits, `-`, `.`), an IPv4 literal, or a bracketed IPv6 literal, with an optional port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
const ABSOLUTE = /^https?:\/\/([^/?#]*)([^#]*)/i;

export const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The target of `req`, or why it is refused. An absolute-form target (`GET http://host/path`)
 * is routed like its path, its authority taking the place of `Host`; HTTP/1.0 without
 * `Host` is answered as if it had named `fallbackHost`.
 *
 * @example
 * const t = checkTarget(req, '127.0.0.1:4321');
 * if ('status' in t) // answer 400
 */
export function checkTarget(req: IncomingMessage, fallbackHost: string): Target | Refusal {
  let url = req.url ?? '';
  let host: string | undefined = req.headers.host;
  const absolute = ABSOLUTE.exec(url);
  if (absolute) {
    host = absolute[1];
    url = absolute[2] || '/';
  }
  if (!url.startsWith('/')) return { status: 400, message: 'The request target must be a path starting with "/".' };
  if (host === undefined) {
    if (req.httpVersion === '1.0') host = fallbackHost;
    else return { status: 400, message: 'The Host header is missing.' };
  }
  if (!HOST.test(host) || Number(/:(\d+)$/.exec(host)?.[1] ?? 0) > 65535) return { status: 400, message: 'The Host header is not a valid host name.' };
  const hash = url.indexOf('#');
  if (hash !== -1) url = url.slice(0, hash);
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  if (path.includes('\\')) return { status: 400, message: 'A backslash is not allowed in the path.' };
  return { path, query, host };
}

/** True for paths under the API (`/api`, `/api/...`). */
export const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * Files of `dist/` that are build internals, never served: the views (but the search
 * index, which the pages' search box fetches and `llms.txt` lists), the build report,
 * and the static-host config files.
 */
export function isInternalPath(decodedPath: string): boolean {
  const p = decodedPath.toLowerCase();
  if (p === '/views/search-index.json') return false;
  return p === '/views' || p.startsWith('/views/') || p === '/build-report.json' || p === '/_headers' || p === '/_redirects';
}

/** The JSON error body and headers the guard answers with (the same shape as the API's errors). */
export function refusalHeaders(status: number, length: number): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(length),
    'Cache-Control': status === 405 ? 'public, max-age=60' : 'no-store',
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
  };
  if (status === 405) headers.Allow = ALLOW;
  return headers;
}

export function refusalBody(status: number, message: string): string {
  const code = status === 405 ? 'method_not_allowed' : status === 404 ? 'not_found' : 'bad_request';
  return JSON.stringify({ error: code, message });
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' };

/**
 * Writes a whole JSON error response on a socket the HTTP parser gave up on (or a
 * `CONNECT` tunnel request), then closes it.
 */
export function writeRaw(socket: Duplex, status: number, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = refusalBody(status === 405 ? 405 : 400, message);
  const headers: Record<string, string> = { ...refusalHeaders(status, Buffer.byteLength(body)), Connection: 'close' };
  if (status !== 405) headers['Cache-Control'] = 'no-store';
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\n${head}\r\n${body}`);
}

/** The status and message for a parser error code of Node's HTTP parser (`clientError`). */
export function clientErrorStatus(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_INVALID_METHOD':
      return { status: 405, message: 'This method is not allowed. This API is read-only: use GET, HEAD or OPTIONS.' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request headers are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request took too long to arrive.' };
    default:
      return { status: 400, message: 'The request is malformed.' };
  }
}
