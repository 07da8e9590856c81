/**
 * The Node server's own refusals (src/adapters/node/index.ts): a HEAD request that fails
 * to parse gets its 400 or 431 without a body (a client would read one as the next answer),
 * also when the headers came in several packets; an Expect header other than 100-continue
 * gets a JSON 417 with CORS, not Node's empty one.
 */
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';
import { startServer, type RunningServer } from '../src/adapters/node/index.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-refusals-'));
let server: RunningServer;
let port: number;
beforeAll(async () => {
  const out = join(tmp, 'dist');
  await runBuild({ root, dataDir: join(root, 'test/fixtures/basic'), outDir: out, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers: 1 });
  server = await startServer({ distDir: out, port: 0, log: null, logError: () => {}, rateLimitPerMinute: 0 });
  port = Number(new URL(server.url).port);
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Sends the pieces (a pause between them) and reads everything until the server closes. */
function exchange(pieces: string[]): Promise<string> {
  return new Promise((ok, fail) => {
    const socket = connect(port, '127.0.0.1', async () => {
      for (const p of pieces) {
        socket.write(p);
        await new Promise((r) => setTimeout(r, 30));
      }
    });
    let data = '';
    const timer = setTimeout(() => fail(new Error(`no close within 5 s; got ${JSON.stringify(data)}`)), 5000);
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (data += c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      ok(data);
    });
  });
}
const parts = (answer: string) => {
  const end = answer.indexOf('\r\n\r\n');
  return { head: answer.slice(0, end), body: answer.slice(end + 4) };
};

describe('HEAD never carries a body', () => {
  it('a HEAD that fails to parse gets a 400 without a body; a GET the JSON one', async () => {
    const head = parts(await exchange(['HEAD /api/v1/health HTTP/1.1\r\nHost localhost\r\n\r\n']));
    expect(head.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.head).toMatch(/\r\nContent-Length: 0(\r\n|$)/i);
    expect(head.body).toBe('');
    const get = parts(await exchange(['GET /api/v1/health HTTP/1.1\r\nHost localhost\r\n\r\n']));
    expect(JSON.parse(get.body)).toMatchObject({ error: 'bad_request' });
  });

  it('headers too large: a 431 without a body for HEAD, in one packet or several', async () => {
    const big = `X-Big: ${'a'.repeat(20_000)}\r\n`;
    for (const pieces of [[`HEAD /api/v1/health HTTP/1.1\r\nHost: localhost\r\n${big}\r\n`], ['HEAD /api/v1/health HTTP/1.1\r\nHost: localhost\r\n', `${big}\r\n`]]) {
      const a = parts(await exchange(pieces));
      expect(a.head).toMatch(/^HTTP\/1\.1 431 /);
      expect(a.body).toBe('');
    }
    const get = parts(await exchange([`GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n${big}\r\n`]));
    expect(get.head).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(get.body)).toMatchObject({ error: 'bad_request' });
  });
});

describe('Expect other than 100-continue', () => {
  it('gets a JSON 417 with CORS', async () => {
    // fetch refuses to send an Expect header: over a socket, as a client that does would
    const a = parts(await exchange(['GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nExpect: garbage\r\nConnection: close\r\n\r\n']));
    expect(a.head).toMatch(/^HTTP\/1\.1 417 /);
    expect(a.head).toMatch(/\r\naccess-control-allow-origin: \*\r\n/i);
    expect(a.head).toMatch(/\r\ncontent-type: application\/json/i);
    expect(JSON.parse(a.body)).toMatchObject({ error: 'bad_request', message: expect.stringContaining('Expect') });
    const head = parts(await exchange(['HEAD /api/v1/health HTTP/1.1\r\nHost: localhost\r\nExpect: garbage\r\nConnection: close\r\n\r\n']));
    expect(head.head).toMatch(/^HTTP\/1\.1 417 /);
    expect(head.body).toBe('');
  });
});
