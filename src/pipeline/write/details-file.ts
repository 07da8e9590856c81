/**
 * A past month's packed board details on disk between its scoring and its views job, so that
 * the build does not hold every month's details until the views jobs reach them.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PackedDetails } from '../../core/score.ts';

/** Packed details whose counts are in a file: what a views job is sent instead of the counts. */
export interface DetailsFile {
  lists: PackedDetails['lists'];
  path: string;
  /** The counts' length, in integers. */
  length: number;
}

/** Writes `details`' counts to `dir`/`name`; the counts are no longer needed in memory. */
export function spillDetails(dir: string, name: string, details: PackedDetails): DetailsFile {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.bin`);
  const { counts } = details;
  writeFileSync(path, new Uint8Array(counts.buffer, counts.byteOffset, counts.byteLength));
  return { lists: details.lists, path, length: counts.length };
}

/** The packed details back from their file, which goes: each month's views job reads them once. */
export function readDetails(file: DetailsFile): PackedDetails {
  const counts = new Int32Array(file.length);
  const bytes = new Uint8Array(counts.buffer);
  const fd = openSync(file.path, 'r');
  try {
    for (let at = 0; at < bytes.length; ) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) throw new Error(`${file.path}: ${at} of ${bytes.length} bytes of packed details`);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  rmSync(file.path, { force: true });
  return { lists: file.lists, counts };
}
