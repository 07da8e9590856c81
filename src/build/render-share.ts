/**
 * A share of the page workers' job (see render-pages.ts), run by each worker thread and by
 * the main thread: renders its share of the paths of each route it is given from the
 * module Astro compiled for that route, through Astro's container API, and writes each
 * page where Astro's own pipeline would, with what Astro's pipeline puts before `</head>`
 * and the container cannot know (the route's stylesheet links: the route's `chrome`,
 * taken by `makeRecipe` from Astro's own file of the route's first page, which stops
 * unless the rest is Astro's file byte for byte).
 *
 * The routes without parameters (the home page, /search/, /api-docs/, 404, llms.txt,
 * sitemap.xml, robots.txt, ...) are rendered the same way by `renderStatics` when the
 * compiled modules come from the build cache (pages-cache.ts) and Astro did not run.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import type { SSRManifest, SSRResult } from 'astro';
import { createComponent, render as renderTemplate, renderToString } from 'astro/runtime/server/index.js';
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import { ByteBuilder } from './byte-builder.ts';
import { collectGarbage } from './gc.ts';
import { chromeOf, outFileOf, withChrome } from './page-chrome.ts';
import type { StaticPath } from './page-chrome.ts';
import { filesUnder } from './pages-cache.ts';
import type { PagesRecipe, RouteRecipe } from './pages-cache.ts';

export interface RenderJob {
  /** The compiled modules' folder (absolute) and what to render from it. */
  serverDir: string;
  manifest: string;
  /** The routes with parameters; `from`: the first path to render (1 when Astro's pipeline wrote the first). */
  routes: (RouteRecipe & { from: number })[];
  outDir: string;
  /** This worker takes the paths whose index modulo `workers` is `worker`. */
  worker: number;
  workers: number;
  /**
   * Only the paths whose parameter `param` is one of `values` (before the share is taken):
   * the profiles of the companies whose views are on disk, handed over as they are written.
   */
  only?: { param: string; values: string[] };
}

export interface RenderDone {
  pages: number;
  bytes: number;
  /** CPU seconds of the thread that rendered the share (user + system; Linux, else null). */
  cpu: number | null;
  /** Of which system (mostly the page files' writes and folders). */
  sys: number | null;
}

/** CPU seconds (user, system) of the calling thread, from /proc/thread-self/stat (utime, stime in clock ticks, taken as 100 a second). */
function threadCpu(): { user: number; sys: number } | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(f[11]) / 100, sys: Number(f[12]) / 100 };
  } catch {
    return null;
  }
}

type PageModule = {
  default?: AstroComponentFactory;
  GET?: unknown;
  /** Absent from an endpoint's module. */
  file?: string;
  url: string;
  getStaticPaths?: () => StaticPath[] | Promise<StaticPath[]>;
};

async function loadPage(serverDir: string, route: { module: string; component: string }): Promise<PageModule> {
  const { page } = (await import(pathToFileURL(join(serverDir, route.module)).href)) as { page: () => Promise<PageModule> };
  const mod = await page();
  if (mod.file !== undefined && !mod.file.endsWith(`/${route.component}`)) throw new Error(`page workers: ${route.module} is ${mod.file}, not ${route.component}`);
  return mod;
}

// A container keeps every route it rendered (its manifest's route list grows by one a page): start a fresh one now and then.
const PAGES_PER_CONTAINER = 500;
let container: AstroContainer | undefined;
let used = 0;
let manifest: SSRManifest | undefined;

/** Takes the compiled manifest (what the container needs to write a component's `<script>` as Astro's build does), and a fresh container when it is another. */
async function useManifest(serverDir: string, file: string): Promise<void> {
  const m = ((await import(pathToFileURL(join(serverDir, file)).href)) as { manifest: SSRManifest }).manifest;
  if (m !== manifest) container = undefined;
  manifest = m;
}

async function fresh(): Promise<AstroContainer> {
  const m = manifest!;
  // A script of a component is either inlined (the manifest holds its text) or a bundled file under /_astro/.
  const resolve = async (specifier: string) => {
    const file = m.entryModules[specifier];
    if (!file) throw new Error(`pages: the compiled manifest has no bundle for ${specifier}`);
    return `${m.base.replace(/\/$/, '')}/${file}`;
  };
  return AstroContainer.create({ manifest: { ...m, routes: [] }, resolve });
}

/** The page's bytes as the container renders it (taken as bytes: no decoding and encoding again). */
async function render(mod: PageModule, p: StaticPath, kind: 'page' | 'endpoint' = 'page'): Promise<Buffer> {
  if (!container || used++ >= PAGES_PER_CONTAINER) {
    container = await fresh();
    used = 1;
  }
  const res =
    kind === 'endpoint'
      ? await container.renderToResponse(mod as unknown as AstroComponentFactory, { routeType: 'endpoint' })
      : await container.renderToResponse(mod.default!, { params: p.params, props: p.props ?? {}, partial: false });
  if (res.status !== 200) throw new Error(`pages: ${mod.file ?? 'an endpoint'} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/**
 * Renders the pages of one route with parameters straight to a string, with Astro's own
 * `renderToString` (what its pipeline calls for a page when it does not stream), instead of
 * a whole request through the container per page (a Request, a URL, a render context, the
 * middleware chain, a Response and its stream, then the bytes read back). The page-level
 * part of Astro's render (the `result` every component of a page shares, and the `Astro`
 * object's page part) is made once, by the container itself rendering a probe component
 * that keeps what it is given; each page then gets a fresh `_metadata` (head rendered or
 * not, scripts written, ...), and the route's parameters are written into the one params
 * object the `Astro` objects read (`Astro.params`). Components of these routes may read
 * `Astro.props` and `Astro.params`; the rest of the page-level `Astro` (url, request) is
 * the probe's, as the container's was (it renders every page at https://example.com/).
 * The route's first page rendered this way is checked against Astro's own file on every
 * compile (`makeRecipe`), and `test/page-workers.test.ts` checks every page of the sample.
 */
async function routeRenderer(mod: PageModule): Promise<(p: StaticPath) => Promise<string>> {
  container ??= await fresh();
  const params: StaticPath['params'] = {};
  let shared: { result: SSRResult; metadata: [string, unknown][] } | undefined;
  const probe = createComponent((result: SSRResult) => {
    // The page-level record as Astro makes it for a new page, before anything is rendered.
    shared = { result, metadata: Object.entries(result._metadata) };
    return renderTemplate``;
  });
  const res = await container.renderToResponse(probe, { params, props: {}, partial: false });
  if (res.status !== 200 || !shared) throw new Error(`pages: the probe of ${mod.file} answered ${res.status}`);
  const { result, metadata } = shared;
  const page = mod.default!;
  const headInTree = result.componentMetadata.get((page as { moduleId?: string }).moduleId ?? '')?.containsHead ?? false;
  return async (p) => {
    for (const k of Object.keys(params)) delete params[k];
    Object.assign(params, p.params);
    const record: Record<string, unknown> = {};
    for (const [k, v] of metadata) record[k] = v instanceof Set ? new Set(v) : Array.isArray(v) ? [...v] : v;
    result._metadata = record as unknown as SSRResult['_metadata'];
    // What renderPage does before it renders a page.
    result._metadata.headInTree = headInTree;
    result.cancelled = false;
    const html = await renderToString(result, page, p.props ?? {}, {}, true);
    if (typeof html !== 'string' || result.response.status !== 200) throw new Error(`pages: ${mod.file} did not render as a page (${typeof html === 'string' ? result.response.status : 'a Response'})`);
    return html;
  };
}

/** Where Astro's static build writes a route without parameters (build.format 'directory'). */
function staticOut(route: string, kind: 'page' | 'endpoint'): string {
  if (kind === 'endpoint') return route.replace(/^\/+/, '');
  if (route === '/404' || route === '/500') return `${route.slice(1)}.html`;
  return join(route.replace(/^\/+/, ''), 'index.html');
}

/** The page modules Astro compiled, from its manifest's entry modules: `\0@astro-page:src/pages/x@_@astro` -> `pages/x.astro.mjs`. */
function pageModules(m: SSRManifest): { component: string; module: string }[] {
  return Object.entries(m.entryModules)
    .map(([k, module]) => ({ match: /^\0@astro-page:(.+)@_@(\w+)$/.exec(k), module }))
    .filter((e) => e.match !== null)
    .map(({ match, module }) => ({ component: `${match![1]}.${match![2]}`, module }))
    .sort((a, b) => (a.component < b.component ? -1 : 1));
}

/**
 * After Astro's build (which rendered every route without parameters and the first page
 * of each route in `workerRoutes`, into `outDir`): how to render each route again from
 * the compiled modules in `serverDir`, checked against Astro's files. The chrome of
 * `workerRoutes` is required (an error otherwise, as before); any other route that the
 * container cannot render as Astro did makes the recipe null (`why`: the build goes on
 * with Astro's pages and keeps no cache entry).
 */
export async function makeRecipe(serverDir: string, outDir: string, workerRoutes: string[]): Promise<{ recipe: PagesRecipe | null; why: string; workers: RouteRecipe[]; manifest: string }> {
  const manifestFile = readdirSync(serverDir).find((f) => /^manifest_[\w-]+\.mjs$/.test(f));
  if (!manifestFile) throw new Error(`pages: Astro's compiled manifest is not in ${serverDir}`);
  await useManifest(serverDir, manifestFile);
  const m = manifest!;
  const routes: RouteRecipe[] = [];
  const workers: RouteRecipe[] = [];
  const outputs = new Set<string>();
  let why = '';
  for (const { component, module } of pageModules(m)) {
    const mod = await loadPage(serverDir, { component, module });
    const kind = mod.default ? 'page' : 'endpoint';
    if (workerRoutes.includes(component)) {
      const paths = await mod.getStaticPaths!();
      let chrome = '';
      if (paths.length > 0) {
        const reference = outFileOf(mod.url, paths[0]!.params);
        outputs.add(reference);
        chrome = chromeOf(readFileSync(join(outDir, reference), 'utf8'), await (await routeRenderer(mod))(paths[0]!), `/${reference}`);
      }
      const r: RouteRecipe = { component, module, kind, out: null, chrome };
      routes.push(r);
      workers.push(r);
      continue;
    }
    const route = m.routes.find((r) => r.routeData.component === component)?.routeData;
    if (!route || route.params.length > 0 || mod.getStaticPaths) {
      why ||= `${component} has parameters and is not rendered by the page workers`;
      continue;
    }
    const out = staticOut(route.route, kind);
    const astro = existsSync(join(outDir, out)) ? readFileSync(join(outDir, out)) : null;
    if (!astro) {
      why ||= `Astro's file of ${component} is not at ${out}`;
      continue;
    }
    const own = await render(mod, { params: {} }, kind);
    let chrome = '';
    try {
      if (kind === 'page') chrome = chromeOf(astro.toString('utf8'), own.toString('utf8'), `/${out}`);
      else if (!own.equals(astro)) throw new Error(`the container's ${out} differs from Astro's`);
    } catch (e) {
      why ||= (e as Error).message;
      continue;
    }
    outputs.add(out);
    routes.push({ component, module, kind, out, chrome });
  }
  // Astro's content-layer manifests land in a custom outDir; a static site does not need them (build-pages.ts removes them).
  const statics = filesUnder(outDir, outDir).filter((f) => !outputs.has(f) && f !== 'content-assets.mjs' && f !== 'content-modules.mjs');
  return { recipe: why ? null : { routes, manifest: manifestFile, statics }, why, workers, manifest: manifestFile };
}


/** The routes without parameters of a cache hit, for a page worker thread to render ({@link renderStaticsShare}). */
export interface StaticsJob {
  serverDir: string;
  recipe: PagesRecipe;
  outDir: string;
}

/** What a rendering thread is handed: a share of the routes with parameters, or (`statics`) the routes without. */
export type PageJob = RenderJob | { statics: StaticsJob };

/** Renders a {@link PageJob}: {@link renderShare} or {@link renderStaticsShare}. */
export function renderPageJob(job: PageJob): Promise<RenderDone> {
  return 'statics' in job ? renderStaticsShare(job.statics) : renderShare(job);
}

/** {@link renderStatics} as a page worker thread's share: the pages, their bytes and the thread's CPU. */
async function renderStaticsShare(job: StaticsJob): Promise<RenderDone> {
  const cpu0 = threadCpu();
  const { pages, bytes } = await renderStatics(job.serverDir, job.recipe, job.outDir);
  return { pages, bytes, ...cpuSince(cpu0) };
}

/** The calling thread's CPU seconds (user + system, and system) since `cpu0`; null off Linux. */
function cpuSince(cpu0: { user: number; sys: number } | null): { cpu: number | null; sys: number | null } {
  const cpu1 = threadCpu();
  if (cpu0 === null || cpu1 === null) return { cpu: null, sys: null };
  const sys = cpu1.sys - cpu0.sys;
  return { cpu: cpu1.user - cpu0.user + sys, sys };
}

/** Renders every route without parameters of `recipe` into `outDir` (a cache hit: Astro did not run). */
export async function renderStatics(serverDir: string, recipe: PagesRecipe, outDir: string): Promise<{ pages: number; bytes: number }> {
  await useManifest(serverDir, recipe.manifest);
  const folderOf = folders();
  let pages = 0;
  let bytes = 0;
  for (const r of recipe.routes) {
    if (r.out === null) continue;
    const mod = await loadPage(serverDir, r);
    const own = await render(mod, { params: {} }, r.kind);
    const body = r.kind === 'page' ? withChrome(own, Buffer.from(r.chrome)) : own;
    const file = join(outDir, r.out);
    folderOf(file);
    writeFileSync(file, body);
    pages++;
    bytes += body.length;
  }
  return { pages, bytes };
}

/** Makes the folder of each file written, remembering those made: a page's own folder is one mkdir, without the recursive walk over its parents. */
function folders(): (file: string) => void {
  const made = new Set<string>();
  return (file) => {
    const dir = dirname(file);
    if (made.has(dir)) return;
    if (!made.has(dirname(dir))) mkdirSync(dirname(dir), { recursive: true });
    made.add(dirname(dir));
    try {
      mkdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    made.add(dir);
  };
}

const HEAD_END = '</head>';

/**
 * The page's UTF-8 bytes with `chrome` before its first `</head>` (what chromeParts does
 * to `Buffer.from(html)`), encoded into one buffer of this thread reused from page to
 * page (a ByteBuilder started from it, grown when a page needs more), not a
 * new buffer a page: ~0.5 GB of short-lived buffers outside the heap at reference scale,
 * each counted by V8 as external memory, whose growth starts garbage collections of the
 * whole heap (the build's thread holds ~300 MiB there). `</head>` is ASCII, so the text
 * cut before it encodes to the same bytes as the whole. The bytes are valid until the
 * next call.
 */
let encoded: Buffer = Buffer.allocUnsafeSlow(1 << 18);
export function pageBytes(html: string, chrome: Buffer): Buffer {
  const page = new ByteBuilder(encoded);
  const at = chrome.length === 0 ? -1 : html.indexOf(HEAD_END);
  if (at < 0) page.append(html);
  else {
    page.append(html.slice(0, at));
    page.appendBytes(chrome);
    page.append(html.slice(at));
  }
  encoded = page.buffer;
  return page.view();
}

/** Writes `bytes` into a new `file`; returns the bytes written. */
function writePage(file: string, bytes: Buffer): number {
  const fd = openSync(file, 'w');
  try {
    // A short write (rare for a regular file) goes on with the rest.
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
    return bytes.length;
  } finally {
    closeSync(fd);
  }
}

/** What a page worker loads before its first share: the compiled manifest and the routes' modules. */
export type WarmJob = Pick<RenderJob, 'serverDir' | 'manifest' | 'routes'>;

/**
 * Loads the compiled manifest, the routes' modules (Astro's runtime with them) and a
 * container, without reading any view: a page worker started before the views it renders
 * are written does its start-up then, and its first share renders at once.
 */
export async function warmUp(job: WarmJob): Promise<void> {
  await useManifest(job.serverDir, job.manifest);
  for (const route of job.routes) await loadPage(job.serverDir, route);
  container ??= await fresh();
}

/**
 * A rendering thread's heap kept near what is live: each page's text and objects are garbage
 * once written, but those alive across a scavenge (a page is rendered over awaits) are
 * promoted, and V8 lets the old generation grow to a multiple of what was live at its last
 * full collection. In the build's thread, after Astro's build, that was ~500 MiB of heap for
 * ~130 MiB live (EVI_MEMLOG, a reference build compiling its pages), on top of the page
 * worker's: the cold build's peak. `page()` after each page written: every `every` pages it
 * looks at the heap, and collects it once it has grown by `headroom` past what the last
 * collection left (or past the heap at the first look).
 */
export class HeapKeeper {
  #limit = -1;
  #since = 0;
  #pages = 0;
  /** Collections made, and their milliseconds. */
  collections = 0;
  ms = 0;

  constructor(
    private readonly headroom: number,
    private readonly every: number,
    private readonly used: () => number = () => getHeapStatistics().used_heap_size,
    private readonly collect: () => void = collectGarbage,
  ) {}

  page(): void {
    if (++this.#since < this.every) return;
    this.#since = 0;
    this.#pages += this.every;
    const used = this.used();
    if (this.#limit < 0) this.#limit = used + this.headroom;
    if (used <= this.#limit) return;
    const t = performance.now();
    try {
      this.collect();
    } catch {
      // the heap is collected when V8 decides
    }
    this.ms += performance.now() - t;
    this.collections++;
    this.#limit = this.used() + this.headroom;
  }
}

/**
 * This thread's keeper, across its shares: 128 MiB of headroom, looked at every 100 pages.
 * A monthly reference build compiling its pages: peak RSS 931 and 964 MiB instead of 1,297
 * and 1,303 (A/B, alternated), the build thread's share ~1 s more CPU (3 collections, ~0.2 s
 * each, for ~6,000 pages); a cold reference build: 1,150 MiB instead of 1,424-1,478
 * (BENCHMARKS.md, "Build: the rendering threads' heaps").
 */
const heap = new HeapKeeper(128 * 1048576, 100);

/** Renders the share `job.worker` of `job.workers` of every route's paths from its `from`, and writes the pages. */
export async function renderShare(job: RenderJob): Promise<RenderDone> {
  const cpu0 = threadCpu();
  await useManifest(job.serverDir, job.manifest);
  const folderOf = folders();
  let pages = 0;
  let bytes = 0;
  for (const route of job.routes) {
    const mod = await loadPage(job.serverDir, route);
    let paths = await mod.getStaticPaths!();
    if (job.only) {
      const { param, values } = job.only;
      const keep = new Set(values);
      paths = paths.filter((p) => keep.has(String(p.params[param])));
    }
    const chrome = Buffer.from(route.chrome);
    const renderPage = await routeRenderer(mod);
    for (let i = route.from + job.worker; i < paths.length; i += job.workers) {
      const p = paths[i]!;
      const file = join(job.outDir, outFileOf(mod.url, p.params));
      const page = pageBytes(await renderPage(p), chrome);
      folderOf(file);
      bytes += writePage(file, page);
      pages++;
      heap.page();
    }
  }
  return { pages, bytes, ...cpuSince(cpu0) };
}
