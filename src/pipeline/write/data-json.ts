/** An optional JSON file of the data folder: absent is `empty`; invalid is a {@link DataError} naming each problem. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { DataError } from '../../core/data-error.ts';

export async function readDataJson<S extends z.ZodType>(dataDir: string, file: string, schema: S, empty: z.output<S>): Promise<z.output<S>> {
  let text: string;
  try {
    text = await readFile(join(dataDir, file), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw e;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new DataError([{ file, message: `not valid JSON (${(e as Error).message})` }]);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new DataError(parsed.error.issues.map((i) => ({ file, message: `${i.path.map(String).join('.') || 'file'}: ${i.message}` })));
  return parsed.data;
}
