import { cp, rename, rm } from 'node:fs/promises';

/** Moves a folder, copying where a rename cannot cross file systems. */
export async function moveDir(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await cp(from, to, { recursive: true });
    await rm(from, { recursive: true, force: true });
  }
}
