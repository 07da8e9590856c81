/**
 * One build at a time per output (src/pipeline/release/output-lock.ts): a second build started while
 * one runs stops at once with a clear message; a killed build's lock does not block the
 * next; no build replaces the live release with an older month unless told to. And a stop
 * prints what happened without a stack trace (src/pipeline/stop-message.ts, as `npm run build`
 * prints it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';
import { lockPathOf } from '../src/pipeline/release/output-lock.ts';
import { BUILD_NODE_ARGS } from '../src/pipeline/workers/build-command.ts';

const root = resolve(import.meta.dirname, '..');
const fixture = join(root, 'test/fixtures/basic');
const tmp = mkdtempSync(join(tmpdir(), 'evi-lock-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The fixture plus an April copy of March. */
function withApril(): string {
  const dir = mkdtempSync(join(tmp, 'data-'));
  cpSync(fixture, dir, { recursive: true });
  writeFileSync(join(dir, 'mentions/2026-04.csv'), readFileSync(join(fixture, 'mentions/2026-03.csv'), 'utf8').replace(/2026-03-/g, '2026-04-'));
  return dir;
}
const copy = () => {
  const dir = mkdtempSync(join(tmp, 'data-'));
  cpSync(fixture, dir, { recursive: true });
  return dir;
};
const build = (dataDir: string, outDir: string, allowOlder = false) => runBuild({ root, dataDir, outDir, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers: 1, allowOlder });
const month = (out: string) => JSON.parse(readFileSync(join(out, 'views/meta.json'), 'utf8')).month as string;

describe('one build at a time per output', () => {
  it('a second build started while one runs stops at once; the first goes live', async () => {
    const out = join(tmp, 'a', 'dist');
    const [first, second] = await Promise.allSettled([build(withApril(), out), build(copy(), out)]);
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('rejected');
    expect(((second as PromiseRejectedResult).reason as Error).message).toMatch(/^another build of .*dist is running( \(process \d+\))?; it was left alone/);
    expect(month(out)).toBe('2026-04');
  });

  it('a killed build leaves no stuck lock', async () => {
    const out = join(tmp, 'b', 'dist');
    mkdirSync(join(tmp, 'b'));
    // the lock as a build killed a moment ago left it: fresh, its process gone
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
    mkdirSync(lockPathOf(out));
    writeFileSync(join(lockPathOf(out), 'pid'), dead);
    await build(copy(), out);
    expect(month(out)).toBe('2026-03');
  });

  it('never replaces the live release with an older month unless told to', async () => {
    const out = join(tmp, 'a', 'dist');
    await expect(build(copy(), out)).rejects.toThrow('the live release is 2026-04 and this build\'s newest month is 2026-03, older; nothing was published. To go back a month on purpose, build with EVI_ALLOW_OLDER_MONTH=1.');
    expect(month(out)).toBe('2026-04');
    await build(copy(), out, true);
    expect(month(out)).toBe('2026-03');
  });
});

describe('npm run build stops without a stack trace', () => {
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; err: string }>((done) => {
      const child = spawn(process.execPath, [...BUILD_NODE_ARGS], { cwd: root, env: { ...process.env, EVI_CACHE_DIR: 'off', EVI_PAGES: '0', SITE_URL: 'https://evi.example', EVI_WORKERS: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (b: Buffer) => (err += b));
      child.on('close', (code) => done({ code, err }));
    });

  it('a frozen-month stop: what changed and what to do, no stack; EVI_DEBUG=1 adds it', async () => {
    const data = copy();
    const out = join(tmp, 'c', 'dist');
    expect((await run({ EVI_DATA_DIR: data, EVI_OUT_DIR: out })).code).toBe(0);
    writeFileSync(join(data, 'mentions/2026-02.csv'), `${readFileSync(join(data, 'mentions/2026-02.csv'), 'utf8')}b9,2026-02-15,ChatGPT,us,Aerospace,Leadership,q0-leadership,\n`);
    const stopped = await run({ EVI_DATA_DIR: data, EVI_OUT_DIR: out });
    expect(stopped.code).toBe(1);
    expect(stopped.err).toContain('Build stopped by the release ledger; the output folder was not touched.\nPublished months would change; nothing was published:');
    expect(stopped.err).not.toMatch(/^\s+at /m);
    expect(stopped.err).not.toContain('Error:');
    const debug = await run({ EVI_DATA_DIR: data, EVI_OUT_DIR: out, EVI_DEBUG: '1' });
    expect(debug.err).toMatch(/^\s+at /m);
  });
});
