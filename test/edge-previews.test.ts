/**
 * The edge's local previews as a user runs them: `npm run preview:edge` (the Worker under
 * wrangler dev, offline) and `npm run preview:pages` (Pages Functions), with PORT, HOST and
 * DIST_DIR. RATE_LIMIT_PER_MINUTE=0 turns their rate limit off, so that a client's own test
 * suite can run against a preview; without it a preview limits as a deployment does (60 a
 * minute per client). Neither serves the build's report or a host file the Node server refuses.
 * test/pages.test.ts runs the shared API suite and the 429 through preview:pages;
 * test/worker.test.ts the same under workerd through Miniflare.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_PER_MINUTE } from '../src/core/policy.ts';
import { builtDist } from './lib/dist.ts';
import { startPreview } from './lib/preview.ts';
import type { Preview } from './lib/preview.ts';
import { awayFromMinuteEdge } from './lib/rate-window.ts';

/** One client, as Cloudflare names it to the function. */
const client = (address: string) => ({ headers: { 'cf-connecting-ip': address } });

/** The statuses of `count` requests for the health of `url`, one after the other, from one client. */
async function burst(url: string, count: number, address: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/api/v1/health`, client(address));
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

/** What the Node server refuses and the edge must not serve either (the views are public there on purpose: the Worker reads them through its assets binding). */
const EDGE_REFUSES: Record<string, string[]> = {
  'preview:edge': ['/build-report.json', '/_headers', '/_redirects', '/serve.json', '/.assetsignore'],
  // Pages serves the folder whole: no ignore file; `_headers` and `_redirects` are its own.
  'preview:pages': ['/build-report.json', '/_headers', '/_redirects'],
};

let dist: string;
beforeAll(async () => {
  dist = await builtDist();
}, 600_000);

for (const script of ['preview:edge', 'preview:pages'] as const) {
  describe(`npm run ${script} with RATE_LIMIT_PER_MINUTE=0`, () => {
    let preview: Preview;
    beforeAll(async () => {
      preview = await startPreview(script, dist, '/api/v1/health', undefined, { RATE_LIMIT_PER_MINUTE: '0' });
    }, 120_000);
    afterAll(async () => {
      await preview?.close();
    });

    it('serves the folder it is given (DIST_DIR) on PORT and HOST', async () => {
      const robots = await fetch(`${preview.url}/robots.txt`);
      expect(await robots.text()).toBe(readFileSync(join(dist, 'robots.txt'), 'utf8'));
      expect(new URL(preview.url).hostname).toBe('127.0.0.1');
    });

    it('one client gets more than the deployment’s 60 answers a minute', async () => {
      const statuses = await burst(preview.url, RATE_LIMIT_PER_MINUTE + 10, '203.0.113.70');
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    });

    it('serves neither the build’s report nor a host file the Node server refuses', async () => {
      for (const path of EDGE_REFUSES[script]!) {
        const res = await fetch(`${preview.url}${path}`);
        const text = await res.text();
        // wrangler pages dev answers its own host files with a 502 of its own; never the file.
        expect(res.status, path).toBeGreaterThanOrEqual(400);
        if (existsSync(join(dist, path))) expect(text, path).not.toContain(readFileSync(join(dist, path), 'utf8').slice(0, 40));
      }
    });
  });
}

describe('npm run preview:edge without the setting limits as a deployment does', () => {
  let preview: Preview;
  beforeAll(async () => {
    preview = await startPreview('preview:edge', dist);
  }, 120_000);
  afterAll(async () => {
    await preview?.close();
  });

  it('the request past 60 in a minute from one client is refused with the JSON 429', async () => {
    await awayFromMinuteEdge();
    const statuses = await burst(preview.url, RATE_LIMIT_PER_MINUTE + 1, '203.0.113.71');
    expect(statuses.slice(0, RATE_LIMIT_PER_MINUTE).filter((s) => s !== 200)).toEqual([]);
    expect(statuses.at(-1)).toBe(429);
  });
});
