/**
 * The HTTP shape of every answer: headers, cache lifetimes, ETags. The handler
 * alone decides these (STYLE habit 5); adapters only translate.
 */
import { CACHE_ERROR, CACHE_NONE, CACHE_SUCCESS } from '../core/policy.ts';
import type { ApiError } from './errors.ts';

export const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;
export const ALLOW = ALLOWED_METHODS.join(', ');
export const JSON_TYPE = 'application/json; charset=utf-8';
export { CACHE_ERROR, CACHE_NONE, CACHE_SUCCESS } from '../core/policy.ts';
/** Headers a browser script may read besides the safelisted ones. */
export const EXPOSE_HEADERS = ['ETag', 'Link', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'EVI-Corrected'];
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

/**
 * Strong ETag of a body: MurmurHash3 x86 128-bit of its bytes, in hex. Not a
 * security hash (nothing here needs one): it only has to change when the bytes
 * do, synchronously and in the same way on Node and workerd.
 */
export function strongEtag(bytes: Uint8Array): string {
  const [h1, h2, h3, h4] = murmur3x86x128(bytes);
  return `"${hex8(h1)}${hex8(h2)}${hex8(h3)}${hex8(h4)}"`;
}

const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
const fmix = (h: number) => {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
};
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

export function murmur3x86x128(b: Uint8Array, seed = 0): [number, number, number, number] {
  const len = b.byteLength;
  const blocks = len - (len & 15);
  let h1 = seed | 0;
  let h2 = h1;
  let h3 = h1;
  let h4 = h1;
  // Little-endian words; an aligned view when the platform is little-endian (all of ours), else assembled.
  const words =
    LITTLE_ENDIAN && b.byteOffset % 4 === 0
      ? new Uint32Array(b.buffer, b.byteOffset, blocks >>> 2)
      : Uint32Array.from({ length: blocks >>> 2 }, (_, i) => (b[4 * i] as number) | ((b[4 * i + 1] as number) << 8) | ((b[4 * i + 2] as number) << 16) | ((b[4 * i + 3] as number) << 24));
  for (let i = 0, n = words.length; i < n; i += 4) {
    h1 ^= Math.imul(rotl(Math.imul(words[i] as number, C1), 15), C2);
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    h2 ^= Math.imul(rotl(Math.imul(words[i + 1] as number, C2), 16), C3);
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    h3 ^= Math.imul(rotl(Math.imul(words[i + 2] as number, C3), 17), C4);
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    h4 ^= Math.imul(rotl(Math.imul(words[i + 3] as number, C4), 18), C1);
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }
  let k1 = 0;
  let k2 = 0;
  let k3 = 0;
  let k4 = 0;
  const at = (i: number) => b[blocks + i] as number;
  switch (len & 15) {
    case 15: k4 ^= at(14) << 16;
    case 14: k4 ^= at(13) << 8;
    case 13: k4 ^= at(12);
      h4 ^= Math.imul(rotl(Math.imul(k4, C4), 18), C1);
    case 12: k3 ^= at(11) << 24;
    case 11: k3 ^= at(10) << 16;
    case 10: k3 ^= at(9) << 8;
    case 9: k3 ^= at(8);
      h3 ^= Math.imul(rotl(Math.imul(k3, C3), 17), C4);
    case 8: k2 ^= at(7) << 24;
    case 7: k2 ^= at(6) << 16;
    case 6: k2 ^= at(5) << 8;
    case 5: k2 ^= at(4);
      h2 ^= Math.imul(rotl(Math.imul(k2, C2), 16), C3);
    case 4: k1 ^= at(3) << 24;
    case 3: k1 ^= at(2) << 16;
    case 2: k1 ^= at(1) << 8;
    case 1: k1 ^= at(0);
      h1 ^= Math.imul(rotl(Math.imul(k1, C1), 15), C2);
  }
  h1 ^= len;
  h2 ^= len;
  h3 ^= len;
  h4 ^= len;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A serialized success body with its validator, ready to become a response any number of times. */
export interface Entity {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

export function entity(body: unknown): Entity {
  const bytes = encode(typeof body === 'string' ? body : JSON.stringify(body));
  return { bytes, etag: strongEtag(bytes) };
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

/** 200 with a strong ETag and the cache life of its endpoint (default: a release's). */
export function okResponse({ bytes, etag }: Entity, cacheControl: string = CACHE_SUCCESS): Response {
  const headers = baseHeaders(cacheControl, bytes.byteLength);
  headers.set('ETag', etag);
  return new Response(bytes, { status: 200, headers });
}

/** An HTML page the handler makes (the search results page): a release's cache life, or an error's. */
export function htmlResponse(text: string, status = 200): Response {
  const bytes = encode(text);
  return new Response(bytes, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': status === 200 ? CACHE_SUCCESS : status < 429 ? CACHE_ERROR : CACHE_NONE,
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
    },
  });
}

/** The parts of an error answer: status, headers and JSON body (see {@link errorResponse}). */
export function errorParts(error: ApiError, extraHeaders: Record<string, string> = {}): { status: number; headers: Headers; bytes: Uint8Array<ArrayBuffer> } {
  const bytes = encode(JSON.stringify(error.body));
  const cacheable = error.status < 429;
  const headers = baseHeaders(cacheable ? CACHE_ERROR : CACHE_NONE, bytes.byteLength);
  if (error.status === 405) headers.set('Allow', ALLOW);
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
  return { status: error.status, headers, bytes };
}

/**
 * The one place an {@link ApiError} becomes a response (CORS included, so the
 * rate limiter's 429 looks like every other error).
 */
export function errorResponse(error: ApiError, extraHeaders: Record<string, string> = {}): Response {
  const { status, headers, bytes } = errorParts(error, extraHeaders);
  return new Response(bytes, { status, headers });
}
