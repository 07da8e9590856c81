/**
 * The static default files (endpoint table, `static` forms): each one is the handler's
 * own answer to its request, so a static host and the function serve the same bytes for
 * the same URL. The company family (one file per company, 10,000 at reference scale) is
 * shaped from the current views as the build makes them, by the handler's own functions
 * (`currentCompanyAnswer`); every other file is the handler's answer to its request, read
 * from the views just written. test/static-answers.test.ts checks every file against the
 * handler's answer to its URL.
 */
import { createHandler, currentCompanyAnswer } from '../api/index.ts';
import { ALL_ENDPOINTS, MONTH_SCOPE, deploymentOf, staticFiles, staticForm, type Endpoint } from '../api/endpoints.ts';
import { fillPath } from '../core/urls.ts';
import type { CompanyView, MetaView } from '../core/views/layout.ts';
import { FsStore } from '../adapters/node/fs-store.ts';
import type { JsonWriter } from './write-json.ts';

/** The endpoints whose static files are the company answers (the default form; on a static host also its month-addressed form). */
const isCompanyFamily = (e: Endpoint) => (e.handler ?? e.id) === 'getCompany';

/**
 * Writes the company family's static files of each current company view it is given (none
 * for a company without a profile: the function answers 404 there). Without a request per
 * company, the handler's file read and parse, or a Response: ~0.3 ms of CPU per company.
 */
export function companyStaticFiles(out: JsonWriter, meta: MetaView): (view: CompanyView) => void {
  const target = deploymentOf(meta.index);
  const forms = ALL_ENDPOINTS.flatMap((e) => {
    const form = isCompanyFamily(e) ? staticForm(e, target) : null;
    return form?.from === 'handler' ? [{ file: form.file, permanent: e.path.startsWith(MONTH_SCOPE) }] : [];
  });
  return (view) => {
    for (const { file, permanent } of forms) {
      const body = currentCompanyAnswer(meta, view, null, permanent);
      if (body) out.writeText(fillPath(file, { slug: view.slug, month: meta.month }), JSON.stringify(body));
    }
  };
}

/** Writes every other static file (not the company family's): the handler's answer to each, from the views under `root`. */
export async function writeStaticFiles(out: JsonWriter, root: string, meta: MetaView): Promise<number> {
  const handle = createHandler(new FsStore(root), { log: (line) => console.error(line) });
  let written = 0;
  for (const file of staticFiles({ meta, slugs: [] }, deploymentOf(meta.index))) {
    if (file.endpoint.static?.from === 'build' || isCompanyFamily(file.endpoint)) continue;
    const res = await handle(new Request(file.url));
    // A default form without data has no file: the function answers 404.
    if (res.status === 404) continue;
    if (res.status !== 200) throw new Error(`static file ${file.file}: the handler answered ${res.status} for ${file.url}`);
    out.writeText(file.file, await res.text());
    written++;
  }
  return written;
}
