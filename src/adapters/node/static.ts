/**
 * The site's static files from `dist/`: content types, `index.html` for folders,
 * validators (ETag, Last-Modified), gzip/br, and `404.html` for anything absent.
 * Nothing outside the folder can be named.
 * Written here, not taken from sirv or Hono's serveStatic: they read every file from disk
 * for each request and send gzip/br only for files compressed ahead of time, which the
 * build does not write; here small files are answered from memory, compressed once per coding.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, normalize, posix, relative, resolve, sep } from 'node:path';
import { LRUCache } from 'lru-cache';
import { ApiError, MIN_COMPRESS, errorAnswer, messages, negotiateEncoding } from '../../api/index.ts';
import type { Answer, Encoding } from '../../api/index.ts';
import { compressBody } from './compress.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.gz': 'application/gzip',
};
const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest\+json|javascript)|image\/svg)/;
/** Files up to this size are kept in memory (with their compressed forms). */
const MEMORY_LIMIT = 512 * 1024;
/**
 * Build files that are not part of the site (views and their packs, build report of older builds, other
 * hosts' configuration, `api`: its static copies would bypass the rate limit). Matched on the
 * first path segment, case-insensitively, before the file system is asked, so a 404 does not
 * tell they exist.
 */
const INTERNAL = new Set(['views', 'packs', 'build-report.json', '_headers', '_redirects', 'serve.json', '.assetsignore', 'api']);
/** The views the pages themselves fetch: the search box's index and the rankings its options show. */
const PUBLIC_VIEWS = new Set(['views/search-index.json', 'views/search-rankings.json']);

/**
 * A same-origin absolute path for a `Location` header: the decoded path normalised
 * (dot segments resolved, repeated slashes collapsed) and each segment encoded again,
 * so it starts with exactly one `/` and no `//host` or `/\\host` can come out of it.
 */
export function safeRedirectPath(decoded: string): string {
  const path = posix.normalize(`/${decoded}`).replace(/^\/+/, '/');
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The query of a request target, in printable ASCII only (fit for a header). */
function safeQuery(url: string | undefined): string {
  const q = url?.indexOf('?') ?? -1;
  return q === -1 ? '' : (url as string).slice(q).replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
}

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  encoded: Partial<Record<Encoding, Buffer>>;
}

export interface StaticOptions {
  /** Files kept in memory (LRU). */
  cacheEntries?: number;
}

/**
 * @example
 * const serveStatic = createStatic('dist');
 * http.createServer((req, res) => serveStatic(req, res));
 */
export function createStatic(rootDir: string, options: StaticOptions = {}) {
  const root = resolve(rootDir);
  const files = new LRUCache<string, CachedFile>({ max: Math.max(1, options.cacheEntries ?? 512) });

  function decode(pathname: string): string | null {
    try {
      const decoded = decodeURIComponent(pathname);
      return decoded.includes('\0') ? null : decoded;
    } catch {
      return null;
    }
  }

  function locate(decoded: string): string | null {
    const full = resolve(root, `.${normalize(`/${decoded}`)}`);
    if (full !== root && !full.startsWith(root + sep)) return null;
    const inside = relative(root, full).split(sep).join('/');
    if (INTERNAL.has(inside.split('/', 1)[0]!.toLowerCase()) && !PUBLIC_VIEWS.has(inside)) return null;
    return full;
  }

  async function find(pathname: string): Promise<{ file: string; size: number; mtimeMs: number } | { redirect: string } | null> {
    const decoded = decode(pathname);
    const full = decoded === null ? null : locate(decoded);
    if (decoded === null || full === null) return null;
    const info = await stat(full).catch(() => null);
    if (info?.isFile()) return { file: full, size: info.size, mtimeMs: info.mtimeMs };
    if (info?.isDirectory()) {
      // One policy for folders: add the slash once, then serve index.html (no loop: the target is a folder).
      // The target is built from the normalised path, never from the raw one (`//evil.com/..` stays here).
      if (!pathname.endsWith('/')) return { redirect: `${safeRedirectPath(decoded)}/`.replace(/^\/\/+/, '/') };
      const index = `${full}${sep}index.html`;
      const i = await stat(index).catch(() => null);
      return i?.isFile() ? { file: index, size: i.size, mtimeMs: i.mtimeMs } : null;
    }
    if (!extname(full) && !pathname.endsWith('/')) {
      const html = `${full}.html`;
      const h = await stat(html).catch(() => null);
      if (h?.isFile()) return { file: html, size: h.size, mtimeMs: h.mtimeMs };
    }
    return null;
  }

  async function load(file: string, size: number, mtimeMs: number): Promise<CachedFile | null> {
    if (size > MEMORY_LIMIT) return null;
    const hit = files.get(file);
    if (hit && hit.mtimeMs === mtimeMs && hit.size === size) return hit;
    const entry: CachedFile = { mtimeMs, size, body: await readFile(file), encoded: {} };
    files.set(file, entry);
    return entry;
  }

  async function send(
    req: IncomingMessage,
    res: ServerResponse,
    found: { file: string; size: number; mtimeMs: number },
    status: number,
    pathname: string,
  ): Promise<void> {
    const type = TYPES[extname(found.file).toLowerCase()] ?? 'application/octet-stream';
    const etag = `W/"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
    res.statusCode = status;
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (status === 200) {
      res.setHeader('ETag', etag);
      res.setHeader('Last-Modified', new Date(found.mtimeMs).toUTCString());
      const inm = req.headers['if-none-match'];
      if (inm && (inm === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag.slice(2)))) {
        res.statusCode = 304;
        res.removeHeader('Content-Type');
        res.end();
        return;
      }
    }
    const compressible = COMPRESSIBLE.test(type) && found.size >= MIN_COMPRESS;
    if (compressible) res.setHeader('Vary', 'Accept-Encoding');
    const cached = await load(found.file, found.size, found.mtimeMs);
    if (!cached) {
      res.setHeader('Content-Length', found.size);
      if (req.method === 'HEAD') return void res.end();
      createReadStream(found.file).on('error', () => res.destroy()).pipe(res);
      return;
    }
    let body = cached.body;
    const encoding = compressible ? negotiateEncoding(req.headers['accept-encoding']) : null;
    if (encoding) {
      body = cached.encoded[encoding] ??= compressBody(cached.body, encoding);
      res.setHeader('Content-Encoding', encoding);
    }
    res.setHeader('Content-Length', body.byteLength);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { Allow: 'GET, HEAD, OPTIONS', 'Access-Control-Allow-Origin': '*' });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      writeError(res, new ApiError(405, 'method_not_allowed', messages.methodNotAllowed(String(req.method))));
      return;
    }
    const found = await find(pathname);
    if (found && 'redirect' in found) {
      res.writeHead(301, { Location: found.redirect + safeQuery(req.url), 'Cache-Control': 'public, max-age=3600' });
      res.end();
      return;
    }
    if (found) return send(req, res, found, 200, pathname);
    const page = await find('/404.html');
    if (page && !('redirect' in page)) return send(req, res, page, 404, '/404.html');
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=60' });
    res.end(req.method === 'HEAD' ? undefined : 'Not found\n');
  };
}

/** Writes an answer of the api (status, flat header list, body) to a Node response. */
export function writeAnswer(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}

/**
 * Writes an API error (JSON body, CORS, `Allow` on 405) to a Node response, so the
 * server's own refusals look like the handler's.
 */
export function writeError(res: ServerResponse, error: ApiError, extraHeaders: Record<string, string> = {}): void {
  writeAnswer(res, errorAnswer(error, extraHeaders));
}
