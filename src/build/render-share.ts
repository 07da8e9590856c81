/**
 * A share of the page workers' job (see render-pages.ts), run by each worker thread and by
 * the main thread: renders its share of the paths of each route it is
 * given from the module Astro compiled for that route, through Astro's container API,
 * and writes each page where Astro's own pipeline would. Astro rendered the first path of
 * each route itself; the worker renders that one too and adds what Astro's pipeline puts
 * before `</head>` and the container cannot know (the route's stylesheet links), then
 * stops unless the result is Astro's file byte for byte.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import { chromeOf, outFileOf, withChrome } from './page-chrome.ts';
import type { StaticPath } from './page-chrome.ts';

export interface RenderJob {
  /** The compiled page module of each route (absolute file) and its source component, relative to the project. */
  routes: { module: string; component: string }[];
  outDir: string;
  /** This worker takes the paths whose index modulo `workers` is `worker`. */
  worker: number;
  workers: number;
}

export interface RenderDone {
  pages: number;
  bytes: number;
  /** CPU seconds of the thread that rendered the share (user + system; Linux, else null). */
  cpu: number | null;
}

/** CPU seconds of the calling thread, from /proc/thread-self/stat (utime, stime in clock ticks, taken as 100 a second). */
function threadCpu(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

type PageModule = { default: AstroComponentFactory; file: string; url: string; getStaticPaths: () => StaticPath[] | Promise<StaticPath[]> };

// A container keeps every route it rendered (its manifest's route list grows by one a page): start a fresh one now and then.
const PAGES_PER_CONTAINER = 500;
let container: AstroContainer | undefined;
let used = 0;
/** The page's bytes as the container renders it (taken as bytes: no decoding and encoding again). */
async function render(mod: PageModule, p: StaticPath): Promise<Buffer> {
  if (!container || used++ >= PAGES_PER_CONTAINER) {
    container = await AstroContainer.create();
    used = 1;
  }
  const res = await container.renderToResponse(mod.default, { params: p.params, props: p.props ?? {}, partial: false });
  return Buffer.from(await res.arrayBuffer());
}

/** Renders the share `job.worker` of `job.workers` of every route's paths but the first, and writes the pages. */
export async function renderShare(job: RenderJob): Promise<RenderDone> {
  const cpu0 = threadCpu();
  let pages = 0;
  let bytes = 0;
  for (const route of job.routes) {
    const { page } = (await import(pathToFileURL(route.module).href)) as { page: () => Promise<PageModule> };
    const mod = await page();
    if (!mod.file.endsWith(`/${route.component}`)) throw new Error(`page workers: ${route.module} is ${mod.file}, not ${route.component}`);
    const paths = await mod.getStaticPaths();
    if (paths.length === 0) continue;
    const reference = outFileOf(mod.url, paths[0]!.params);
    const astro = readFileSync(join(job.outDir, reference), 'utf8');
    const chrome = Buffer.from(chromeOf(astro, (await render(mod, paths[0]!)).toString('utf8'), `/${reference}`));
    for (let i = 1 + job.worker; i < paths.length; i += job.workers) {
      const p = paths[i]!;
      const file = join(job.outDir, outFileOf(mod.url, p.params));
      const html = withChrome(await render(mod, p), chrome);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, html);
      pages++;
      bytes += html.length;
    }
  }
  const cpu1 = threadCpu();
  return { pages, bytes, cpu: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
}
