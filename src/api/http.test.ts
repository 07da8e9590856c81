import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { entity, errorResponse, murmur3x86x128, okResponse, strongEtag } from './http.ts';

const bytes = (s: string) => new TextEncoder().encode(s) as Uint8Array<ArrayBuffer>;
const hex = (h: number[]) => h.map((n) => n.toString(16).padStart(8, '0')).join('');

describe('strong ETags', () => {
  it('are MurmurHash3 x86 128 (reference vectors)', () => {
    expect(hex(murmur3x86x128(bytes('')))).toBe('00000000000000000000000000000000');
    expect(hex(murmur3x86x128(bytes('The quick brown fox jumps over the lazy dog')))).toBe('2f1583c3ecee2c675d7bf66ce5e91d2c');
  });
  it('differ for every tail length and for a one-byte change, and ignore the view offset', () => {
    const seen = new Set<string>();
    for (let n = 0; n < 40; n++) seen.add(strongEtag(bytes('x'.repeat(n))));
    seen.add(strongEtag(bytes(`${'x'.repeat(38)}y`)));
    expect(seen.size).toBe(41);
    const buffer = bytes(` {"a":1}`);
    expect(strongEtag(buffer.subarray(1))).toBe(strongEtag(bytes('{"a":1}')));
  });
});

describe('responses', () => {
  it('success: JSON, CORS, long cache, ETag and length', async () => {
    const res = okResponse(entity({ a: 'é' }));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe('10');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await res.json()).toEqual({ a: 'é' });
  });
  it('errors: short cache for 4xx, none for 429 and 5xx, Allow on 405', () => {
    expect(errorResponse(new ApiError(404, 'not_found', 'x')).headers.get('cache-control')).toBe('public, max-age=60');
    expect(errorResponse(new ApiError(429, 'rate_limited', 'x')).headers.get('cache-control')).toBe('no-store');
    expect(errorResponse(new ApiError(502, 'internal', 'x')).headers.get('cache-control')).toBe('no-store');
    expect(errorResponse(new ApiError(405, 'method_not_allowed', 'x')).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
