/**
 * A tiny HTTP server over a built site for the tests, as a static host with a function
 * on `/api` only: `/api/...` goes through the real handler (over the Node server's file
 * reader), everything else is a static file, directories answering with their
 * `index.html` (so `/search/` is the static results page, not the handler's).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { FsStore } from '../../src/adapters/node/fs-store.ts';
import { createHandler } from '../../src/api/index.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

async function fileOf(root: string, urlPath: string): Promise<string | null> {
  const rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  const full = join(root, rel);
  if (full !== root && !full.startsWith(root + sep)) return null;
  try {
    const st = await stat(full);
    if (st.isFile()) return full;
    if (st.isDirectory()) {
      const index = join(full, 'index.html');
      if ((await stat(index)).isFile()) return index;
    }
  } catch {
    // absent
  }
  return null;
}

export interface SiteServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

/**
 * @example
 * const server = await serveSite(await buildSite());
 * await fetch(`${server.url}/api/v1/health`);
 */
export async function serveSite(root: string): Promise<SiteServer> {
  // The same file reader as the Node server's.
  const handler = createHandler(new FsStore(root), { log: () => {} });
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
        const r = await handler(new Request(url, { method: req.method }));
        res.writeHead(r.status, Object.fromEntries(r.headers));
        res.end(Buffer.from(await r.arrayBuffer()));
        return;
      }
      const file = await fileOf(root, url.pathname);
      if (!file) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
        return;
      }
      if (!url.pathname.endsWith('/') && file.endsWith(`${sep}index.html`) && !url.pathname.endsWith('.html')) {
        res.writeHead(301, { Location: `${url.pathname}/${url.search}` }).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(await readFile(file));
    } catch (e) {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(e));
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((ok, fail) => server.close((e) => (e ? fail(e) : ok()))),
  };
}
