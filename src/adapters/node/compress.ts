import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Encoding } from '../../api/index.ts';

/**
 * The Node compressor of the api's answer cache and of the static files. Quality 5
 * brotli is close to 11 in size for JSON and many times faster; callers keep the
 * result (once per body and coding).
 */
export function compressBody(body: Uint8Array, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
      })
    : gzipSync(body, { level: 6 });
}
