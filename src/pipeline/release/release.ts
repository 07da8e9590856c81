/**
 * The atomic release (data-and-rules §1.5): `dist` is a symbolic link to one complete build
 * under `.dist-releases/`, replaced by one `rename`, so a reader or a crash sees either the
 * old build or the new one. The previous release stays for requests in flight.
 */
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { noteOwnChanges } from '../cache/own-changes.ts';
import { removeTrees } from './remove-trees.ts';

/** Where the builds behind `outDir` live: a hidden sibling folder. */
export const releasesDir = (outDir: string) => join(dirname(outDir), `.${basename(outDir)}-releases`);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A step of {@link publish}, for tests that crash the swap on purpose between two steps. */
export type ReleaseStep = 'moved' | 'linked';

/** Release names sort by time: base-36 milliseconds, zero-padded, then the process id. */
function releaseName(): string {
  return `${Date.now().toString(36).padStart(10, '0')}-${process.pid}`;
}

/**
 * Makes the complete build in `siteDir` the live output at `outDir`.
 * @returns the release folder now behind `outDir`.
 */
export async function publish(siteDir: string, outDir: string, step: (s: ReleaseStep) => void = () => {}): Promise<string> {
  const dir = releasesDir(outDir);
  const name = releaseName();
  const target = join(dir, name);
  await mkdir(dir, { recursive: true });
  await rename(siteDir, target);
  step('moved');

  // A real folder at outDir (the layout before releases): moved into the releases once.
  if (existsSync(outDir) && !lstatSync(outDir).isSymbolicLink()) await rename(outDir, join(dir, `${releaseName()}-legacy`));
  const previous = lstatSync(outDir, { throwIfNoEntry: false })?.isSymbolicLink() ? basename(await readlink(outDir)) : null;

  const link = join(dirname(outDir), `.${basename(outDir)}.link-${process.pid}`);
  await rm(link, { force: true });
  await symlink(join(basename(dir), name), link);
  step('linked');
  await rename(link, outDir);

  await prune(outDir, new Set([name, ...(previous ? [previous] : [])]));
  return target;
}

/** Removes the releases behind the live one at the start of a build, so the swap has nothing left to delete. */
export async function pruneBehindLive(outDir: string): Promise<void> {
  if (!lstatSync(outDir, { throwIfNoEntry: false })?.isSymbolicLink()) return;
  await prune(outDir, new Set([basename(await readlink(outDir))]));
}

/** Removes releases other than `keep`, and links and stages left by builds that were killed. */
export async function prune(outDir: string, keep: Set<string>): Promise<void> {
  const dir = releasesDir(outDir);
  const gone: string[] = [];
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    if (keep.has(entry)) continue;
    const pid = Number(/^[0-9a-z]+-(\d+)/.exec(entry)?.[1]);
    // A release of a build still running (not yet linked) is left alone.
    if (!entry.endsWith('-legacy') && pid !== process.pid && alive(pid)) continue;
    gone.push(join(dir, entry));
  }
  // Known before they settle: a cache entry read meanwhile waits for them (own-changes.ts).
  const removed = removeTrees(gone);
  noteOwnChanges(removed);
  await removed;
  const parent = dirname(outDir);
  const prefix = `.${basename(outDir)}.link-`;
  for (const entry of await readdir(parent).catch(() => [] as string[])) {
    const pid = Number(entry.slice(prefix.length));
    if (entry.startsWith(prefix) && (pid === process.pid || !alive(pid))) await rm(join(parent, entry), { force: true });
  }
}

/** Stage folders (`.dist.stage-<pid>`) of builds that were killed before they could clean up. */
export async function removeStaleStages(outDir: string): Promise<void> {
  const parent = dirname(outDir);
  const prefix = `.${basename(outDir)}.stage-`;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const pid = Number(/^(\d+)/.exec(name.slice(prefix.length))?.[1]);
    if (name.startsWith(prefix) && (pid === process.pid || !alive(pid))) await rm(join(parent, name), { recursive: true, force: true });
  }
}
