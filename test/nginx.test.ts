/**
 * The self-hosted deployment: Debian's nginx (deploy/nginx.conf, rendered) serving the
 * built dist/ and proxying /api to the Node server through its proxy_cache, with the
 * shared API suite run through nginx. Runs where /usr/sbin/nginx exists (CI installs
 * nginx-light); skipped with a message elsewhere.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { startServer } from '../src/adapters/node/index.ts';
import type { RunningServer } from '../src/adapters/node/index.ts';
import { renderNginxConfig } from '../src/adapters/node/nginx.ts';
import { apiSuite } from './lib/api-suite.ts';
import { builtDist } from './lib/dist.ts';
import { freePort } from './lib/preview.ts';

const NGINX = '/usr/sbin/nginx';
const present = existsSync(NGINX);
if (!present) console.warn(`test/nginx.test.ts: skipped, ${NGINX} is not installed (apt-get install nginx-light; .ci/run does so when CI=true)`);

describe('renderNginxConfig', () => {
  it('fills every placeholder outside comments and refuses values that would break the syntax', () => {
    const text = renderNginxConfig({ listen: '127.0.0.1:8080', dist: '/srv/evi/dist', upstream: '127.0.0.1:4321', cache: '/var/cache/evi', prefix: '/var/lib/evi' });
    const live = text.split('\n').filter((l) => !l.trimStart().startsWith('#'));
    expect(live.join('\n')).not.toMatch(/\$\{EVI_/);
    expect(live).toContain('    listen 127.0.0.1:8080;');
    expect(live).toContain('    root /srv/evi/dist;');
    expect(live).toContain('    server 127.0.0.1:4321;');
    expect(text).toMatch(/proxy_cache_path \/var\/cache\/evi /);
    expect(() => renderNginxConfig({ listen: '80; include /etc/passwd', dist: '/d', upstream: 'u:1', cache: '/c', prefix: '/p' })).toThrow(/EVI_LISTEN/);
  });
});

describe.skipIf(!present)('nginx in front of the Node server', () => {
  let dist: string;
  let node: RunningServer;
  let nginx: ChildProcess;
  let work: string;
  let url: string;
  let log = '';

  beforeAll(async () => {
    dist = await builtDist();
    node = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, trustProxy: 1, log: null });
    work = mkdtempSync(join(tmpdir(), 'evi-nginx-'));
    mkdirSync(join(work, 'cache'));
    // nginx's workers drop to an unprivileged user when started as root: they must reach the cache.
    chmodSync(work, 0o755);
    chmodSync(join(work, 'cache'), 0o777);
    const port = await freePort();
    const conf = join(work, 'nginx.conf');
    writeFileSync(conf, renderNginxConfig({ listen: `127.0.0.1:${port}`, dist, upstream: new URL(node.url).host, cache: join(work, 'cache'), prefix: work }));
    nginx = spawn(NGINX, ['-p', work, '-c', conf, '-e', join(work, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const ok = await fetch(`${url}/api/v1/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 100 || nginx.exitCode !== null) throw new Error(`nginx did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 600_000);

  afterAll(async () => {
    nginx?.kill('SIGQUIT');
    await node?.close(100);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe('the shared API suite through nginx', () => {
    apiSuite(() => ({
      fetch: (path, init) => fetch(`${url}${path}`, init),
      read: (path) => new FsStore(dist).read(path),
    }));
  });

  it('a repeated API request is answered from the proxy cache, without client-specific fields', async () => {
    const path = `/api/v1/health?nginx-cache-probe=${Date.now()}`;
    const first = await fetch(`${url}${path}`);
    await first.arrayBuffer();
    expect(first.headers.get('x-cache-status')).toBe('MISS');
    const second = await fetch(`${url}${path}`);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache-status')).toBe('HIT');
    expect(second.headers.get('ratelimit')).toBeNull();
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('static files come from nginx; internal files are not served', async () => {
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    expect(home.headers.get('x-cache-status')).toBeNull();
    expect((await fetch(`${url}/views/search-index.json`)).status).toBe(200);
    expect((await fetch(`${url}/views/search-rankings.json`)).status).toBe(200);
    // The search results page goes to the function: HTML with the results, not the static page.
    const results = await fetch(`${url}/search/?q=a`);
    expect(results.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await results.text()).toContain('data-served');
    for (const path of ['/views/meta.json', '/build-report.json', '/_headers', '/_redirects']) expect((await fetch(`${url}${path}`)).status, path).toBe(404);
    const folder = await fetch(`${url}/api-docs`, { redirect: 'manual' });
    expect(folder.status).toBe(301);
    expect(folder.headers.get('location')).toBe('/api-docs/');
  });
});
