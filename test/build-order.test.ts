/**
 * The build's order with the compiled pages in the cache (src/pipeline/run-build.ts,
 * build-pages.ts): the page workers start on the profiles once the current company views
 * and meta.json are written, take the leaderboards once those are, and render beside the
 * rest of the views step. The output must be the one of the shared sample build (an empty
 * cache: Astro compiles the pages), file for file and byte for byte. Without the compiled
 * pages in the cache (the shared build's log), Astro compiles them beside the views step.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, ROOT, SITE_URL, SOURCE_DATE_EPOCH, sharedBuild } from './lib/build-once.ts';
import { BUILD_NODE_ARGS } from '../src/pipeline/workers/build-command.ts';

let dist: string;
let tmp: string;
const logs: string[] = [];

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function build(env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...BUILD_NODE_ARGS], {
      cwd: ROOT,
      env: { ...process.env, SITE_URL, SOURCE_DATE_EPOCH: String(SOURCE_DATE_EPOCH), EVI_PAGES: '1', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr.on('data', (b: Buffer) => (log += b));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(log) : fail(new Error(`build failed (exit ${code}):\n${log.slice(-4000)}`))));
  });
}

beforeAll(async () => {
  const shared = await sharedBuild();
  dist = shared.dist;
  tmp = mkdtempSync(join(tmpdir(), 'evi-order-'));
  // The build writes the ledger into its data folder, and its cache entries: copies.
  cpSync(DATA_DIR, join(tmp, 'data'), { recursive: true });
  cpSync(shared.cache, join(tmp, 'cache'), { recursive: true });
  // The shared build compiled the pages and stored them; this one renders from the cache.
  logs.push(shared.log, await build({ EVI_DATA_DIR: join(tmp, 'data'), EVI_CACHE_DIR: join(tmp, 'cache'), EVI_OUT_DIR: join(tmp, 'out') }));
}, 600_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('pages beside the views step (compiled pages from the cache)', () => {
  it('start the page workers before the views step ends', () => {
    const [miss, hit] = logs;
    expect(miss).toMatch(/astro build/);
    expect(miss).not.toMatch(/Page workers started/);
    expect(hit).not.toMatch(/astro build/);
    const at = (line: RegExp) => hit!.split('\n').findIndex((l) => line.test(l));
    // Every month from the cache (a monthly build's case): the page worker loads the compiled pages before the views step.
    expect(at(/page worker thread started: loading the compiled pages/)).toBeGreaterThan(-1);
    expect(at(/page worker thread started: loading the compiled pages/)).toBeLessThan(at(/Writing views/));
    expect(miss).not.toMatch(/loading the compiled pages/);
    // The search index reads the registry only: made while the newest month is still read
    // (in a monthly build, parsed on its worker), not in the views step.
    for (const log of [miss!, hit!]) {
      const line = log.split('\n');
      const made = line.findIndex((l) => /the search index made, before the newest month is scored/.test(l));
      expect(made).toBeGreaterThan(line.findIndex((l) => /Scoring and ranking/.test(l)));
      expect(made).toBeLessThan(line.findIndex((l) => /Scored \d+ months/.test(l)));
    }
    // Without the compiled pages in the cache, Astro compiles them on its own thread once what
    // the routes without parameters read is written, beside the rest of the views step.
    const inMiss = (line: RegExp) => miss!.split('\n').findIndex((l) => line.test(l));
    expect(inMiss(/Astro compiles the pages beside the views step/)).toBeGreaterThan(inMiss(/static answers, OpenAPI/));
    expect(inMiss(/Astro compiles the pages beside the views step/)).toBeLessThan(inMiss(/Building pages/));
    expect(miss).toMatch(/astro build [\d.]+ s wall, on a thread of its own, beside the views step/);
    expect(miss).toMatch(/pages: page workers: \d+ pages in \d+ workers/);
    // The profiles first (they read meta.json and their company's view), batch by batch as
    // the current views are written; the leaderboards once written.
    expect(at(/Page workers started beside the current company views \(the profiles as their views are written\)/)).toBeGreaterThan(at(/Writing views/));
    expect(at(/Page workers started beside/)).toBeLessThan(at(/static answers, OpenAPI/));
    expect(at(/Page workers started beside/)).toBeLessThan(at(/Building pages/));
    expect(at(/Page workers started beside/)).toBeLessThan(at(/the leaderboards handed to the page workers/));
    expect(at(/the leaderboards handed to the page workers/)).toBeLessThan(at(/static answers, OpenAPI/));
  });

  it('write the same files, byte for byte, as a build rendering the pages after the JSON tree', () => {
    const out = join(tmp, 'out');
    const all = files(dist);
    expect(all.filter((f) => f.startsWith('company/')).length).toBeGreaterThan(100);
    expect(files(out)).toEqual(all);
    expect(all.filter((f) => !readFileSync(join(out, f)).equals(readFileSync(join(dist, f))))).toEqual([]);
  });
});
