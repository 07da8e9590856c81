/**
 * The site files a packed layout (src/core/views/packs.ts) keeps out of the files a host
 * serves, answered by the function with the headers a static file of the site gets: the
 * profile pages from their packs, and a split download or public view joined from its parts.
 * Every runtime that runs the function asks these first for their paths and serves the
 * site's files when they answer `null` (nothing packed or split there).
 */
import { profilePagePath, splitRoute } from '../core/views/packs.ts';
import type { PackedStore } from './packed-store.ts';
import { noneMatch } from './service.ts';

export interface PageAnswer {
  status: 200 | 301 | 304;
  headers: Record<string, string>;
  /** Absent for a redirect, a 304 and a HEAD request; a stream for a file joined from parts. */
  body?: Uint8Array | ReadableStream<Uint8Array>;
}

/** The headers of the site's static files (as the Node server sends them). */
const FILE_HEADERS = {
  'Cache-Control': 'public, max-age=0, must-revalidate',
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
};

/** If-None-Match names `etag` (weak comparison, as for the API's answers). */
const matches = (ifNoneMatch: string | null, etag: string): boolean => !!ifNoneMatch && noneMatch(ifNoneMatch, etag.replace(/^W\//, ''));

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
  if (matches(ifNoneMatch, etag)) return { status: 304, headers };
  return { status: 200, headers, ...(method === 'GET' ? { body } : {}) };
}

const TYPES: Record<string, string> = { json: 'application/json; charset=utf-8', gz: 'application/gzip' };

/**
 * A download or public view kept in parts, streamed part after part (a Worker never holds
 * the whole file).
 *
 * @example
 * await splitFile(store, 'GET', '/downloads/2026-10/profiles.ndjson.gz', null); // { status: 200, headers, body: stream }
 */
export async function splitFile(store: PackedStore, method: string, pathname: string, ifNoneMatch: string | null): Promise<PageAnswer | null> {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const path = splitRoute(pathname);
  const split = path === null ? undefined : (await store.manifest())?.split[path];
  if (!split) return null;
  const etag = `"${split.sha256.slice(0, 32)}"`;
  const type = TYPES[path!.slice(path!.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
  const headers = { 'Content-Type': type, ...FILE_HEADERS, ETag: etag };
  if (matches(ifNoneMatch, etag)) return { status: 304, headers };
  if (method === 'HEAD') return { status: 200, headers: { ...headers, 'Content-Length': String(split.bytes) } };
  const parts = store.parts(path!, split);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await parts.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
  return { status: 200, headers: { ...headers, 'Content-Length': String(split.bytes) }, body };
}

/** The packed answer for a site path, if the layout holds one: a profile page or a split file. */
export async function packedAnswer(store: PackedStore, method: string, pathname: string, ifNoneMatch: string | null): Promise<PageAnswer | null> {
  if (pathname.startsWith('/company/')) return profilePage(store, method, pathname, ifNoneMatch);
  return splitRoute(pathname) === null ? null : splitFile(store, method, pathname, ifNoneMatch);
}
