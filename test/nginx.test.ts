/**
 * The self-hosted deployment as a user runs it: `npm run preview:nginx` (Debian's nginx with
 * deploy/nginx.conf rendered, serving the built dist/ and proxying /api to the Node server
 * through its proxy_cache), the shared API suite through it, every spelling of an /api target
 * answered as the Node server answers it, and nothing left running once it is stopped; then
 * the production recipe's systemd units. Runs where /usr/sbin/nginx exists (CI installs
 * nginx-light); skipped with a message elsewhere.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { startServer } from '../src/adapters/node/index.ts';
import type { RunningServer } from '../src/adapters/node/index.ts';
import { NGINX_BINARY, renderNginxConfig } from '../src/adapters/node/nginx.ts';
import { apiSuite } from './lib/api-suite.ts';
import { builtDist } from './lib/dist.ts';
import { freePort, startPreview } from './lib/preview.ts';
import type { Preview } from './lib/preview.ts';
import { rawExchange } from './lib/raw-http.ts';
import type { RawAnswer } from './lib/raw-http.ts';

const root = resolve(import.meta.dirname, '..');
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
const present = existsSync(NGINX_BINARY);
if (!present) console.warn(`test/nginx.test.ts: skipped, ${NGINX_BINARY} is not installed (apt-get install nginx-light; .ci/run does so when CI=true)`);

/** The suites send hundreds of requests a minute from one address. */
const UNLIMITED = { RATE_LIMIT_PER_MINUTE: '0' };

describe('renderNginxConfig', () => {
  it('fills every placeholder outside comments and refuses values that would break the syntax', () => {
    const text = renderNginxConfig({ listen: '127.0.0.1:8080', dist: '/srv/evi/dist', upstream: '127.0.0.1:4321', cache: '/var/cache/evi', prefix: '/var/lib/evi' });
    const live = text.split('\n').filter((l) => !l.trimStart().startsWith('#'));
    expect(live.join('\n')).not.toMatch(/\$\{EVI_/);
    expect(live).toContain('    listen 127.0.0.1:8080;');
    expect(live).toContain('    root /srv/evi/dist;');
    expect(live).toContain('    server 127.0.0.1:4321;');
    expect(text).toMatch(/proxy_cache_path \/var\/cache\/evi /);
    expect(live.some((l) => /^\s*user /.test(l))).toBe(false);
    expect(() => renderNginxConfig({ listen: '80; include /etc/passwd', dist: '/d', upstream: 'u:1', cache: '/c', prefix: '/p' })).toThrow(/EVI_LISTEN/);
  });

  it('names the workers’ user, before any other directive, only when asked', () => {
    const live = renderNginxConfig({ listen: '80', dist: '/d', upstream: 'u:1', cache: '/c', prefix: '/p', user: 'www-data' })
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
    expect(live[0]).toBe('user www-data;');
    expect(() => renderNginxConfig({ listen: '80', dist: '/d', upstream: 'u:1', cache: '/c', prefix: '/p', user: 'root; daemon on' })).toThrow(/user/);
  });
});

/** The body of a raw answer, its chunks joined when it came chunked. */
function bodyOf(answer: RawAnswer): string {
  if (!answer.headers['transfer-encoding']?.includes('chunked')) return answer.body;
  let rest = answer.body;
  let out = '';
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, line), 16);
    if (!(size > 0)) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

const portOf = (url: string) => Number(new URL(url).port);
const get = (port: number, target: string) => rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);

describe.skipIf(!present)('npm run preview:nginx: nginx in front of the Node server', () => {
  let dist: string;
  let nginx: Preview;
  let node: RunningServer;

  beforeAll(async () => {
    dist = await builtDist();
    nginx = await startPreview('preview:nginx', dist, '/api/v1/health', undefined, UNLIMITED);
    // The same build behind the Node server alone: what nginx must not change.
    node = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, log: null });
  }, 600_000);

  afterAll(async () => {
    await nginx?.close();
    await node?.close(100);
  });

  describe('the shared API suite through nginx', () => {
    apiSuite(() => ({
      fetch: (path, init) => fetch(`${nginx.url}${path}`, init),
      read: (path) => new FsStore(dist).read(path),
    }));
  });

  it('says where it answers, and serves the folder it is given on PORT and HOST', async () => {
    await started(nginx);
    expect(nginx.log()).toContain(`nginx at ${nginx.url} (API at ${nginx.url}/api/v1)`);
    expect(nginx.log()).toContain(`serving ${dist}`);
  });

  it('every target under /api, as sent, is the Node server’s to answer: encoded slashes, dot segments, paths nginx would normalise away', async () => {
    const targets = [
      '/api/v1/company/..%2f..%2f..%2fetc%2fpasswd',
      '/api/v1/company/..%2F..%2F..%2Fviews%2Fmeta.json',
      '/api/v1/../../etc/passwd',
      '/api/../index.html',
      '/api/..',
      '/api/%2e%2e/%2e%2e/etc/passwd',
      '/api/v1/%2e%2e/%2e%2e/build-report.json',
      '/api/v1/company/a%2fb',
      '/api/v1/company/%00',
      '/api/%00',
      '/api/./v1/health',
      '/api//v1//health',
      '/api/v1/health/..',
      '/api/v1/health/%2e%2e/%2e%2e/',
      '/api/v1/search?q=..%2f..%2f',
      '/api?x=..%2f',
      '/x/../api/v1/health',
      '//api/v1/health',
      '/%61pi/v1/health',
    ];
    for (const target of targets) {
      const [behind, alone] = await Promise.all([get(portOf(nginx.url), target), get(portOf(node.url), target)]);
      expect(behind.status, target).toBe(alone.status);
      expect(behind.headers['content-type'], target).toBe(alone.headers['content-type']);
      expect(behind.headers['access-control-allow-origin'], target).toBe(alone.headers['access-control-allow-origin']);
      expect(bodyOf(behind), target).toBe(bodyOf(alone));
      if (target.startsWith('/api')) {
        expect(behind.headers['content-type'], target).toBe('application/json; charset=utf-8');
        expect(behind.headers['access-control-allow-origin'], target).toBe('*');
      }
    }
  });

  it('a repeated API request is answered from the proxy cache, without client-specific fields', async () => {
    const path = `/api/v1/health?nginx-cache-probe=${Date.now()}`;
    const first = await fetch(`${nginx.url}${path}`);
    await first.arrayBuffer();
    expect(first.headers.get('x-cache-status')).toBe('MISS');
    const second = await fetch(`${nginx.url}${path}`);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache-status')).toBe('HIT');
    expect(second.headers.get('ratelimit')).toBeNull();
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('static files come from nginx; what the Node server refuses is not served', async () => {
    const home = await fetch(`${nginx.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    expect(home.headers.get('x-cache-status')).toBeNull();
    expect((await fetch(`${nginx.url}/views/search-index.json`)).status).toBe(200);
    expect((await fetch(`${nginx.url}/views/search-rankings.json`)).status).toBe(200);
    // The search results page goes to the function: HTML with the results, not the static page.
    const results = await fetch(`${nginx.url}/search/?q=a`);
    expect(results.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await results.text()).toContain('data-served');
    for (const path of ['/views/meta.json', '/build-report.json', '/_headers', '/_redirects', '/serve.json', '/.assetsignore']) {
      expect((await fetch(`${nginx.url}${path}`)).status, path).toBe(404);
      expect((await fetch(`${node.url}${path}`)).status, path).toBe(404);
    }
    const folder = await fetch(`${nginx.url}/api-docs`, { redirect: 'manual' });
    expect(folder.status).toBe(301);
    expect(folder.headers.get('location')).toBe('/api-docs/');
  });
});

/** The line the command prints once nginx answers through the Node server: the Node server's origin and the rendered configuration. */
async function started(preview: Preview): Promise<{ upstream: string; conf: string }> {
  for (let i = 0; i < 100; i++) {
    const [, upstream, conf] = /in front of the Node server at (\S+); serving .* with (\S+)$/m.exec(preview.log()) ?? [];
    if (upstream && conf) return { upstream, conf };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`npm run preview:nginx did not say where it answers:\n${preview.log()}`);
}

/** Whether anything still accepts connections at `url`. */
const answers = (url: string) => fetch(`${url}/api/v1/health`).then(
  async (r) => (await r.arrayBuffer(), true),
  () => false,
);

/** Whether a process of the group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!present)('npm run preview:nginx stops what it started', () => {
  let dist: string;
  beforeAll(async () => {
    dist = await builtDist();
  }, 600_000);

  for (const [how, signal, whole] of [
    ['SIGTERM to the command', 'SIGTERM', false],
    ['Ctrl-C (SIGINT to its process group, as a terminal sends it)', 'SIGINT', true],
  ] as const) {
    it(`${how}: nginx and the Node server exit, their ports close, the folder goes`, async () => {
      const preview = await startPreview('preview:nginx', dist, '/api/v1/health', undefined, UNLIMITED);
      try {
        const { upstream, conf } = await started(preview);
        expect(upstream).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(existsSync(conf)).toBe(true);
        expect(await answers(upstream)).toBe(true);
        process.kill(whole ? -preview.pid : preview.pid, signal);
        // npm ends as its script did, or (Ctrl-C reaching npm too) by the signal.
        expect([0, signal]).toContain(await preview.exited);
        for (let i = 0; i < 50 && groupAlive(preview.pid); i++) await new Promise((r) => setTimeout(r, 100));
        expect(groupAlive(preview.pid)).toBe(false);
        expect(await answers(preview.url)).toBe(false);
        expect(await answers(upstream)).toBe(false);
        expect(existsSync(conf)).toBe(false);
      } finally {
        await preview.close();
      }
    }, 120_000);
  }
});

const UNITS = join(root, 'deploy', 'systemd');
const unit = (name: string) => readFileSync(join(UNITS, name), 'utf8');
/** The value of `key=` in a unit (the first one), its double-quoted words kept whole, without the quotes. */
function words(text: string, key: string): string[] {
  const line = new RegExp(`^${key}=(.*)$`, 'm').exec(text)?.[1] ?? '';
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe('the production recipe (deploy/systemd)', () => {
  it.skipIf(!existsSync(SYSTEMD_ANALYZE))('both units pass systemd-analyze verify', () => {
    const result = spawnSync(SYSTEMD_ANALYZE, ['verify', join(UNITS, 'evi-node.service'), join(UNITS, 'evi-nginx.service')], { encoding: 'utf8' });
    expect(result.stderr + result.stdout).toBe('');
    expect(result.status).toBe(0);
  });

  it('the Node server’s unit starts it as `npm run serve` does, behind one trusted proxy', () => {
    const serve = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve!;
    const text = unit('evi-node.service');
    expect(words(text, 'ExecStart')).toEqual(serve.split(' '));
    expect(text).toMatch(/^Environment=TRUST_PROXY=1$/m);
    expect(text).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
  });

  it.skipIf(!present || process.getuid?.() !== 0 || spawnSync('id', ['www-data']).status !== 0)(
    'nginx started as its unit starts it (workers as www-data, folders as systemd makes them) serves the site and the API',
    async (ctx) => {
      const dist = await builtDist();
      if (spawnSync('runuser', ['-u', 'www-data', '--', 'test', '-r', join(dist, 'index.html')]).status !== 0) {
        console.warn(`test/nginx.test.ts: the unit's nginx not run, www-data cannot read ${dist} (the recipe's dist/ must be readable by www-data)`);
        ctx.skip();
      }
      const node = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, trustProxy: 1, log: null });
      // StateDirectory= and CacheDirectory=: root's folders, mode 0755.
      const state = mkdtempSync(join(tmpdir(), 'evi-nginx-state-'));
      const cache = mkdtempSync(join(tmpdir(), 'evi-nginx-cache-'));
      chmodSync(state, 0o755);
      chmodSync(cache, 0o755);
      const port = await freePort();
      const conf = join(state, 'nginx.conf');
      writeFileSync(conf, renderNginxConfig({ listen: `127.0.0.1:${port}`, dist, upstream: new URL(node.url).host, cache, prefix: state }));
      const [binary, ...args] = words(unit('evi-nginx.service'), 'ExecStart').map((w) => w.replaceAll('/var/lib/evi-nginx', state).replaceAll('/etc/evi/nginx.conf', conf));
      expect(binary).toBe(NGINX_BINARY);
      const nginx = spawn(binary!, args, { stdio: 'ignore' });
      try {
        const url = `http://127.0.0.1:${port}`;
        let health: Response | null = null;
        for (let i = 0; i < 100 && !health?.ok; i++) {
          await new Promise((r) => setTimeout(r, 100));
          health = await fetch(`${url}/api/v1/health`).catch(() => null);
        }
        expect(health?.status).toBe(200);
        // The second answer comes from the proxy cache, which only www-data's workers write.
        await fetch(`${url}/api/v1/health`).then((r) => r.arrayBuffer());
        expect((await fetch(`${url}/api/v1/health`)).headers.get('x-cache-status')).toBe('HIT');
        expect((await fetch(`${url}/`)).status).toBe(200);
        const worker = spawnSync('ps', ['-o', 'user=', '--ppid', String(nginx.pid)], { encoding: 'utf8' }).stdout;
        expect(worker).toMatch(/www-data/);
      } finally {
        nginx.kill('SIGQUIT');
        await new Promise((r) => nginx.once('exit', r));
        await node.close(100);
        rmSync(state, { recursive: true, force: true });
        rmSync(cache, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
