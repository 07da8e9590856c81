/**
 * A copy of the sample data folder (`data/`) with its oldest month files only, for the tests
 * of a build step that need several months of real data but not all of them: each month
 * more is one more month to parse, score and write in every build the test runs.
 */
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const SAMPLE = resolve(import.meta.dirname, '../../data');

/**
 * Copies the sample data into `dir` with its first `months` month files, and without the
 * ledger (`releases.json`, which names every month of the sample): a build of the copy
 * starts its own.
 * @example
 * const data = sampleData(join(tmp, 'data'), 4);
 */
export function sampleData(dir: string, months: number): string {
  cpSync(SAMPLE, dir, { recursive: true });
  const files = readdirSync(join(dir, 'mentions'))
    .filter((f) => /\.csv(\.gz)?$/.test(f))
    .sort();
  if (files.length < months) throw new Error(`sampleData: the sample has ${files.length} months, not ${months}`);
  for (const f of files.slice(months)) rmSync(join(dir, 'mentions', f));
  rmSync(join(dir, 'releases.json'), { force: true });
  return dir;
}
