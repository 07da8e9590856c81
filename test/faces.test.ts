/**
 * The faces of the built site (issue "The faces"): /llms.txt by the llmstxt.org
 * rules with every link requested, the OpenAPI 3.1 document validated and every
 * endpoint's real answers checked against it with ajv, and the HTML pages
 * (size, one h1, heading order, lang, labels, contrast, content without script).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../src/api/openapi.ts';
import { loadSearchIndex, searchCompanies } from '../src/core/search/index.ts';
import type { CompanyView, MetaView } from '../src/core/views/layout.ts';
import type { RankingsResponse } from '../src/core/schemas/responses.ts';
import { SITE_URL, buildSite } from './lib/build-once.ts';
import { serveSite } from './lib/static-server.ts';
import type { SiteServer } from './lib/static-server.ts';

const PAGE_BUDGET = 100 * 1024;

let dist: string;
let server: SiteServer;
let meta: MetaView;
const read = (path: string) => readFileSync(join(dist, path), 'utf8');
const json = <T>(path: string) => JSON.parse(read(path)) as T;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** Visible text of an HTML fragment, entities decoded. */
function text(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** `toContain` without printing a whole page on failure. */
function has(haystack: string, needle: string, where = ''): void {
  expect(haystack.includes(needle), `${where ? `${where}: ` : ''}missing ${JSON.stringify(needle)}`).toBe(true);
}

/** Path and query of an absolute URL of the build, served by the test server. */
function local(url: string): string {
  expect(url.startsWith(`${SITE_URL}/`), `${url} is under SITE_URL`).toBe(true);
  return url.slice(SITE_URL.length);
}

beforeAll(async () => {
  dist = await buildSite();
  server = await serveSite(dist);
  meta = json<MetaView>('views/meta.json');
});
afterAll(() => server?.close());

describe('llms.txt', () => {
  interface Link {
    name: string;
    url: string;
    note: string;
  }
  /** llmstxt.org: H1, blockquote, free text without headings, then H2 sections of link lists. */
  function parse(src: string) {
    const lines = src.split('\n');
    let i = 0;
    const skipBlank = () => {
      while (i < lines.length && lines[i]!.trim() === '') i++;
    };
    skipBlank();
    const h1 = /^# (.+)$/.exec(lines[i++] ?? '');
    if (!h1) throw new Error('llms.txt: the first line is not an H1');
    skipBlank();
    const quote: string[] = [];
    while (i < lines.length && lines[i]!.startsWith('> ')) quote.push(lines[i++]!.slice(2));
    const details: string[] = [];
    while (i < lines.length && !lines[i]!.startsWith('## ')) {
      if (/^#/.test(lines[i]!)) throw new Error(`llms.txt: heading before the first H2: ${lines[i]}`);
      details.push(lines[i++]!);
    }
    const sections: { name: string; links: Link[] }[] = [];
    for (; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === '') continue;
      const h2 = /^## (.+)$/.exec(line);
      if (h2) {
        sections.push({ name: h2[1]!, links: [] });
        continue;
      }
      const item = /^- \[([^\]]+)\]\((\S+)\)(?:: (.+))?$/.exec(line);
      if (!item) throw new Error(`llms.txt: not a link item: ${line}`);
      sections.at(-1)!.links.push({ name: item[1]!, url: item[2]!, note: item[3] ?? '' });
    }
    return { title: h1[1]!, summary: quote.join(' '), details: details.join('\n').trim(), sections };
  }

  it('follows the llmstxt.org structure and is built from the data', async () => {
    const res = await fetch(`${server.url}/llms.txt`);
    expect(res.status).toBe(200);
    const doc = parse(await res.text());
    expect(doc.title).toBe(meta.name);
    expect(doc.summary).toBe(meta.index.description);
    expect(doc.details).toContain(meta.month);
    expect(doc.details).toContain(`${SITE_URL}/`);
    const names = doc.sections.map((s) => s.name);
    expect(names).toContain('API');
    expect(names.at(-1)).toBe('Optional');
    for (const s of doc.sections) expect(s.links.length, s.name).toBeGreaterThan(0);
    const urls = doc.sections.flatMap((s) => s.links.map((l) => l.url));
    for (const link of Object.values(meta.index.links)) expect(urls).toContain(link);
    expect(urls).toContain(meta.methodology.url);
  });

  it('every link answers from the built site', async () => {
    const doc = parse(read('llms.txt'));
    const links = doc.sections.flatMap((s) => s.links);
    expect(links.length).toBeGreaterThanOrEqual(10);
    for (const l of links) {
      const url = new URL(l.url);
      const res = await fetch(`${server.url}${local(l.url.replace(/#.*$/, ''))}`);
      const body = await res.text();
      expect(res.status, `${l.url}: ${body.slice(0, 200)}`).toBe(200);
      if (url.hash) has(body, `id="${url.hash.slice(1)}"`, l.url);
    }
  });
});

describe('llms-full.txt', () => {
  it('holds every endpoint, the methodology and the valid values, and every URL in it answers', async () => {
    const text = read('llms-full.txt');
    for (const path of Object.keys(json<{ paths: object }>('api/v1/openapi.json').paths)) has(text, `GET ${path}`, path);
    has(text, '## Methodology');
    has(text, meta.methodology.version);
    for (const c of meta.countries) has(text, `${c.code} = ${c.name}`);
    const urls = [...new Set([...text.matchAll(/https?:\/\/[^\s)`"'<>]+/g)].map((m) => m[0].replace(/[.,;:]+$/, '')))].filter((u) => u.startsWith(`${meta.siteUrl}/`) && !u.endsWith('/mcp'));
    expect(urls.length).toBeGreaterThan(15);
    for (const u of urls) {
      const res = await fetch(`${server.url}${local(u)}`);
      await res.arrayBuffer();
      expect(res.status, u).toBe(200);
    }
  });
});

describe('how an assistant connects (MCP)', () => {
  it('llms.txt, llms-full.txt and /api-docs/ name the hosted endpoint first and a command that runs from a clone, never npx', () => {
    for (const file of ['llms.txt', 'llms-full.txt', 'api-docs/index.html']) {
      const text = read(file).replace(/&quot;/g, '"');
      const endpoint = text.indexOf(`${SITE_URL}/mcp`);
      const command = text.indexOf(`npm run --silent mcp -- --url ${SITE_URL}`);
      expect(endpoint, file).toBeGreaterThan(-1);
      expect(command, file).toBeGreaterThan(endpoint);
      expect(text, file).not.toContain('npx employer-visibility-index');
    }
  });
});

describe('OpenAPI document', () => {
  type Doc = ReturnType<typeof openApiDocument> & { paths: Record<string, { get: { responses: Record<string, { $ref?: string; content?: Record<string, { schema: { $ref?: string } }> }> } }>; components: { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> } };
  let doc: Doc;
  let ajv: InstanceType<typeof Ajv2020>;
  const BASE = 'https://openapi.test/openapi.json';

  beforeAll(() => {
    doc = json<Doc>('api/v1/openapi.json');
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: BASE, components: doc.components });
  });

  /** The OpenAPI path template that `path` (no query) matches. */
  function operation(path: string): string {
    const found = Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`).test(path));
    if (!found) throw new Error(`no operation for ${path}`);
    return found;
  }

  /** Validates `body` against the schema the document declares for that path and status. */
  function check(url: string, status: number, body: unknown): void {
    const path = new URL(url, 'http://x').pathname.replace(/^\/api(?!\/v1)/, '/api/v1').replace(/\/$/, '');
    const op = doc.paths[operation(path)]!.get;
    let response = op.responses[String(status)];
    expect(response, `${url}: status ${status} is declared`).toBeDefined();
    if (response!.$ref) response = doc.components.responses[response!.$ref.split('/').pop()!];
    const schema = response!.content!['application/json']!.schema;
    if (!schema.$ref) return;
    const validateBody = ajv.getSchema(`${BASE}${schema.$ref}`)!;
    expect(validateBody, schema.$ref).toBeTypeOf('function');
    const ok = validateBody(body);
    expect(ok, `${url} (${status}) against ${schema.$ref}: ${ajv.errorsText(validateBody.errors)}`).toBe(true);
  }

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('is generated from the data and linked from the index and the docs', async () => {
    expect(doc).toEqual(openApiDocument(meta));
    expect(meta.index.links.openapi).toBe(`${SITE_URL}/api/v1/openapi.json`);
    const res = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(doc);
    has(read('api-docs/index.html'), `href="${local(meta.index.links.openapi)}"`);
    const schemas = Object.keys((doc.components as unknown as { schemas: object }).schemas);
    for (const id of ['DatasetIndex', 'Health', 'SearchResponse', 'CompanyProfile', 'Rankings', 'Leaders', 'Compare', 'Error']) expect(schemas).toContain(id);
  });

  it('describes every static default file of the build', () => {
    const files = walk(join(dist, 'api/v1')).map((f) => relative(join(dist, 'api/v1'), f).replace(/\\/g, '/'));
    let n = 0;
    for (const f of files) {
      if (f === 'openapi.json') continue;
      const path = f === 'index.json' ? '/api/v1' : `/api/v1/${f.replace(/\.json$/, '')}`;
      check(path, 200, json(`api/v1/${f}`));
      n++;
    }
    expect(n).toBeGreaterThan(meta.totalCompanies / 2);
  });

  it('describes the live answers of every endpoint, errors included', async () => {
    const e = meta.examples;
    const board = json<RankingsResponse>('api/v1/rankings.json');
    const five = board.rankings.slice(0, 5).map((r) => r.slug);
    const noData = readdirSync(join(dist, 'views/company')).map((f) => json<CompanyView>(`views/company/${f}`)).find((v) => !v.profiles.us);
    const urls: [string, number][] = [
      ...Object.values(meta.index.links)
        .map(local)
        .filter((u) => /^\/api(\/|\?|$)/.test(u))
        .map((u): [string, number] => [u, 200]),
      ['/api', 200],
      ['/api/v1/health', 200],
      [`/api/v1/search?q=${encodeURIComponent(e.search.slice(0, -2))}&limit=20`, 200],
      [`/api/v1/search?q=${encodeURIComponent(e.search)}&country=${e.country}`, 200],
      ['/api/v1/search?q=zzzzqqqq', 200],
      [`/api/v1/compare?companies=${five.join(',')}`, 200],
      [`/api/v1/compare?companies=${e.compare.join(',')}&country=${e.country}`, 200],
      [`/api/v1/rankings?country=${e.country}&sort=change&page=2&limit=7`, 200],
      [`/api/v1/rankings?industry=${e.industry}&month=${meta.months[0]}`, 200],
      ['/api/v1/rankings?page=999', 200],
      [`/api/v1/rankings/${e.industry}/${e.country}?limit=3`, 200],
      [`/api/rankings/${e.industry}/${e.country}`, 200],
      ['/api/v1/search', 400],
      ['/api/v1/search?q=a&limit=21', 400],
      ['/api/v1/search?q=a&country=atlantis', 400],
      ['/api/v1/rankings?limit=0', 400],
      ['/api/v1/rankings?sort=best', 400],
      ['/api/v1/rankings?month=2026-13', 400],
      ['/api/v1/compare?companies=one', 400],
      ['/api/v1/company/no-such-company-here', 404],
      ['/api/v1/rankings?industry=no-such-industry', 404],
      ['/api/v1/rankings?month=1999-01', 404],
      ['/api/v1/rankings/no-such-industry/us', 404],
      [`/api/v1/compare?companies=${e.compare[0]},no-such-company-here`, 404],
    ];
    if (noData) urls.push([`/api/v1/company/${noData.slug}?country=us`, 404]);
    for (const [url, status] of urls) {
      const res = await fetch(`${server.url}${url}`);
      const text = await res.text();
      expect(res.status, `${url}: ${text.slice(0, 200)}`).toBe(status);
      check(url, status, JSON.parse(text));
    }
  });
});

describe('pages', () => {
  let pages: { path: string; html: string }[];
  beforeAll(() => {
    pages = walk(dist)
      .filter((f) => f.endsWith('.html'))
      .map((f) => ({ path: relative(dist, f).replace(/\\/g, '/'), html: readFileSync(f, 'utf8') }));
  });

  it('has a page for the home, the docs and every company', () => {
    const paths = new Set(pages.map((p) => p.path));
    expect(paths).toContain('index.html');
    expect(paths).toContain('api-docs/index.html');
    for (const f of readdirSync(join(dist, 'views/company'))) expect(paths).toContain(`company/${f.replace(/\.json$/, '')}/index.html`);
  });

  it(`keeps every page within ${PAGE_BUDGET / 1024} KB before compression`, () => {
    const sizes = pages.map((p) => ({ path: p.path, bytes: Buffer.byteLength(p.html) })).sort((a, b) => b.bytes - a.bytes);
    console.info(`largest pages: ${sizes.slice(0, 3).map((s) => `${s.path} ${(s.bytes / 1024).toFixed(1)} KB`).join(', ')}; ${sizes.length} pages`);
    for (const s of sizes) expect(s.bytes, s.path).toBeLessThanOrEqual(PAGE_BUDGET);
  });

  it('declares the language, has one h1 and headings in order', () => {
    for (const { path, html } of pages) {
      expect(html, path).toMatch(/<html lang="en"/);
      expect(html.match(/<h1\b/g)?.length, `${path}: one h1`).toBe(1);
      const levels = [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
      expect(levels[0], `${path}: starts with h1`).toBe(1);
      levels.forEach((l, i) => {
        if (i > 0) expect(l, `${path}: heading ${i} (h${l}) after h${levels[i - 1]}`).toBeLessThanOrEqual(levels[i - 1]! + 1);
      });
    }
  });

  it('labels every form field', () => {
    for (const { path, html } of pages) {
      for (const [input] of html.matchAll(/<input\b[^>]*>/g)) {
        if (/type="(hidden|submit|button)"/.test(input)) continue;
        const id = /\bid="([^"]+)"/.exec(input)?.[1];
        // Or wrapped in its label: the last <label> before the input is still open.
        const before = html.slice(0, html.indexOf(input));
        const wrapped = before.lastIndexOf('<label>') > before.lastIndexOf('</label>');
        const labelled = wrapped || /aria-label(ledby)?="/.test(input) || (id !== undefined && html.includes(`<label for="${id}"`));
        expect(labelled, `${path}: ${input}`).toBe(true);
      }
    }
  });

  it('uses text colours that pass WCAG AA (4.5:1)', () => {
    const html = read('api-docs/index.html');
    const css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n') + walk(dist).filter((f) => f.endsWith('.css')).map((f) => readFileSync(f, 'utf8')).join('\n');
    const vars = Object.fromEntries([...css.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1]!, m[2]!]));
    const lum = (hex: string) => {
      const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
    };
    const ratio = (a: string, b: string) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x! + 0.05) / (y! + 0.05);
    };
    for (const fg of ['text', 'muted', 'link']) for (const bg of ['bg', 'panel']) expect(ratio(vars[fg]!, vars[bg]!), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  it('the docs are complete without script: endpoints, examples, errors, limits, versioning, methodology', () => {
    const html = read('api-docs/index.html');
    const t = text(html);
    expect(html).toMatch(/<section id="methodology"/);
    has(t, meta.name);
    has(html, 'href="/"');
    for (const path of Object.keys(json<{ paths: object }>('api/v1/openapi.json').paths)) has(t, `GET ${path}`, path);
    for (const link of Object.values(meta.index.links).map(local)) expect(['&', '&amp;', '&#38;'].some((amp) => html.includes(`href="${link.replace(/&/g, amp)}"`)), link).toBe(true);
    for (const code of ['bad_request', 'not_found', 'rate_limited', 'internal']) has(t, code);
    has(t, 'Retry-After');
    has(t, meta.index.rateLimit!);
    has(t, `methodology version ${meta.methodology.version}`);
    const methodology = text(html.slice(html.indexOf('<section id="methodology"')));
    for (const m of [...meta.methodology.models, ...(meta.researchModels ?? []), ...(meta.themes ?? [])]) has(methodology, m, m);
    expect(meta.themes?.length).toBeGreaterThan(0);
    expect(t).toMatch(/arrays and maps longer than \d items? \(\d+ items left out, marked “\/\/ …”\)/);
    // Without script the search box leads to the HTML results page, never to the JSON.
    expect(html).toMatch(/<form class="search" action="\/search\/" method="get"/);
    // No literal Markdown: the descriptions' `code` spans are <code> elements.
    expect(t).not.toContain('`');
    expect(html).toMatch(/<script type="module"/);
  });

  it('the home page shows the overall leaderboard and the industries', () => {
    const html = read('index.html');
    const t = text(html);
    const board = json<RankingsResponse>('api/v1/rankings.json');
    for (const r of board.rankings) {
      has(t, r.company);
      has(html, `href="/company/${r.slug}/"`);
    }
    for (const slug of meta.boards[meta.month]!.us ?? []) has(t, meta.industries.find((i) => i.slug === slug)!.name);
  });

  it('profile pages show score, ranks, bars, other industries and an SVG history chart', () => {
    let withData = 0;
    let without = 0;
    for (const f of readdirSync(join(dist, 'views/company'))) {
      const v = json<CompanyView>(`views/company/${f}`);
      const html = read(`company/${v.slug}/index.html`);
      const t = text(html);
      has(t, v.company);
      if (!v.defaultCountry) {
        has(t, `${v.company} has no data in the current month (${meta.month})`, v.slug);
        without++;
        continue;
      }
      withData++;
      const p = v.profiles[v.defaultCountry]!;
      const first = html.indexOf('<section');
      expect(html.indexOf(`id="country-${v.defaultCountry}"`), `${v.slug}: default country first`).toBe(html.indexOf('id="country-', first));
      has(t, p.summary);
      has(t, `${p.industryRank} of ${p.totalCompaniesInIndustry}`);
      has(t, `${p.overallRank} of ${p.totalCompaniesInCountry}`);
      expect(html).toMatch(/<svg[^>]*role="img"[\s\S]*?<path d="M[\d.]+ [\d.]+/);
      expect(html.match(/<circle /g)?.length).toBeGreaterThanOrEqual(p.history.length);
      has(html, `href="${local(p.apiUrl)}"`);
      for (const o of p.otherIndustries) has(t, o.industry);
      for (const theme of Object.keys(p.themes)) has(t, theme);
      for (const code of Object.keys(v.profiles)) has(html, `id="country-${code}"`);
    }
    console.info(`profiles: ${withData} with data, ${without} without data this month`);
    expect(withData).toBeGreaterThan(0);
  });

  it('the search index behind the search box finds a misspelled name', () => {
    const index = loadSearchIndex(json('views/search-index.json'));
    const name = meta.examples.search;
    // Two letters swapped (dropping one can land on a real lookalike, such as Astholm for Astuholm).
    const typo = name.slice(0, 2) + name[3] + name[2] + name.slice(4);
    expect(searchCompanies(index, typo, { limit: 5 })[0]?.slug).toBe(meta.examples.company);
  });
});

describe('found by search engines', () => {
  it('a sitemap of every page, robots.txt naming it, canonical, description and Open Graph tags', () => {
    const map = read('sitemap.xml');
    const locs = [...map.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const profiles = readdirSync(join(dist, 'company'));
    expect(locs).toContain(`${meta.siteUrl}/`);
    expect(locs).toContain(`${meta.siteUrl}/api-docs/`);
    for (const slug of profiles) expect(locs).toContain(`${meta.siteUrl}/company/${slug}/`);
    expect(read('robots.txt')).toContain(`Sitemap: ${meta.siteUrl}/sitemap.xml`);
    const html = read(`company/${meta.examples.company}/index.html`);
    has(html, `<link rel="canonical" href="${meta.siteUrl}/company/${meta.examples.company}/"`);
    has(html, '<meta name="description"');
    has(html, `<meta property="og:url" content="${meta.siteUrl}/company/${meta.examples.company}/"`);
    has(html, '<meta name="twitter:card" content="summary"');
  });
});

describe('leaderboards as pages', () => {
  it('one page per country and per country x industry of the current month, with the top 100 of the API, linked from home and profiles', () => {
    const current = meta.boards[meta.month]!;
    for (const [country, industries] of Object.entries(current))
      for (const industry of ['all', ...industries]) {
        const html = read(`leaderboards/${country}/${industry}/index.html`);
        const b = json<{ rows: [string, string][] }>(`views/rankings/${meta.month}/${country}/${industry}.json`);
        const rows = [...html.matchAll(/<td><a href="\/company\/([^/]+)\/">/g)].map((m) => m[1]);
        expect(rows, `${country}/${industry}`).toEqual(b.rows.slice(0, 100).map((r) => r[0]));
        has(html, `/api/v1/months/${meta.month}/rankings?country=${country}`);
        has(html, `/downloads/${meta.month}/leaderboards.csv.gz`);
        expect(Buffer.byteLength(html), `${country}/${industry}`).toBeLessThan(100 * 1024);
      }
    has(read('index.html'), `href="/leaderboards/${meta.examples.country}/all/"`);
    has(read(`company/${meta.examples.company}/index.html`), '/leaderboards/');
  });
});

describe('docs snippets', () => {
  it('every endpoint has a copyable curl, fetch and requests example on its real example URL, and the curl one answers', async () => {
    const html = read('api-docs/index.html');
    const decode = (t: string) => t.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
    const curls = [...html.matchAll(/<code>(curl -sS &#39;[^<]+)<\/code>/g)].map((m) => decode(m[1]!));
    const paths = Object.keys(json<{ paths: object }>('api/v1/openapi.json').paths);
    expect(curls.length).toBe(paths.length);
    expect((html.match(/await fetch\(/g) ?? []).length).toBe(paths.length);
    expect((html.match(/requests\.get\(/g) ?? []).length).toBe(paths.length);
    for (const c of curls) {
      const url = /curl -sS '([^']+)'/.exec(c)![1]!;
      const res = await fetch(`${server.url}${local(url)}`);
      await res.arrayBuffer();
      expect(res.status, url).toBe(200);
    }
  });
});

describe('docs: response fields and try-it forms', () => {
  type Schema = { properties?: Record<string, Schema>; items?: Schema; additionalProperties?: Schema | boolean; anyOf?: Schema[]; $ref?: string; description?: string };
  /** Every field name of a schema, nested anonymous objects included (shared objects have their own table). */
  const names = (s: Schema): string[] =>
    Object.entries(s.properties ?? {}).flatMap(([name, f]) => {
      const inner = f.anyOf?.find((o) => o.$ref || o.properties || o.items) ?? f;
      const obj = inner.items ?? (typeof inner.additionalProperties === 'object' ? inner.additionalProperties : undefined) ?? inner;
      return [name, ...(obj.$ref ? [] : names(obj))];
    });

  it('every response object has a field table generated from its schema: each field with a type and a meaning', () => {
    const html = read('api-docs/index.html');
    const doc = json<{ paths: Record<string, { get: { responses: { 200: { content: { 'application/json': { schema: Schema } } } } } }>; components: { schemas: Record<string, Schema> } }>('api/v1/openapi.json');
    const ids = new Set(['Error']);
    for (const p of Object.values(doc.paths)) {
      const ref = p.get.responses[200].content['application/json'].schema.$ref;
      if (ref) ids.add(ref.split('/').pop()!);
    }
    for (const s of Object.values(doc.components.schemas)) for (const m of JSON.stringify(s).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) ids.add(m[1]!);
    expect(ids.size).toBeGreaterThanOrEqual(14);
    for (const id of ids) {
      const start = html.indexOf(`<table class="fields" id="schema-${id}">`);
      expect(start, `field table of ${id}`).toBeGreaterThan(-1);
      const table = html.slice(start, html.indexOf('</table>', start));
      const rows = [...table.matchAll(/<tr[^>]*><td><code>\.?([^<]+)<\/code><\/td><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/g)];
      expect(rows.map((r) => r[1]), id).toEqual(names(doc.components.schemas[id]!));
      for (const [, name, type, meaning] of rows) {
        expect(text(type!).trim(), `${id}.${name} type`).not.toBe('');
        expect(text(meaning!).trim().length, `${id}.${name} has a meaning`).toBeGreaterThan(3);
      }
      // Shared objects are links to their own table.
      for (const m of table.matchAll(/href="#schema-([^"]+)"/g)) has(html, `id="schema-${m[1]}"`, id);
    }
  });

  it('every endpoint has a try-it form that, without script, is a GET form landing on the JSON', async () => {
    const html = read('api-docs/index.html');
    const forms = [...html.matchAll(/<form class="try" action="([^"]+)" method="get" data-try="([^"]+)"[\s\S]*?<\/form>/g)];
    const paths = Object.keys(json<{ paths: object }>('api/v1/openapi.json').paths);
    expect(forms.map((f) => f[2])).toEqual(paths);
    for (const [form, action] of forms) {
      // The query the form sends by default: its named inputs with their values (path inputs are disabled).
      const query = new URLSearchParams();
      for (const m of form!.matchAll(/<input name="([^"]+)"(?: value="([^"]*)")?/g)) query.set(m[1]!, (m[2] ?? '').replace(/&amp;/g, '&'));
      expect(form).not.toMatch(/<input data-path="[^"]+"(?![^>]*disabled)/);
      const res = await fetch(`${server.url}${action}?${query}`);
      expect(res.status, `${action}?${query}`).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      await res.arrayBuffer();
    }
  });
});

describe('sample data that looks real', () => {
  it.skipIf(process.env.EVI_TEST_DATA !== undefined)('few perfect scores, a long tail, no board opening with a long tie', () => {
    const csv = Papa.parse<Record<string, string>>(gunzipSync(readFileSync(join(dist, `downloads/${meta.month}/leaderboards.csv.gz`))).toString('utf8'), { header: true, skipEmptyLines: true });
    const entries = csv.data.filter((r) => r.leaderboard !== 'all');
    const scores = entries.map((r) => Number(r.visibility_score)).sort((a, b) => a - b);
    const at = (q: number) => scores[Math.floor(q * (scores.length - 1))]!;
    const perfect = scores.filter((x) => x === 100).length / scores.length;
    console.info(`sample ${meta.month}: ${scores.length} entries, ${(perfect * 100).toFixed(1)}% at 100, quartiles ${at(0.25)} / ${at(0.5)} / ${at(0.75)}`);
    expect(scores.length).toBeGreaterThan(1000);
    expect(perfect).toBeLessThan(0.02);
    expect(at(0.5)).toBeLessThan(40);
    expect(at(0.75) - at(0.25)).toBeGreaterThan(20);
    const top = new Map<string, number[]>();
    for (const r of entries) top.set(`${r.country_code}/${r.leaderboard}`, [...(top.get(`${r.country_code}/${r.leaderboard}`) ?? []), Number(r.visibility_score)]);
    for (const [board, list] of top) expect(list.filter((x) => x === Math.max(...list)).length, board).toBeLessThanOrEqual(3);
  });
});
