import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { MIN_COMPRESS, negotiateEncoding } from '../../api/index.ts';
import type { PageAnswer } from '../../api/index.ts';
import { compressBody } from './compress.ts';

/**
 * Writes a packed answer (src/api/packed-answers.ts): a profile page compressed as the static
 * files are, a file joined from parts streamed as it is.
 */
export function writePage(req: IncomingMessage, res: ServerResponse, page: PageAnswer): void {
  const headers: Record<string, string | number> = { ...page.headers };
  if (page.body instanceof ReadableStream) {
    res.writeHead(page.status, headers);
    Readable.fromWeb(page.body as import('node:stream/web').ReadableStream<Uint8Array>)
      .on('error', () => res.destroy())
      .pipe(res);
    return;
  }
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
