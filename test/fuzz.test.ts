/**
 * The seeded request fuzzer against the Node server and the Worker under workerd (bounded
 * counts; `npm run fuzz` is the long run): no 5xx, every `/api` body JSON, no stack or
 * machine path in any body; the Node server answers every request. The slowest exchange is
 * printed, not asserted (the machine is shared; speed is shown by benchmarks).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewPaths } from '../src/core/views/layout.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { startServer } from '../src/adapters/node/index.ts';
import type { RunningServer } from '../src/adapters/node/index.ts';
import { builtDist } from './lib/dist.ts';
import { fuzzRequests, leaks, prng, reachesWorker, runFuzz } from './lib/fuzz.ts';
import type { FuzzReport } from './lib/fuzz.ts';
import { bundleWorker, startWorker } from './lib/workerd.ts';

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

describe('request fuzzer against the Worker under workerd', () => {
  it('what the runtime refuses before a Worker runs is told apart', () => {
    const at = (method: string, host: string | null) => ({ label: '', method, path: '/', bytes: `${method} / HTTP/1.1\r\n${host === null ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n` });
    expect(reachesWorker(at('GET', 'localhost'))).toBe(true);
    expect(reachesWorker(at('PROPFIND', '[::1]:80'))).toBe(true);
    for (const [method, host] of [['CONNECT', 'localhost'], ['FOO', 'localhost'], ['get', 'localhost'], ['GET', 'a b'], ['GET', 'evil.com/x'], ['GET', 'ex@mple'], ['GET', 'x:99999'], ['GET', 'é.example'], ['GET', null]] as const) {
      expect(reachesWorker(at(method, host)), `${method} ${host}`).toBe(false);
    }
  });

  it('1,000 seeded requests the edge would deliver, to the Worker on Miniflare’s socket: no 5xx, /api bodies JSON, nothing leaked', async () => {
    const meta = JSON.parse(readFileSync(join(dist, viewPaths.meta()), 'utf8')) as MetaView;
    const all = fuzzRequests(20261123, 2000, meta);
    const requests = all.filter(reachesWorker).slice(0, 1000);
    const mf = await startWorker(await bundleWorker('fuzz-test'), dist);
    let report: FuzzReport;
    try {
      const port = Number((await mf.ready).port);
      report = await runFuzz(port, requests, { concurrency: 4, secrets: [dist, resolve(import.meta.dirname, '..')], normalisePath: true });
    } finally {
      await mf.dispose();
    }
    console.log(`worker fuzz: ${report.sent} requests, statuses ${JSON.stringify(report.statuses)}, slowest ${report.slowestMs.toFixed(0)} ms, ${report.slow.length} over 1 s`);
    expect(report.sent).toBe(1000);
    expect(report.failures).toEqual([]);
    expect(report.statuses['200']).toBeGreaterThan(50);
    expect(report.statuses['400']).toBeGreaterThan(25);
    expect(report.statuses['404']).toBeGreaterThan(25);
    expect(report.statuses['405']).toBeGreaterThan(25);
  }, 300_000);
});
