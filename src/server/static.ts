/**
 * The site's static files from `dist/`: content types, `index.html` for folders,
 * validators (ETag, Last-Modified), gzip/br, and `404.html` for anything absent.
 * Nothing outside the folder can be named, and no internal file (`guard.ts`).
 *
 * Kept hand-written (the memory cache is lru-cache): `@hono/node-server`'s `serveStatic`
 * (2.1) sends no ETag or Last-Modified and answers no If-None-Match (every revalidation
 * of a page would cost the whole body), compresses only files precompressed on disk (the
 * build writes none), and has no hook for a 404 page with status 404 or for the folder
 * redirect policy; sirv is not installed.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, posix, resolve, sep } from 'node:path';
import { LRUCache } from 'lru-cache';
import { compressBody, negotiateEncoding } from './compress.ts';
import type { Encoding } from './compress.ts';
import { isInternalPath } from './guard.ts';

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
const MIN_COMPRESS = 1024;

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  encoded: Partial<Record<Encoding, Buffer>>;
}

export interface StaticOptions {
  /** Bytes of files kept in memory (lru-cache; each file counts twice, for its compressed forms). Default 64 MiB. */
  cacheBytes?: number;
}

/**
 * @example
 * const serveStatic = createStatic('dist');
 * http.createServer((req, res) => serveStatic(req, res));
 */
export function createStatic(rootDir: string, options: StaticOptions = {}) {
  const root = resolve(rootDir);
  const files = new LRUCache<string, CachedFile>({ maxSize: options.cacheBytes ?? 64 * 1024 * 1024, sizeCalculation: (f) => Math.max(1, 2 * f.size) });

  /** The file a path names and the path in normal form (decoded, dot segments and repeated slashes removed), or null. */
  function locate(pathname: string): { full: string; normal: string } | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes('\0') || decoded.includes('\\')) return null;
    const normal = posix.normalize(`/${decoded}`).replace(/\/{2,}/g, '/');
    if (isInternalPath(normal.replace(/\/+$/, '') || '/')) return null;
    const full = resolve(root, `.${normal}`);
    return full === root || full.startsWith(root + sep) ? { full, normal } : null;
  }

  async function find(pathname: string): Promise<{ file: string; size: number; mtimeMs: number } | { redirect: string } | null> {
    const located = locate(pathname);
    if (located === null) return null;
    const { full, normal } = located;
    const info = await stat(full).catch(() => null);
    if (info?.isFile()) return { file: full, size: info.size, mtimeMs: info.mtimeMs };
    if (info?.isDirectory()) {
      // One policy for folders: add the slash once, then serve index.html (no loop: the target is a folder).
      // The target is built from the normal form only, so it is always a same-origin path (never `//host`).
      if (!pathname.endsWith('/')) return { redirect: `${encodeURI(normal.replace(/\/+$/, '')).replace(/[?#]/g, encodeURIComponent)}/` };
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
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(req.method === 'OPTIONS' ? 204 : 405, { Allow: 'GET, HEAD, OPTIONS', 'Access-Control-Allow-Origin': '*' });
      res.end();
      return;
    }
    const found = await find(pathname);
    if (found && 'redirect' in found) {
      const query = req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
      res.writeHead(301, { Location: found.redirect + query.replace(/[^\x21-\x7e]/g, encodeURIComponent), 'Cache-Control': 'public, max-age=3600' });
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
