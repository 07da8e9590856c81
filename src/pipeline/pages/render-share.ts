/**
 * A page worker's share (render-pages.ts): renders its share of each route's paths from the
 * module Astro compiled, and writes each page as Astro's pipeline would, with the route's
 * `chrome` (stylesheet links the container cannot know) before `</head>`.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import type { SSRManifest, SSRResult } from 'astro';
import { createComponent, render as renderTemplate, renderToString } from 'astro/runtime/server/index.js';
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import { ByteBuilder } from '../write/byte-builder.ts';
import { SpoolWriter } from '../write/spool.ts';
import { packedGroup, type PackSizes } from '../../core/views/packs.ts';
import { collectGarbage } from '../workers/gc.ts';
import { chromeOf, outFileOf, withChrome } from './page-chrome.ts';
import type { StaticPath } from './page-chrome.ts';
import { filesUnder } from './pages-cache.ts';
import type { PagesRecipe, RouteRecipe } from './pages-cache.ts';

export interface RenderJob {
  /** The compiled modules' folder (absolute) and manifest. */
  serverDir: string;
  manifest: string;
  /** `from`: the first path to render (1 when Astro's pipeline wrote the first). */
  routes: (RouteRecipe & { from: number })[];
  outDir: string;
  /** This worker takes the paths whose index modulo `workers` is `worker`. */
  worker: number;
  workers: number;
  /** Only the paths whose `param` is one of `values`: the profiles whose views are on disk. */
  only?: { param: string; values: string[] };
  /** A site surely packed, cut by `sizes`: the pages that go into packs go into spools in `dir` (spool.ts). */
  spool?: { dir: string; sizes: PackSizes };
}

export interface RenderDone {
  pages: number;
  bytes: number;
  /** CPU seconds of the thread (user + system; Linux, else null). */
  cpu: number | null;
  /** Of which system. */
  sys: number | null;
}

/** CPU seconds (user, system) of the calling thread, from /proc/thread-self/stat. */
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

// A container keeps every route it rendered: start a fresh one now and then.
const PAGES_PER_CONTAINER = 500;
let container: AstroContainer | undefined;
let used = 0;
let manifest: SSRManifest | undefined;

/** Takes the compiled manifest (for components' `<script>`s); a new one drops the container. */
async function useManifest(serverDir: string, file: string): Promise<void> {
  const m = ((await import(pathToFileURL(join(serverDir, file)).href)) as { manifest: SSRManifest }).manifest;
  if (m !== manifest) container = undefined;
  manifest = m;
}

async function fresh(): Promise<AstroContainer> {
  const m = manifest!;
  // A component's script is either inlined or a bundled file under /_astro/.
  const resolve = async (specifier: string) => {
    const file = m.entryModules[specifier];
    if (!file) throw new Error(`pages: the compiled manifest has no bundle for ${specifier}`);
    return `${m.base.replace(/\/$/, '')}/${file}`;
  };
  return AstroContainer.create({ manifest: { ...m, routes: [] }, resolve });
}

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
 * Renders a route's pages with Astro's own `renderToString`, not a whole request through the
 * container per page. The page-level `result` comes once from a probe component rendered by the
 * container; each page gets fresh `_metadata` and its params (`makeRecipe` checks the output).
 */
async function routeRenderer(mod: PageModule): Promise<(p: StaticPath) => Promise<string>> {
  container ??= await fresh();
  const params: StaticPath['params'] = {};
  let shared: { result: SSRResult; metadata: [string, unknown][] } | undefined;
  const probe = createComponent((result: SSRResult) => {
    shared = { result, metadata: Object.entries(result._metadata) };
    return renderTemplate``;
  });
  const res = await container.renderToResponse(probe, { params, props: {}, partial: false });
  if (res.status !== 200 || !shared) throw new Error(`pages: the probe of ${mod.file} answered ${res.status}`);
  const { result, metadata } = shared;
  result.createAstro = astroOfOneShape(result.createAstro);
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

/**
 * `result.createAstro` (what each component calls for its `Astro` object) making objects of one
 * hidden class. Astro's own defines a `slots` getter on each object, a new closure each time,
 * whose scope holds the component's slots (the page's markup): V8 keeps such objects in
 * dictionary mode and the getters outlive the page's young-generation collections, so each
 * page's markup was promoted. Here `slots` is one accessor on a prototype the objects share;
 * it answers with Astro's own `slots` for the same arguments, made at the first read. The
 * objects' own enumerable properties are Astro's: `props`, `self`.
 */
export function astroOfOneShape(create: SSRResult['createAstro']): SSRResult['createAstro'] {
  type Args = Parameters<SSRResult['createAstro']>;
  const ARGS = Symbol('createAstro arguments');
  const SLOTS = Symbol('slots');
  let shared: object | undefined;
  return (...args: Args) => {
    if (!shared) {
      shared = Object.create(Object.getPrototypeOf(create(...args)) as object, {
        slots: {
          get(this: { [ARGS]: Args; [SLOTS]?: unknown }) {
            return (this[SLOTS] ??= create(...this[ARGS]).slots);
          },
        },
      }) as object;
    }
    const astro = Object.create(shared) as ReturnType<SSRResult['createAstro']> & { [ARGS]: Args };
    astro.props = args[1];
    astro.self = null as never;
    astro[ARGS] = args;
    return astro;
  };
}

/** Where Astro's static build writes a route without parameters (build.format 'directory'). */
function staticOut(route: string, kind: 'page' | 'endpoint'): string {
  if (kind === 'endpoint') return route.replace(/^\/+/, '');
  if (route === '/404' || route === '/500') return `${route.slice(1)}.html`;
  return join(route.replace(/^\/+/, ''), 'index.html');
}

/** The page modules Astro compiled, from its manifest's entry modules. */
function pageModules(m: SSRManifest): { component: string; module: string }[] {
  return Object.entries(m.entryModules)
    .map(([k, module]) => ({ match: /^\0@astro-page:(.+)@_@(\w+)$/.exec(k), module }))
    .filter((e) => e.match !== null)
    .map(({ match, module }) => ({ component: `${match![1]}.${match![2]}`, module }))
    .sort((a, b) => (a.component < b.component ? -1 : 1));
}

/**
 * After Astro's build: how to render each route again from the compiled modules, checked against
 * Astro's files. `workerRoutes` must match; any other route that does not makes the recipe null
 * (`why`), and the build keeps Astro's pages without a cache entry.
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
  const statics = filesUnder(outDir, outDir).filter((f) => !outputs.has(f) && f !== 'content-assets.mjs' && f !== 'content-modules.mjs');
  return { recipe: why ? null : { routes, manifest: manifestFile, statics }, why, workers, manifest: manifestFile };
}


/** The routes without parameters of a cache hit, for a page worker to render. */
export interface StaticsJob {
  serverDir: string;
  recipe: PagesRecipe;
  outDir: string;
}

/** A share of the routes with parameters, or (`statics`) the routes without. */
export type PageJob = RenderJob | { statics: StaticsJob };

export function renderPageJob(job: PageJob): Promise<RenderDone> {
  return 'statics' in job ? renderStaticsShare(job.statics) : renderShare(job);
}

async function renderStaticsShare(job: StaticsJob): Promise<RenderDone> {
  const cpu0 = threadCpu();
  const { pages, bytes } = await renderStatics(job.serverDir, job.recipe, job.outDir);
  return { pages, bytes, ...cpuSince(cpu0) };
}

/** The calling thread's CPU seconds since `cpu0`; null off Linux. */
function cpuSince(cpu0: { user: number; sys: number } | null): { cpu: number | null; sys: number | null } {
  const cpu1 = threadCpu();
  if (cpu0 === null || cpu1 === null) return { cpu: null, sys: null };
  const sys = cpu1.sys - cpu0.sys;
  return { cpu: cpu1.user - cpu0.user + sys, sys };
}

/** Renders every route without parameters of `recipe` into `outDir` (a cache hit). */
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

/** Makes each file's folder, once. */
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
 * The page's UTF-8 bytes with `chrome` before its first `</head>`, encoded into one buffer reused
 * from page to page: a new buffer per page grows V8's external memory, which triggers full
 * collections. Valid until the next call.
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

function writePage(file: string, bytes: Buffer): number {
  const fd = openSync(file, 'w');
  try {
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
    return bytes.length;
  } finally {
    closeSync(fd);
  }
}

export type WarmJob = Pick<RenderJob, 'serverDir' | 'manifest' | 'routes'>;

/** Loads the manifest, the routes' modules and a container ahead of the first share. */
export async function warmUp(job: WarmJob): Promise<void> {
  await useManifest(job.serverDir, job.manifest);
  for (const route of job.routes) await loadPage(job.serverDir, route);
  container ??= await fresh();
}

/**
 * Keeps a rendering thread's heap near what is live: V8 lets the old generation grow to a
 * multiple of the last full collection's live size. Every `every` pages it collects once the
 * heap has grown by `headroom` past what the last collection left.
 */
export class HeapKeeper {
  #limit = -1;
  #since = 0;
  #pages = 0;
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

/** This thread's keeper, across its shares: it caps the build's peak memory. */
const heap = new HeapKeeper(128 * 1048576, 100);

/** Renders share `job.worker` of `job.workers` of every route's paths, and writes the pages. */
export async function renderShare(job: RenderJob): Promise<RenderDone> {
  const cpu0 = threadCpu();
  await useManifest(job.serverDir, job.manifest);
  const folderOf = folders();
  const spool = job.spool ? new SpoolWriter(job.spool.dir) : null;
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
      const path = outFileOf(mod.url, p.params);
      const page = pageBytes(await renderPage(p), chrome);
      if (spool && packedGroup(path, page.length, job.spool!.sizes) !== null) spool.add(path, page);
      else {
        const file = join(job.outDir, path);
        folderOf(file);
        writePage(file, page);
      }
      bytes += page.length;
      pages++;
      heap.page();
    }
  }
  spool?.close();
  return { pages, bytes, ...cpuSince(cpu0) };
}
