/**
 * Content codings of answers (RFC 9110 §8.4): which one a client accepts, and the
 * shape of a compressor an adapter provides (Node: zlib; a runtime without one
 * serves identity). Runtime-neutral: no `node:*`.
 */

export type Encoding = 'br' | 'gzip';

/** Compresses a body synchronously; the answer cache calls it once per body and coding. */
export type Compressor = (body: Uint8Array, encoding: Encoding) => Uint8Array;

/** Bodies shorter than this are sent as they are: the coding would save next to nothing. */
export const MIN_COMPRESS = 1024;

/** Parsed Accept-Encoding values; clients send a handful of distinct ones, so this stays small. */
const negotiated = new Map<string, Encoding | null>();

/**
 * The encoding to answer with for an `Accept-Encoding` value: `br` when accepted,
 * else `gzip`, else none (q=0 refuses a coding).
 *
 * @example
 * negotiateEncoding('gzip, deflate, br') // 'br'
 */
export function negotiateEncoding(header: string | string[] | undefined | null): Encoding | null {
  if (!header) return null;
  const value = Array.isArray(header) ? header.join(',') : header;
  const known = negotiated.get(value);
  if (known !== undefined) return known;
  const accepted = new Set<string>();
  for (const part of value.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  const encoding = accepted.has('br') ? 'br' : accepted.has('gzip') || accepted.has('*') ? 'gzip' : null;
  if (value.length <= 256) {
    if (negotiated.size >= 256) negotiated.clear();
    negotiated.set(value, encoding);
  }
  return encoding;
}
