// @ts-check
// A monthly build runs with glibc's malloc asking for transparent huge pages
// (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`: malloc marks the large blocks it maps with
// MADV_HUGEPAGE, so that a kernel whose THP setting is `madvise` backs them with 2 MiB pages).
// Its large buffers (the new month's file and gunzipped text in a fresh parser worker, the
// cached months' entries, the views' bytes) are malloc's, not V8's heap, and every 4 KiB page
// of fresh memory costs a page fault, dear on the reference machine (a virtual machine whose
// setting is `madvise`). Monthly builds at reference scale, alternated with and without, five
// pairs: 14.3-20.7 s (median 14.5) against 14.9-20.7 s (median 20.6), faster in four pairs
// by 0.4-6.3 s and even in one (the machine ran slower for a while); ~173,000-187,000 page
// faults against ~280,000-292,000; peak 616-675 MiB against 526-579 MiB. Not a cold build:
// no faster in three such builds (69.9-86.6 s against 70.4-73.7 s), and its peak
// 1,314-1,437 MiB against 1,165-1,201 MiB, too near the 1.5 GiB it must stay under
// (BENCHMARKS.md, "Build: a monthly build's large blocks on huge pages"). glibc reads the
// setting once, as the process starts, so `scripts/build.mjs` starts itself again with it
// (~0.1-0.3 s; the first process waits with ~45 MiB resident) when the folders' names say a
// monthly build and the kernel gives huge pages on request. `EVI_HUGE_PAGES=0` leaves the
// process as started. Elsewhere (no glibc: macOS, Windows, musl; a kernel that gives huge
// pages always or never) the setting changes nothing and nothing is done.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';

export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb=1';

/**
 * The kernel's setting for transparent huge pages (`always`, `madvise`, `never`), or null
 * where there is none to read.
 * @param {string} [file]
 * @returns {string | null}
 */
export function thpSetting(file = '/sys/kernel/mm/transparent_hugepage/enabled') {
  try {
    return /\[(\w+)\]/.exec(readFileSync(file, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * The environment to run the build in, or null to run it as started: where the setting would
 * change nothing (not Linux; a kernel whose setting is not `madvise`: `never` gives no huge
 * pages, `always` gives them without the request), `EVI_HUGE_PAGES=0`, or a
 * `glibc.malloc.hugetlb` setting already there (this process is the started one, or the
 * operator chose a value). Other tunables are kept.
 * @param {NodeJS.ProcessEnv} env
 * @param {NodeJS.Platform} platform
 * @param {string | null} thp the kernel's setting ({@link thpSetting})
 * @returns {NodeJS.ProcessEnv | null}
 */
export function hugePagesEnv(env, platform, thp) {
  if (platform !== 'linux' || thp !== 'madvise' || env.EVI_HUGE_PAGES === '0') return null;
  const tunables = env.GLIBC_TUNABLES ?? '';
  if (/(^|:)glibc\.malloc\.hugetlb=/.test(tunables)) return null;
  return { ...env, GLIBC_TUNABLES: tunables ? `${tunables}:${HUGE_PAGES_TUNABLE}` : HUGE_PAGES_TUNABLE };
}

/**
 * Runs this process's script again, with the same Node flags and arguments, in `env`; the
 * signals this process gets are passed on, and it exits as the new one does (its code, or
 * the same signal). The promise never settles: await it to go no further.
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<never>}
 */
export function relaunch(env) {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env, stdio: 'inherit' });
  const signals = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);
  const pass = (/** @type {NodeJS.Signals} */ signal) => child.kill(signal);
  for (const signal of signals) process.on(signal, pass);
  child.on('error', (e) => {
    console.error(`could not start the build: ${e.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, pass);
    if (code !== null || !signal) process.exit(code ?? 1);
    process.kill(process.pid, signal);
    // A signal this process does not die of (one Node ignores): the shell's code for it.
    setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
  });
  return new Promise(() => {});
}
