/**
 * One raw HTTP exchange over a TCP socket: the bytes go out exactly as written (so
 * malformed requests reach the server), and the answer is read until the server
 * closes the socket or `timeoutMs` passes.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** Status of the first response line, 0 when the server closed without one. */
  status: number;
  /** Header names lower-cased; repeated ones joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** Everything received. */
  text: string;
}

export function rawExchange(port: number, request: string | Buffer, timeoutMs = 5000, host = '127.0.0.1'): Promise<RawAnswer> {
  return new Promise((ok) => {
    const socket = connect(port, host);
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      ok(parseAnswer(Buffer.concat(chunks).toString('latin1')));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('connect', () => socket.write(request));
    const head = (typeof request === 'string' ? request : request.toString('latin1')).startsWith('HEAD ');
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // A keep-alive answer is whole once Content-Length bytes of body have arrived, at its last
      // chunk, or with its headers when it has no body (HEAD, 204, 304).
      const answer = parseAnswer(Buffer.concat(chunks).toString('latin1'));
      if (answer.status < 200 || !answer.text.includes('\r\n\r\n')) return;
      const length = answer.headers['content-length'];
      const bodyless = head || answer.status === 204 || answer.status === 304;
      const chunked = answer.headers['transfer-encoding']?.includes('chunked') === true;
      if (bodyless || (length !== undefined && /^\d+$/.test(length) && Buffer.byteLength(answer.body, 'latin1') >= Number(length)) || (chunked && answer.body.endsWith('0\r\n\r\n'))) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
  });
}

export function parseAnswer(whole: string): RawAnswer {
  let text = whole;
  // Interim answers (100 Continue) come before the real one.
  while (/^HTTP\/1\.[01] 1\d\d /.test(text) && text.includes('\r\n\r\n')) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? '' : text.slice(split + 4);
  const [line = '', ...rest] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(line)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const h of rest) {
    const colon = h.indexOf(':');
    if (colon <= 0) continue;
    const name = h.slice(0, colon).trim().toLowerCase();
    const value = h.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status, headers, body, text: whole };
}
