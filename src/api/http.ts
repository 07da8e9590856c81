/**
 * The HTTP shape of every answer: headers, cache lifetimes, ETags. The handler
 * alone decides these (STYLE habit 5); adapters only translate.
 */
import type { ApiError } from './errors.ts';

export const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;
export const ALLOW = ALLOWED_METHODS.join(', ');
export const JSON_TYPE = 'application/json; charset=utf-8';
/** service-spec §8: a CDN keeps responses 30 to 60 minutes. */
export const CACHE_SUCCESS = 'public, max-age=1800, s-maxage=3600, stale-while-revalidate=86400';
/** 400/404/405 are as stable as the data, but kept briefly in case of a fix. */
export const CACHE_ERROR = 'public, max-age=60';
/** 429 is per client and 5xx transient: never stored. */
export const CACHE_NONE = 'no-store';
/** Headers a browser script may read besides the safelisted ones. */
export const EXPOSE_HEADERS = ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy'];
/** Headers a 304 keeps (RFC 9110 §15.4.5, plus CORS so browsers accept it). */
export const RETAINED_304_HEADERS = [
  'cache-control',
  'content-location',
  'date',
  'etag',
  'expires',
  'vary',
  'content-type',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-content-type-options',
];

const encoder = new TextEncoder();
const encode = (text: string) => encoder.encode(text) as Uint8Array<ArrayBuffer>;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Strong ETag of a body: the first 128 bits of its SHA-256 (Web Crypto: Node and workerd alike). */
export async function strongEtag(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '"';
  for (let i = 0; i < 16; i++) hex += HEX[digest[i] as number];
  return `${hex}"`;
}

/** A serialized success body with its validator, ready to become a response any number of times. */
export interface Entity {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

export async function entity(body: unknown): Promise<Entity> {
  const bytes = encode(typeof body === 'string' ? body : JSON.stringify(body));
  return { bytes, etag: await strongEtag(bytes) };
}

function baseHeaders(cacheControl: string, length: number): Headers {
  return new Headers({
    'Content-Type': JSON_TYPE,
    'Content-Length': String(length),
    'Cache-Control': cacheControl,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': EXPOSE_HEADERS.join(', '),
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
  });
}

/** 200 with a strong ETag and the long cache life. */
export function okResponse({ bytes, etag }: Entity): Response {
  const headers = baseHeaders(CACHE_SUCCESS, bytes.byteLength);
  headers.set('ETag', etag);
  return new Response(bytes, { status: 200, headers });
}

/**
 * The one place an {@link ApiError} becomes a response (CORS included, so the
 * Node server's 429 looks like every other error).
 */
export function errorResponse(error: ApiError, extraHeaders: Record<string, string> = {}): Response {
  const bytes = encode(JSON.stringify(error.body));
  const cacheable = error.status < 429;
  const headers = baseHeaders(cacheable ? CACHE_ERROR : CACHE_NONE, bytes.byteLength);
  if (error.status === 405) headers.set('Allow', ALLOW);
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
  return new Response(bytes, { status: error.status, headers });
}
