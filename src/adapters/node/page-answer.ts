import type { IncomingMessage, ServerResponse } from 'node:http';
import { MIN_COMPRESS, negotiateEncoding } from '../../api/index.ts';
import type { PageAnswer } from '../../api/index.ts';
import { compressBody } from './compress.ts';

/** Writes a packed profile page (src/api/profile-pages.ts), compressed as the static files are. */
export function writePage(req: IncomingMessage, res: ServerResponse, page: PageAnswer): void {
  const headers: Record<string, string | number> = { ...page.headers };
  let body = page.body;
  if (page.status === 200) {
    headers.Vary = 'Accept-Encoding';
    const encoding = body && body.byteLength >= MIN_COMPRESS ? negotiateEncoding(req.headers['accept-encoding']) : null;
    if (body && encoding) {
      body = compressBody(body, encoding);
      headers['Content-Encoding'] = encoding;
    }
    if (body) headers['Content-Length'] = body.byteLength;
  }
  res.writeHead(page.status, headers);
  res.end(body);
}
