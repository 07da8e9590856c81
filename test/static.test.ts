/**
 * A pure static host: a static-target build (`EVI_DEPLOY=static`) of the hand-made fixture,
 * served by `npm run serve:static` (serve-handler, the engine of `serve`, with the generated serve.json and a JSON 404 for `/api`) as a user runs it.
 * The build names the shared test build's origin (SITE_URL), so that its pages come from the
 * compiled pages in that build's cache; the tests ask the server for each URL's path.
 * Every URL the build advertises (index links and endpoints, llms.txt, llms-full.txt, the
 * OpenAPI examples) answers exactly what the function answers for it; the rest of /api is
 * never a 200 and never HTML labelled as JSON; the documents say plainly what is not answered.
 * Then the same build on Cloudflare Pages' static serving (wrangler pages dev), where an
 * unknown /api path gets the build's JSON 404.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../src/api/index.ts';
import { STATIC_NOTE, staticRewrites } from '../src/api/endpoints.ts';
import { BUILD_NODE_ARGS } from '../src/pipeline/workers/build-command.ts';
import { reportPath } from '../src/pipeline/write/report.ts';
import { HeadersHandler } from '@netlify/headers';
import { RedirectsHandler } from '@netlify/redirects';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { ErrorResponseSchema, IndexResponseSchema } from '../src/core/schemas/responses.ts';
import type { IndexResponse } from '../src/core/schemas/responses.ts';
import { SITE_URL, sharedBuild } from './lib/build-once.ts';
import { freePort, startCommand, startPreview } from './lib/preview.ts';
import type { Preview } from './lib/preview.ts';

const root = resolve(import.meta.dirname, '..');
// Inside the project: Astro keeps a build's server chunks under the working directory.
const work = join(root, '.cache', `static-test-${process.pid}`);
const dist = join(work, 'dist');
let site: Preview;
/** Where serve:static listens; the build's absolute URLs name SITE_URL. */
let origin: string;
let index: IndexResponse;

/** The same path and query on the server under test. */
const served = (url: string) => `${origin}${new URL(url).pathname}${new URL(url).search}`;

function build(cacheDir: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...BUILD_NODE_ARGS], {
      cwd: root,
      env: { ...process.env, EVI_DEPLOY: 'static', EVI_DATA_DIR: 'test/fixtures/basic', EVI_OUT_DIR: dist, EVI_CACHE_DIR: cacheDir, SITE_URL, SOURCE_DATE_EPOCH: '1790000000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (b: Buffer) => (log += b));
    child.stderr.on('data', (b: Buffer) => (log += b));
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`static build failed (exit ${code}):\n${log.slice(-3000)}`))));
  });
}

beforeAll(async () => {
  // The compiled pages of the shared build (same project, same origin): a cache of their own.
  const { cache } = await sharedBuild();
  const pagesCache = join(work, 'cache');
  mkdirSync(pagesCache, { recursive: true });
  for (const e of readdirSync(cache)) if (e.startsWith('pages-')) cpSync(join(cache, e), join(pagesCache, e), { recursive: true });
  await build(pagesCache);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  site = await startPreview('serve:static', dist, '/api/v1', port);
  index = IndexResponseSchema.parse(JSON.parse(readFileSync(join(dist, 'api/v1/index.json'), 'utf8')));
}, 600_000);

afterAll(async () => {
  await site?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The function's own answer to a URL, over the same files: what a static host must equal. */
const handler = () => createHandler(new FsStore(dist), { log: () => {} });

/** Every absolute URL of the build's origin in a text. */
const urlsIn = (text: string) => [...new Set([...text.matchAll(/https?:\/\/[^\s)<>"'`]+/g)].map((m) => m[0].replace(/[.,;:]+$/, '')))].filter((u) => u.startsWith(`${SITE_URL}/`));

/** What the server answers for the path of `url` (a URL of the build's origin) is what the function answers for `url`. */
async function answersLikeTheFunction(url: string): Promise<void> {
  const res = await fetch(served(url));
  const text = await res.text();
  expect(res.status, url).toBe(200);
  const path = new URL(url).pathname;
  if (!/^\/api(\/|$)/.test(path)) return;
  expect(res.headers.get('content-type'), url).toBe('application/json; charset=utf-8');
  expect(res.headers.get('access-control-allow-origin'), url).toBe('*');
  const fn = await handler()(new Request(url));
  expect(fn.status, url).toBe(200);
  expect(JSON.parse(text), url).toEqual(JSON.parse(await fn.text()));
}

describe('static host (npm run serve:static over EVI_DEPLOY=static)', () => {
  it('the index says what this deployment answers: path forms only, no search or compare', () => {
    expect(index.deployment).toEqual({ target: 'static', queryParameters: false, note: STATIC_NOTE });
    expect(index.links.search).toBeUndefined();
    expect(index.links.compare).toBeUndefined();
    for (const [key, url] of Object.entries(index.links)) {
      expect(url, key).not.toContain('?');
      expect(url.startsWith(`${SITE_URL}/`), key).toBe(true);
    }
    const endpoints = Object.keys(index.endpoints ?? {});
    expect(endpoints.some((e) => /search|compare/.test(e))).toBe(false);
    // The current month's permanent URLs, which every answer names in its permalink, are files too.
    expect(endpoints).toContain('GET /api/v1/months/{month}/company/{slug}');
  });

  it('every URL the index links answers what the function answers', async () => {
    for (const url of Object.values(index.links)) await answersLikeTheFunction(url);
    // The endpoints without a placeholder, by their path.
    for (const key of Object.keys(index.endpoints ?? {})) {
      const path = key.replace(/^GET /, '');
      if (!path.includes('{')) await answersLikeTheFunction(`${SITE_URL}${path}`);
    }
  });

  it('every URL of llms.txt, llms-full.txt and the OpenAPI examples answers what the function answers', async () => {
    const llms = await (await fetch(`${origin}/llms.txt`)).text();
    const full = await (await fetch(`${origin}/llms-full.txt`)).text();
    expect(llms).toContain(STATIC_NOTE);
    expect(full).toContain(STATIC_NOTE);
    const openapi = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as { paths: Record<string, { get: { description: string; parameters: unknown[] } }> };
    expect(Object.keys(openapi.paths).some((p) => /search|compare/.test(p))).toBe(false);
    for (const op of Object.values(openapi.paths)) expect(op.get.parameters).toEqual([]);
    const urls = [...urlsIn(llms), ...urlsIn(full), ...Object.values(openapi.paths).flatMap((op) => urlsIn(op.get.description))];
    expect(urls.length).toBeGreaterThan(10);
    for (const url of new Set(urls)) {
      expect(url, 'a static deployment advertises no query form').not.toMatch(/\/api\/[^?]*\?/);
      await answersLikeTheFunction(url);
    }
  });

  it('the permalink of every static answer answers the same data (the current month’s files)', async () => {
    for (const url of [index.links.company, index.links.rankings, index.links.leaders]) {
      const body = (await (await fetch(served(url))).json()) as { permalink?: string };
      expect(body.permalink, url).toBeDefined();
      await answersLikeTheFunction(body.permalink!);
    }
  });

  it('every /api link of every page answers what the function answers (no query form linked)', async () => {
    const hrefs = new Set<string>();
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.html')) continue;
      for (const m of readFileSync(join(dist, file), 'utf8').matchAll(/href="([^"]*)"/g)) {
        const url = new URL(m[1]!.replace(/&amp;/g, '&'), SITE_URL);
        if (url.origin === new URL(SITE_URL).origin && /^\/api(\/|$)/.test(url.pathname)) hrefs.add(url.href);
      }
    }
    expect(hrefs.size).toBeGreaterThan(5);
    for (const url of hrefs) await answersLikeTheFunction(url);
  });

  it('the docs page says plainly that query parameters are not answered', async () => {
    const docs = await (await fetch(`${origin}/api-docs/`)).text();
    expect(docs).toContain('Static deployment.');
    expect(docs).toContain('query parameters are not answered');
  });

  it('every spelling of an advertised path (unversioned, trailing slash) answers the same bytes', async () => {
    for (const url of [index.links.self, index.links.health, index.links.company, index.links.leaders]) {
      const expected = await (await fetch(served(url))).text();
      const path = new URL(url).pathname;
      for (const spelling of [`${path}/`, path.replace('/api/v1', '/api'), `${path.replace('/api/v1', '/api')}/`]) {
        const res = await fetch(`${origin}${spelling}`);
        expect(res.status, spelling).toBe(200);
        expect(await res.text(), spelling).toBe(expected);
      }
    }
  });

  it('an /api path without a file is a JSON 404 with CORS and a short cache life, never a 200 and never HTML', async () => {
    const notFound = readFileSync(join(dist, 'api/404.html'), 'utf8');
    for (const path of ['/api/v1/search?q=a', '/api/v1/compare', '/api/v1/nope', '/api/v2', '/api/v1/company/no-such-company', '/api/v1/months/1999-01/rankings', '/api/v1/rankings/nope/us', '/api/v1/company/no-such-company/']) {
      for (const accept of [undefined, 'application/json', 'text/html']) {
        const res = await fetch(`${origin}${path}`, accept ? { headers: { accept } } : {});
        const text = await res.text();
        expect(res.status, path).toBe(404);
        expect(res.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(res.headers.get('cache-control'), path).toBe('public, max-age=60');
        expect(text, path).toBe(notFound);
        expect(ErrorResponseSchema.parse(JSON.parse(text)).error).toBe('not_found');
      }
    }
    // Outside /api a missing page is still the site's HTML 404 page.
    const page = await fetch(`${origin}/no-such-page/`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('the build’s report is written beside the folder, not in it: no static host serves it', async () => {
    expect(existsSync(reportPath(dist))).toBe(true);
    expect(existsSync(join(dist, 'build-report.json'))).toBe(false);
    const res = await fetch(`${origin}/build-report.json`);
    await res.arrayBuffer();
    expect(res.status).toBe(404);
  });

  it('a port already in use gives one line naming the port and the variable to change', async () => {
    const port = Number(new URL(origin).port);
    const child = spawn('npx', ['tsx', 'scripts/serve-static.ts'], { cwd: root, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DIST_DIR: dist } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !l.includes('npm warn'));
    expect(lines).toEqual([`Port ${port} is already in use on 127.0.0.1: stop what holds it, or set PORT to another port (e.g. PORT=${port + 1} npm run serve:static).`]);
  });

  it('the host files: a JSON 404 page for /api (Cloudflare Pages), Netlify query refusals, JSON headers on /api', () => {
    const notFound = ErrorResponseSchema.parse(JSON.parse(readFileSync(join(dist, 'api/404.html'), 'utf8')));
    expect(notFound.error).toBe('not_found');
    const refusal = ErrorResponseSchema.parse(JSON.parse(readFileSync(join(dist, 'api/query-not-answered.json'), 'utf8')));
    expect(refusal.error).toBe('bad_request');
    const redirects = readFileSync(join(dist, '_redirects'), 'utf8').split('\n');
    // Netlify matches query parameters; each refusal comes before the rewrite of its path.
    const refusalAt = redirects.indexOf('/api/v1/rankings country=:value /api/query-not-answered.json 400!');
    expect(refusalAt).toBeGreaterThanOrEqual(0);
    expect(refusalAt).toBeLessThan(redirects.indexOf('/api/v1/rankings /api/v1/rankings.json 200'));
    const headers = readFileSync(join(dist, '_headers'), 'utf8');
    expect(headers).toMatch(/^\/api\n {2}Access-Control-Allow-Origin: \*\n {2}Content-Type: application\/json; charset=utf-8\n {2}Cache-Control: public, max-age=60$/m);
  });
});

describe('Cloudflare Pages without the function (wrangler pages dev over the same static build)', () => {
  let pages: Preview;
  beforeAll(async () => {
    // A Pages project folder of its own (package.json, wrangler.toml): wrangler would otherwise take
    // the Worker's wrangler.toml at the root. Its one function only passes every request on to
    // Pages' static serving (with no function at all, wrangler finds that root file from its own
    // template); the answers below are the static files', _headers' and _redirects'.
    const project = join(work, 'pages');
    mkdirSync(join(project, 'functions'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "private": true }\n');
    writeFileSync(join(project, 'wrangler.toml'), 'name = "evi-static-test"\npages_build_output_dir = "dist"\ncompatibility_date = "2026-04-20"\n');
    writeFileSync(join(project, 'functions', '_middleware.js'), 'export const onRequest = (context) => context.next();\n');
    symlinkSync(realpathSync(dist), join(project, 'dist'));
    const port = await freePort();
    const wrangler = join(root, 'node_modules', '.bin', 'wrangler');
    const env = { CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' };
    pages = await startCommand(wrangler, ['pages', 'dev', 'dist', '--ip', '127.0.0.1', '--port', String(port), '--show-interactive-dev-session=false'], { cwd: project, env }, port, '/api/v1');
  }, 120_000);
  afterAll(async () => {
    await pages?.close();
  });

  it('advertised URLs answer the function’s bytes, as JSON with CORS', async () => {
    for (const url of Object.values(index.links)) {
      const path = new URL(url).pathname;
      if (!/^\/api(\/|$)/.test(path)) continue;
      const res = await fetch(`${pages.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(await res.json(), path).toEqual(await (await handler()(new Request(url))).json());
    }
  });

  it('the build’s report is not served', async () => {
    const res = await fetch(`${pages.url}/build-report.json`);
    await res.arrayBuffer();
    expect(res.status).toBe(404);
  });

  it('an /api path without a file gets the JSON 404 with CORS, never HTML, never kept long', async () => {
    for (const path of ['/api/v1/search?q=a', '/api/v1/compare', '/api/v1/nope', '/api/v2', '/api/v1/company/no-such-company', '/api/v1/months/1999-01/rankings']) {
      const res = await fetch(`${pages.url}${path}`);
      const text = await res.text();
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('cache-control'), path).toMatch(/^(no-store|public, max-age=60)$/);
      expect(ErrorResponseSchema.parse(JSON.parse(text)).error, path).toBe('not_found');
    }
  });
});

describe("Netlify's own redirect engine (netlify-redirector, through @netlify/redirects and @netlify/headers) over the same static build", () => {
  // What `netlify dev` matches with: the rules of dist/_redirects and dist/_headers, parsed and
  // matched by Netlify's libraries. Which file a match names is checked here, and that the
  // file holds what that answer must be; serving it (with the rule's status) is Netlify's.
  let redirects: RedirectsHandler;
  let headers: HeadersHandler;
  const quiet = { log: () => {}, warn: () => {}, error: (message: string) => expect.fail(`Netlify could not parse a host file: ${message}`) };
  beforeAll(() => {
    redirects = new RedirectsHandler({ projectDir: dist, publicDir: dist, configRedirects: [], jwtRoleClaim: '', jwtSecret: '' });
    headers = new HeadersHandler({ projectDir: dist, logger: quiet as never });
  });
  const match = async (path: string) => {
    const m = await redirects.match(new Request(`http://localhost${path}`));
    return m ? { status: m.statusCode, force: m.force, file: new URL(m.targetRelative, 'http://localhost').pathname } : null;
  };

  it('every advertised URL and its other spellings is rewritten (200) to the file the function answers with', async () => {
    const handler = createHandler(new FsStore(dist));
    for (const url of [index.links.self, index.links.health, index.links.company, index.links.leaders]) {
      const path = new URL(url).pathname;
      const expected = await (await handler(new Request(`http://localhost${path}`))).text();
      for (const spelling of [path, `${path}/`, path.replace('/api/v1', '/api')]) {
        const m = await match(spelling);
        // The index's own file is served by its rewrite; a spelling with the file's exact name is the file itself.
        if (m === null) {
          expect(readFileSync(join(dist, spelling), 'utf8'), spelling).toBe(expected);
          continue;
        }
        expect(m.status, spelling).toBe(200);
        expect(readFileSync(join(dist, m.file), 'utf8'), spelling).toBe(expected);
      }
    }
  });

  it('every query parameter of every static path is refused with a forced JSON 400, not the default file', async () => {
    const refusal = ErrorResponseSchema.parse(JSON.parse(readFileSync(join(dist, 'api/query-not-answered.json'), 'utf8')));
    expect(refusal.error).toBe('bad_request');
    let checked = 0;
    for (const { from, endpoint } of staticRewrites('static')) {
      const path = from.replace(/:[a-z]+/g, (p) => (p === ':month' ? '2026-01' : 'x'));
      for (const name of Object.keys(endpoint.query.shape)) {
        expect(await match(`${path}?${name}=gb`), `${path}?${name}`).toEqual({ status: 400, force: true, file: '/api/query-not-answered.json' });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('a path under /api with no file and no rule gets the JSON 404 body with JSON headers and CORS', async () => {
    const notFound = ErrorResponseSchema.parse(JSON.parse(readFileSync(join(dist, 'api/404.html'), 'utf8')));
    expect(notFound.error).toBe('not_found');
    for (const path of ['/api/v1/nope', '/api/v2', '/api/v1/search', '/api/v1/compare/', '/api/v1/rankings/a/b/c']) {
      expect(await match(path), path).toEqual({ status: 404, force: false, file: '/api/404.html' });
      const set = await headers.apply(new Request(`http://localhost${path}`));
      expect(set['Content-Type'] ?? set['content-type'], path).toBe('application/json; charset=utf-8');
      expect(set['Access-Control-Allow-Origin'] ?? set['access-control-allow-origin'], path).toBe('*');
    }
  });
});
