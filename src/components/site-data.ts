/**
 * Build-time access to the view store for the pages. The build writes every view
 * into a stage folder and points `EVI_VIEWS_DIR` at it before Astro runs; the
 * static API files sit beside it (`../api/v1/...`), so the real handler can answer
 * the example requests of the documentation.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FsStore } from '../adapters/node/fs-store.ts';
import { createHandler } from '../api/index.ts';
import type { Handler } from '../api/index.ts';
import { rootRelative } from '../core/urls.ts';
import { viewPaths } from '../core/views/layout.ts';
import type { BoardView, CompanyView, MetaView } from '../core/views/layout.ts';

const root = (): string => dirname(resolve(process.env.EVI_VIEWS_DIR ?? 'dist/views'));

// The same reader as the Node server's and the MCP entry's (one per build folder).
let store: FsStore | undefined;
function files(): FsStore {
  if (store?.root !== resolve(root())) store = new FsStore(root());
  return store;
}

function readJson<T>(path: string): T {
  return files().json<T>(path);
}

let metaCache: MetaView | undefined;
export function meta(): MetaView {
  return (metaCache ??= readJson<MetaView>(viewPaths.meta()));
}

export function company(slug: string): CompanyView {
  return readJson<CompanyView>(viewPaths.company(slug));
}

/**
 * The paths Astro's own pipeline renders of a route whose pages the build's page workers
 * render (src/pipeline/pages/render-pages.ts: profiles and leaderboards, from the same compiled
 * component): only the first, the reference each worker checks its output against byte
 * for byte. With the workers off (`EVI_PAGE_WORKERS=0`), and inside the workers, all of them.
 */
export function astroRenders<T>(paths: T[]): T[] {
  return process.env.EVI_PAGES_IN_WORKERS === '1' ? paths.slice(0, 1) : paths;
}

export function companySlugs(): string[] {
  return readdirSync(join(root(), dirname(viewPaths.company('x'))))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** The leaderboard, or null when the month has none for that country and industry. */
export function board(month: string, country: string, industry: string): BoardView | null {
  const list = meta().boards[month]?.[country] ?? [];
  if (industry === 'all' ? list.length === 0 : !list.includes(industry)) return null;
  return readJson<BoardView>(viewPaths.board(month, country, industry));
}

let handler: Handler | undefined;
/** A real answer of the API for `url` (absolute, under SITE_URL), from the handler over this build's files. */
export async function apiGet(url: string, method = 'GET'): Promise<{ status: number; body: unknown }> {
  handler ??= createHandler(files(), { log: () => {} });
  const res = await handler(new Request(url, { method }));
  return { status: res.status, body: await res.json() };
}

/** A link's `href` on the pages: root-relative for the site's own URLs, so pages work on any origin. */
export const href = (url: string): string => rootRelative(url, meta().siteUrl);
