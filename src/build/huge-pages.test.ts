/**
 * The build's process on Linux runs with glibc's large blocks on huge pages
 * when it is a monthly build and the kernel gives huge pages on request (huge-pages.mjs): the
 * kernel's setting as read, the setting as it is added to an environment, a
 * script started again with it (its output, exit code and signal passed on), its effect on a
 * large buffer where the kernel gives huge pages on request, and `npm run build`'s own script
 * through it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HUGE_PAGES_TUNABLE, hugePagesEnv, thpSetting } from './huge-pages.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'evi-huge-pages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A script started as scripts/build.mjs starts the build: again with the setting when
 * hugePagesEnv asks for it; the started one prints its GLIBC_TUNABLES and the huge pages
 * behind a 64 MiB buffer it fills, then ends as `END` says (an exit code, or a signal), or
 * waits (`wait`).
 */
const SCRIPT = join(dir, 'relaunched.mjs');
writeFileSync(
  SCRIPT,
  `import { readFileSync } from 'node:fs';
import { hugePagesEnv, relaunch } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/build/huge-pages.mjs')).href)};
const env = hugePagesEnv(process.env, process.platform, 'madvise');
if (env) relaunch(env);
else {
  const buf = Buffer.alloc(64 << 20);
  buf.fill(1);
  const huge = /^AnonHugePages:\\s+(\\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'));
  console.log(JSON.stringify({ tunables: process.env.GLIBC_TUNABLES ?? null, hugeKiB: huge ? Number(huge[1]) : null, pid: process.pid, ppid: process.ppid }));
  const end = process.env.END ?? '0';
  if (end === 'wait') setInterval(() => {}, 1000);
  else if (end.startsWith('SIG')) process.kill(process.pid, end);
  else process.exit(Number(end));
}
`,
);

function run(env: Record<string, string>) {
  const { GLIBC_TUNABLES: _, EVI_HUGE_PAGES: __, ...inherited } = process.env;
  const r = spawnSync(process.execPath, [SCRIPT], { env: { ...inherited, ...env }, encoding: 'utf8' });
  const out = r.stdout.trim() ? (JSON.parse(r.stdout.trim()) as { tunables: string | null; hugeKiB: number | null; pid: number; ppid: number }) : null;
  return { status: r.status, signal: r.signal, out, stderr: r.stderr, pid: r.pid };
}

/** This machine's kernel setting for transparent huge pages. */
const thp = thpSetting();
const linux = process.platform === 'linux';

describe('hugePagesEnv', () => {
  it('adds the setting on Linux where the kernel gives huge pages on request, after any other tunables, and once', () => {
    expect(hugePagesEnv({ PATH: '/bin' }, 'linux', 'madvise')).toEqual({ PATH: '/bin', GLIBC_TUNABLES: HUGE_PAGES_TUNABLE });
    expect(hugePagesEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, 'linux', 'madvise')).toEqual({ GLIBC_TUNABLES: `glibc.malloc.arena_max=2:${HUGE_PAGES_TUNABLE}` });
    const once = hugePagesEnv({}, 'linux', 'madvise')!;
    expect(hugePagesEnv(once, 'linux', 'madvise')).toBeNull();
  });

  it("leaves the operator's own value, EVI_HUGE_PAGES=0, other kernel settings and other platforms alone", () => {
    expect(hugePagesEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }, 'linux', 'madvise')).toBeNull();
    expect(hugePagesEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0' }, 'linux', 'madvise')).toBeNull();
    expect(hugePagesEnv({ EVI_HUGE_PAGES: '0' }, 'linux', 'madvise')).toBeNull();
    expect(hugePagesEnv({}, 'linux', 'always')).toBeNull();
    expect(hugePagesEnv({}, 'linux', 'never')).toBeNull();
    expect(hugePagesEnv({}, 'linux', null)).toBeNull();
    expect(hugePagesEnv({}, 'darwin', 'madvise')).toBeNull();
    expect(hugePagesEnv({}, 'win32', null)).toBeNull();
  });

  it("reads the kernel's setting from the bracketed word", () => {
    const file = join(dir, 'enabled');
    writeFileSync(file, 'always [madvise] never\n');
    expect(thpSetting(file)).toBe('madvise');
    writeFileSync(file, '[always] madvise never\n');
    expect(thpSetting(file)).toBe('always');
    expect(thpSetting(join(dir, 'none'))).toBeNull();
  });
});

describe.runIf(linux)('a script started again with the setting', () => {
  it('runs in a process of its own with the setting, and ends with its exit code', () => {
    const r = run({ END: '3' });
    expect(r.status).toBe(3);
    expect(r.out!.tunables).toBe(HUGE_PAGES_TUNABLE);
    // the launcher's child, not the launcher
    expect(r.out!.ppid).toBe(r.pid);
  });

  it('ends as its started script does when a signal ends it', () => {
    const r = run({ END: 'SIGTERM' });
    expect(r.status).toBeNull();
    expect(r.signal).toBe('SIGTERM');
    expect(r.out!.tunables).toBe(HUGE_PAGES_TUNABLE);
  });

  it('passes on a signal the first process gets, and ends as the second then does', async () => {
    const { GLIBC_TUNABLES: _, EVI_HUGE_PAGES: __, ...inherited } = process.env;
    const child = spawn(process.execPath, [SCRIPT], { env: { ...inherited, END: 'wait' }, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((done) => child.stdout.once('data', (b: Buffer) => done(b.toString('utf8'))));
    const started = JSON.parse(line) as { pid: number; ppid: number };
    expect(started.ppid).toBe(child.pid);
    const ended = new Promise<NodeJS.Signals | null>((done) => child.on('close', (_code, signal) => done(signal)));
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    // the second process is gone too
    expect(() => process.kill(started.pid, 0)).toThrow();
  });

  it('is not started again with EVI_HUGE_PAGES=0', () => {
    const r = run({ EVI_HUGE_PAGES: '0' });
    expect(r.status).toBe(0);
    expect(r.out!.tunables).toBeNull();
    expect(r.out!.pid).toBe(r.pid);
  });

  // Where the kernel gives huge pages only on request (Debian's default), the request is
  // what glibc makes with the setting: the buffer is on huge pages with it, not without.
  it.runIf(thp === 'madvise')('puts a large buffer on huge pages, where the kernel gives them on request', () => {
    expect(run({}).out!.hugeKiB).toBeGreaterThanOrEqual(32 * 1024);
    expect(run({ EVI_HUGE_PAGES: '0' }).out!.hugeKiB).toBe(0);
  });
});

describe.runIf(linux)("npm run build's script", () => {
  /**
   * `node scripts/build.mjs` on a data folder with two months and no registry (the build stops
   * with a data error), and a cache folder that has the first month's entry (a monthly build by
   * the folders' names) or not. A preload (a Node flag, so passed on) names the setting of
   * each thread it runs in.
   */
  function build(monthly: boolean) {
    const data = mkdtempSync(join(dir, 'data-'));
    mkdirSync(join(data, 'mentions'));
    for (const month of ['2025-01', '2025-02']) writeFileSync(join(data, 'mentions', `${month}.csv`), 'date\n');
    const cache = mkdtempSync(join(dir, 'cache-'));
    if (monthly) writeFileSync(join(cache, `2025-01-${'0'.repeat(32)}.bin`), '');
    const preload = `data:text/javascript,console.error('tunables: ' + process.env.GLIBC_TUNABLES)`;
    const { GLIBC_TUNABLES: _, EVI_HUGE_PAGES: __, ...inherited } = process.env;
    const env = { ...inherited, EVI_DATA_DIR: data, EVI_CACHE_DIR: cache, EVI_OUT_DIR: join(dir, 'dist'), SITE_URL: 'https://example.org', EVI_PAGES: '0' };
    const r = spawnSync(process.execPath, ['--import', preload, 'scripts/build.mjs'], { cwd: ROOT, env, encoding: 'utf8' });
    return { status: r.status, stderr: r.stderr, tunables: [...new Set(r.stderr.match(/^tunables: .*$/gm))] };
  }

  it("starts a monthly build again with its Node flags and the setting where the kernel gives huge pages on request, and ends with the build's exit code and message", () => {
    const r = build(true);
    expect(r.tunables).toEqual(thp === 'madvise' ? ['tunables: undefined', `tunables: ${HUGE_PAGES_TUNABLE}`] : ['tunables: undefined']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Build stopped');
    expect(r.stderr).toContain('countries.csv');
  });

  it('runs a cold build as it was started', () => {
    const r = build(false);
    expect(r.tunables).toEqual(['tunables: undefined']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('countries.csv');
  });
});
