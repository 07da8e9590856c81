/**
 * The Worker's local preview as a user runs it: `npm run preview:edge` (the Worker under
 * wrangler dev, offline), with PORT, HOST and DIST_DIR. RATE_LIMIT_PER_MINUTE=0 turns its rate
 * limit off, so that a client's own test suite can run against a preview; without it the
 * preview limits as a deployment does (60 a minute per client). It serves neither the build's
 * report nor a host file the Node server refuses. `npm run preview:pages` is held to the same
 * by test/pages.test.ts (the folder, PORT and HOST, the host files, the 429; with the shared
 * API suite) and test/packed.test.ts (RATE_LIMIT_PER_MINUTE=0); test/worker.test.ts runs the
 * Worker under workerd through Miniflare.
 *
 * The previews serve a slim copy of the shared build (no profile, leaderboard or past month:
 * none is asked for here, and wrangler reads and hashes every asset when it starts); the Worker
 * over the whole build is test/worker.test.ts's.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_PER_MINUTE } from '../src/core/policy.ts';
import { builtDist, slimCopy } from './lib/dist.ts';
import { startPreview } from './lib/preview.ts';
import type { Preview } from './lib/preview.ts';
import { burst, inOneWindow } from './lib/rate-window.ts';

/** What the Node server refuses and the Worker must not serve either (the views are public there on purpose: the Worker reads them through its assets binding). */
const EDGE_REFUSES = ['/build-report.json', '/_headers', '/_redirects', '/serve.json', '/.assetsignore'];

let dist: string;
beforeAll(async () => {
  dist = slimCopy(await builtDist(), 'evi-edge-');
}, 600_000);
afterAll(() => {
  if (dist) rmSync(dist, { recursive: true, force: true });
});

describe('npm run preview:edge with RATE_LIMIT_PER_MINUTE=0', () => {
  let preview: Preview;
  beforeAll(async () => {
    preview = await startPreview('preview:edge', dist, '/api/v1/health', undefined, { RATE_LIMIT_PER_MINUTE: '0' });
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
    for (const path of EDGE_REFUSES) {
      const res = await fetch(`${preview.url}${path}`);
      const text = await res.text();
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      if (existsSync(join(dist, path))) expect(text, path).not.toContain(readFileSync(join(dist, path), 'utf8').slice(0, 40));
    }
  });
});

describe('npm run preview:edge without the setting limits as a deployment does', () => {
  let preview: Preview;
  beforeAll(async () => {
    preview = await startPreview('preview:edge', dist);
  }, 120_000);
  afterAll(async () => {
    await preview?.close();
  });

  it('the request past 60 in a minute from one client is refused with the JSON 429', async () => {
    const statuses = await inOneWindow((attempt) => burst(preview.url, RATE_LIMIT_PER_MINUTE + 1, `203.0.113.${71 + attempt}`));
    expect(statuses.slice(0, RATE_LIMIT_PER_MINUTE).filter((s) => s !== 200)).toEqual([]);
    expect(statuses.at(-1)).toBe(429);
  });
});
