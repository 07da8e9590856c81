/**
 * The seeded request fuzzer against the Node server (bounded counts; `npm run fuzz` is the
 * long run): no 5xx, every `/api` body JSON, no stack or machine path in any body; the server
 * answers every request. The Worker under workerd gets the same in test/worker.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewPaths } from '../src/core/views/layout.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { startServer } from '../src/adapters/node/index.ts';
import type { RunningServer } from '../src/adapters/node/index.ts';
import { builtDist } from './lib/dist.ts';
import { fuzzRequests, leaks, prng, runFuzz } from './lib/fuzz.ts';

let dist: string;
let running: RunningServer;
const errors: string[] = [];

beforeAll(async () => {
  dist = await builtDist();
  running = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, log: null, logError: (l) => errors.push(l) });
}, 600_000);

afterAll(async () => {
  await running?.close(100);
});

describe('request fuzzer', () => {
  it('the same seed gives the same requests; another seed others', () => {
    const meta = JSON.parse(readFileSync(join(dist, viewPaths.meta()), 'utf8')) as MetaView;
    expect(fuzzRequests(7, 50, meta)).toEqual(fuzzRequests(7, 50, meta));
    expect(fuzzRequests(8, 50, meta)).not.toEqual(fuzzRequests(7, 50, meta));
    expect(prng(1)()).toBe(prng(1)());
  });

  it('its checks catch a stack trace and a machine path', () => {
    expect(leaks('Error: x\n    at foo (/srv/app/x.js:1:2)', [])).toBe('a stack trace');
    expect(leaks(`{"message":"${resolve('dist')}"}`, [resolve('dist')])).toMatch(/^the path/);
    expect(leaks('{"error":"not_found","message":"No company at this path."}', [resolve('dist')])).toBeNull();
  });

  it('2,000 seeded requests to the Node server: no 5xx, always an answer, /api bodies JSON, nothing leaked', async () => {
    const meta = JSON.parse(readFileSync(join(dist, viewPaths.meta()), 'utf8')) as MetaView;
    const requests = fuzzRequests(20261122, 2000, meta);
    const report = await runFuzz(Number(new URL(running.url).port), requests, { concurrency: 4, secrets: [dist, resolve(import.meta.dirname, '..')] });
    expect(report.sent).toBe(2000);
    expect(report.failures).toEqual([]);
    // The run reached the API's successes and its refusals alike.
    expect(report.statuses['200']).toBeGreaterThan(100);
    expect(report.statuses['400']).toBeGreaterThan(50);
    expect(report.statuses['404']).toBeGreaterThan(50);
    expect(report.statuses['405']).toBeGreaterThan(50);
    expect(errors.filter((l) => !/\[api\].*view/.test(l))).toEqual([]);
  }, 300_000);
});
