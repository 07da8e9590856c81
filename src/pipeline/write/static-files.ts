/**
 * The static default files: each is the handler's own answer to its request, so a static
 * host and the function serve the same bytes. The company files are made from the views as
 * they are written, with the handler's own functions; the rest by asking the handler.
 */
import { companyCanon, createHandler, currentCompanyAnswer, permalinkOf } from '../../api/index.ts';
import { ALL_ENDPOINTS, MONTH_SCOPE, deploymentOf, staticFiles, staticForm, type Endpoint } from '../../api/endpoints.ts';
import { compareKeys } from '../../core/text.ts';
import { fillPath } from '../../core/urls.ts';
import { viewPaths, type CompanyView, type MetaView } from '../../core/views/layout.ts';
import { FsStore } from '../../adapters/node/fs-store.ts';
import type { JsonWriter } from './write-json.ts';

/** The endpoints whose static files are the company answers. */
const isCompanyFamily = (e: Endpoint) => (e.handler ?? e.id) === 'getCompany';

/** `{ ...profile, permalink }` as JSON.stringify writes it, from the profile's own JSON text. */
const withPermalink = (profile: string, permalink: string) => `${profile.slice(0, -1)},"permalink":${JSON.stringify(permalink)}}`;

/**
 * Writes each current company view and its static files (none with `api` null), and gives
 * the view's lines of the profiles download. Each profile is stringified once and the texts reused, the same bytes
 * as the handler's answers.
 */
export class CurrentCompanyFiles {
  readonly #forms: { file: string; permanent: boolean }[];

  constructor(
    private readonly views: JsonWriter,
    private readonly api: JsonWriter | null,
    private readonly meta: MetaView,
  ) {
    const target = deploymentOf(meta.index);
    this.#forms = !api ? [] : ALL_ENDPOINTS.flatMap((e) => {
      const form = isCompanyFamily(e) ? staticForm(e, target) : null;
      return form?.from === 'handler' ? [{ file: form.file, permanent: e.path.startsWith(MONTH_SCOPE) }] : [];
    });
  }

  add(view: CompanyView): string[] {
    const { meta } = this;
    const codes = Object.keys(view.profiles);
    const texts = new Map(codes.map((code) => [code, JSON.stringify(view.profiles[code])]));
    this.views.writeText(viewPaths.company(view.slug).slice('views/'.length), viewText(view, codes, texts));
    for (const { file, permanent } of this.#forms) {
      const path = fillPath(file, { slug: view.slug, month: meta.month });
      if (permanent) {
        const body = currentCompanyAnswer(meta, view, null, true);
        if (body) this.api!.writeText(path, JSON.stringify(body));
      } else if (view.defaultCountry !== null && texts.has(view.defaultCountry)) {
        this.api!.writeText(path, withPermalink(texts.get(view.defaultCountry)!, permalinkOf(meta, meta.month, companyCanon(view.slug, undefined))));
      }
    }
    return codes.sort(compareKeys).map((code) => withPermalink(texts.get(code)!, permalinkOf(meta, meta.month, companyCanon(view.slug, code))));
  }
}

/** JSON.stringify(view) from its profiles' texts: the view stringified with `profiles: 0`, that 0 then replaced. */
function viewText(view: CompanyView, codes: string[], texts: Map<string, string>): string {
  const shell = JSON.stringify({ ...view, profiles: 0 });
  const at = shell.indexOf('"profiles":0');
  if (at < 0 || shell.indexOf('"profiles":0', at + 1) >= 0) return JSON.stringify(view);
  const profiles = `{${codes.map((code) => `${JSON.stringify(code)}:${texts.get(code)!}`).join(',')}}`;
  return `${shell.slice(0, at)}"profiles":${profiles}${shell.slice(at + '"profiles":0'.length)}`;
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
