/**
 * One build at a time per output: a lock folder beside the output (proper-lockfile), held
 * until the ledger is written. A second build stops, naming the holder; a killed holder's
 * lock is taken over by its process id. Also the guard against going back a month.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export class BuildStopped extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildStopped';
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export const lockPathOf = (outDir: string) => join(dirname(outDir), `.${basename(outDir)}.build.lock`);

/** Takes the output's lock; returns its release. */
export async function lockOutput(outDir: string): Promise<() => Promise<void>> {
  const { lock } = await import('proper-lockfile');
  const lockfilePath = lockPathOf(outDir);
  mkdirSync(dirname(outDir), { recursive: true });
  // A long stale time: a build's thread may be busy for a while; a killed build is found by its pid.
  const take = () => lock(dirname(outDir), { lockfilePath, realpath: false, stale: 300_000, update: 10_000, retries: 0, onCompromised: () => {} });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
    let pid = 0;
    try {
      pid = Number(readFileSync(join(lockfilePath, 'pid'), 'utf8').trim()) || 0;
    } catch {
      // taken a moment ago, its process id not yet written
    }
    if (!pid || alive(pid))
      throw new BuildStopped(`another build of ${outDir} is running${pid ? ` (process ${pid})` : ''}; it was left alone. Wait for it to finish, then build again.`);
    // the holder was killed: its lock is taken over
    rmSync(lockfilePath, { recursive: true, force: true });
    release = await take();
  }
  const pidFile = join(lockfilePath, 'pid');
  writeFileSync(pidFile, String(process.pid));
  // proper-lockfile removes the lock folder, which must then be empty
  return async () => {
    rmSync(pidFile, { force: true });
    // A late refresh makes proper-lockfile's release fail: the folder is still this build's.
    await release().catch(() => rmSync(lockfilePath, { recursive: true, force: true }));
  };
}

/** Stops a build that would replace the live release with an older month. */
export function checkNotOlder(outDir: string, month: string, allowOlder: boolean): void {
  let live: string | undefined;
  try {
    live = (JSON.parse(readFileSync(join(outDir, 'views/meta.json'), 'utf8')) as { month?: string }).month;
  } catch {
    return; // no live release
  }
  if (!live || month >= live || allowOlder) return;
  throw new BuildStopped(`the live release is ${live} and this build's newest month is ${month}, older; nothing was published. To go back a month on purpose, build with EVI_ALLOW_OLDER_MONTH=1.`);
}
