import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PROFILES_GZIP_LEVEL, ProfilesGzip } from './downloads.ts';

/** Lines of varied JSON (a fixed pseudo-random sequence), `n` of them. */
function lines(n: number): string[] {
  let x = 12345;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: n }, (_, i) => JSON.stringify({ i, slug: `company-${next() % 9973}`, score: (next() % 1000) / 10, words: Array.from({ length: 5 + (next() % 40) }, () => next().toString(36)) }));
}

describe('ProfilesGzip', () => {
  it('gives the bytes of gzipSync (at its level) of the whole text, its input cut into chunks as it comes', async () => {
    const all = lines(20_000); // ~4.5 MB: several chunks, cut mid-way through lines
    const zip = new ProfilesGzip();
    for (const line of all) zip.add(line);
    const { gz, rows } = await zip.finish();
    expect(rows).toBe(all.length);
    const text = `${all.join('\n')}\n`;
    expect(text.length).toBeGreaterThan(3 * (1 << 20));
    expect(gz.equals(gzipSync(Buffer.from(text), { level: PROFILES_GZIP_LEVEL }))).toBe(true);
  });

  it('the same with lines beyond ASCII (two, three and four bytes a character in UTF-8), and a line longer than a chunk', async () => {
    const all = lines(12_000).map((l, i) => (i % 7 === 0 ? l.replace('company-', 'Łódź 東京 🚀 ') : l));
    all.splice(5_000, 0, JSON.stringify({ long: 'é'.repeat(700_000) })); // 1.4 MB of UTF-8: alone
    const zip = new ProfilesGzip();
    for (const line of all) zip.add(line);
    const { gz, rows } = await zip.finish();
    expect(rows).toBe(all.length);
    expect(gz.equals(gzipSync(Buffer.from(`${all.join('\n')}\n`), { level: PROFILES_GZIP_LEVEL }))).toBe(true);
  });

  it('the same when zlib reads chunks while lines come, their buffers used again once it has read them', async () => {
    const all = lines(60_000); // ~13 MB: a dozen chunks
    const zip = new ProfilesGzip();
    for (let i = 0; i < all.length; i++) {
      zip.add(all[i]!);
      // now and then the build's thread lets zlib catch up (in a build, zlib's ~80 MB/s
      // outruns the ~25 MB/s of lines): its answers come back, and the buffers with them
      if (i % 1000 === 0) while (zip.unread > 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const { gz, rows } = await zip.finish();
    expect(rows).toBe(all.length);
    const text = Buffer.from(`${all.join('\n')}\n`);
    expect(text.length).toBeGreaterThan(10 * (1 << 20));
    // a dozen chunks in two buffers: the one being filled, and the one zlib was reading
    expect(zip.buffers).toBeLessThanOrEqual(2);
    expect(gz.equals(gzipSync(text, { level: PROFILES_GZIP_LEVEL }))).toBe(true);
  });

  it('zlib reads each chunk in one answer (a turn of the event loop), or two where its output buffer fills', async () => {
    // The build's thread gives the event loop a turn only now and then, and each of zlib's
    // answers takes one: with several answers a chunk, zlib falls behind and every chunk
    // takes a new buffer.
    const all = lines(60_000); // ~13 MB: a dozen chunks
    const zip = new ProfilesGzip();
    for (const line of all) zip.add(line);
    const { gz } = await zip.finish();
    const text = Buffer.from(`${all.join('\n')}\n`);
    const chunks = Math.ceil(text.length / (1 << 20));
    expect(chunks).toBeGreaterThanOrEqual(12);
    expect(zip.answers).toBeLessThanOrEqual(2 * chunks + 1);
    expect(gz.equals(gzipSync(text, { level: PROFILES_GZIP_LEVEL }))).toBe(true);
  });

  it('drained() lets zlib catch up: the text not yet read stays bounded, and the bytes are the same', async () => {
    const all = lines(120_000); // ~26 MB: more than drained() lets pile up
    const zip = new ProfilesGzip();
    let most = 0;
    for (const line of all) {
      zip.add(line);
      await zip.drained();
      most = Math.max(most, zip.unread);
    }
    const { gz } = await zip.finish();
    const text = Buffer.from(`${all.join('\n')}\n`);
    expect(most).toBeLessThan(text.length / 2);
    expect(zip.buffers).toBeLessThan(text.length / (2 << 20));
    expect(gz.equals(gzipSync(text, { level: PROFILES_GZIP_LEVEL }))).toBe(true);
  });

  it('with no line, the gzip of nothing', async () => {
    const { gz, rows } = await new ProfilesGzip().finish();
    expect(rows).toBe(0);
    expect(gz.equals(gzipSync(Buffer.from(''), { level: PROFILES_GZIP_LEVEL }))).toBe(true);
  });
});
