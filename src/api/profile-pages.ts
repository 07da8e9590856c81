/**
 * The profile pages of a packed layout (src/core/views/packs.ts), answered by the function
 * with the headers a static file of the site gets. Every runtime that runs the function asks
 * this first for `/company/...` and serves the site's files when it answers `null` (a build
 * that packed nothing, or no such company).
 */
import { profilePagePath } from '../core/views/packs.ts';
import type { PackedStore } from './packed-store.ts';

export interface PageAnswer {
  status: 200 | 301 | 304;
  headers: Record<string, string>;
  /** Absent for a redirect, a 304 and a HEAD request. */
  body?: Uint8Array;
}

/** The headers of the site's static files (as the Node server sends them). */
const FILE_HEADERS = {
  'Cache-Control': 'public, max-age=0, must-revalidate',
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * @example
 * await profilePage(store, 'GET', '/company/acme/', null); // { status: 200, headers, body }
 */
export async function profilePage(store: PackedStore, method: string, pathname: string, ifNoneMatch: string | null): Promise<PageAnswer | null> {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const target = profilePagePath(pathname);
  if (!target) return null;
  const manifest = await store.manifest();
  if (!manifest?.groups.company) return null;
  const body = await store.bytes(target.page);
  if (!body) return null;
  if ('redirect' in target) return { status: 301, headers: { Location: target.redirect, 'Cache-Control': 'public, max-age=3600' } };
  // A page changes only with a new build, whose packs have another digest.
  const etag = `W/"${manifest.digest.slice(0, 16)}-${body.byteLength.toString(16)}"`;
  const headers = { 'Content-Type': 'text/html; charset=utf-8', ...FILE_HEADERS, ETag: etag };
  if (ifNoneMatch && (ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag.slice(2)))) return { status: 304, headers };
  return { status: 200, headers, ...(method === 'GET' ? { body } : {}) };
}
