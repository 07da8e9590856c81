/**
 * A 16x16 icon (the bar colour of the pages), so that browsers asking for
 * /favicon.ico, on the JSON answers too, get no 404.
 */
import type { APIRoute } from 'astro';

const SIZE = 16;
const [R, G, B] = [0x2f, 0x6f, 0xd6];

export function favicon(): Uint8Array<ArrayBuffer> {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4;
  const image = 40 + pixels + mask;
  const buf = new Uint8Array(6 + 16 + image);
  const v = new DataView(buf.buffer);
  v.setUint16(2, 1, true); // type: icon
  v.setUint16(4, 1, true); // one image
  buf[6] = SIZE;
  buf[7] = SIZE;
  v.setUint16(10, 1, true); // planes
  v.setUint16(12, 32, true); // bits per pixel
  v.setUint32(14, image, true);
  v.setUint32(18, 22, true);
  // BITMAPINFOHEADER; the height counts the colour and the mask rows.
  v.setUint32(22, 40, true);
  v.setInt32(26, SIZE, true);
  v.setInt32(30, SIZE * 2, true);
  v.setUint16(34, 1, true);
  v.setUint16(36, 32, true);
  for (let i = 0; i < SIZE * SIZE; i++) buf.set([B, G, R, 0xff], 62 + i * 4);
  return buf;
}

export const GET: APIRoute = () => new Response(favicon(), { headers: { 'Content-Type': 'image/x-icon' } });
