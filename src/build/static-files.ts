/**
 * The static default files (endpoint table, `static` forms): each one is the handler's
 * own answer to its request, read from the views just written, so a static host and
 * the function serve the same bytes for the same URL.
 */
import { createHandler } from '../api/index.ts';
import { deploymentOf, staticFiles } from '../api/endpoints.ts';
import type { MetaView } from '../core/views/layout.ts';
import { FsStore } from '../adapters/node/fs-store.ts';
import type { JsonWriter } from './write-json.ts';

export async function writeStaticFiles(out: JsonWriter, root: string, meta: MetaView, slugs: Iterable<string>): Promise<number> {
  const handle = createHandler(new FsStore(root), { log: (line) => console.error(line) });
  let written = 0;
  for (const file of staticFiles({ meta, slugs }, deploymentOf(meta.index))) {
    if (file.endpoint.static?.from === 'build') continue;
    const res = await handle(new Request(file.url));
    // A default form without data (a company with no ranked country) has no file: the function answers 404.
    if (res.status === 404) continue;
    if (res.status !== 200) throw new Error(`static file ${file.file}: the handler answered ${res.status} for ${file.url}`);
    out.writeText(file.file, await res.text());
    written++;
  }
  return written;
}
