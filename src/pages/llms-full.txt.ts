/**
 * /llms-full.txt: the documentation and the methodology as Markdown in one file, for
 * language models that read a whole site at once (llmstxt.org). Every endpoint with
 * its parameters (from the zod schemas, through the endpoint table), a real example
 * request and the start of its real answer, the errors, limits and versioning.
 */
import type { APIRoute } from 'astro';
import { apiGet, meta } from '../components/site-data.ts';
import { endpointDocs, errorExamples } from '../api/openapi.ts';
import { deploymentOf, runsFunction } from '../api/endpoints.ts';
import type { MetaView } from '../core/views/layout.ts';
import { mcpConnect } from '../components/mcp-connect.ts';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
/** An example answer, cut to a readable length (the full one is one request away). */
const excerpt = (body: unknown, max = 1500) => {
  const text = JSON.stringify(body, null, 1);
  // Cut at a line end, so that no URL is cut in half.
  return text.length > max ? `${text.slice(0, text.lastIndexOf('\n', max))}\n... (cut; request the URL for the whole answer)` : text;
};

export async function llmsFullTxt(m: MetaView): Promise<string> {
  const site = m.siteUrl;
  const full = runsFunction(deploymentOf(m.index));
  const out: string[] = [
    `# ${m.name}: full documentation`,
    '',
    `> ${oneLine(m.index.description)}`,
    '',
    `Dataset ${m.month} (last updated ${m.lastUpdated}); months ${m.months.join(', ')}. ${m.totalCompanies} companies, ${m.industries.length} industries, ${m.countries.length} countries.`,
    `Read-only JSON over HTTP GET (HEAD and OPTIONS too), no key, CORS open. Base URL ${m.index.links.self}; \`/api/...\` equals \`/api/v1/...\`. ${m.index.rateLimit ?? ''}`.trim(),
    m.index.citation ? `License: ${m.index.license?.name} (${m.index.license?.url}). Cite as: ${m.index.citation}` : '',
    ...(full ? [] : ['', `**Static deployment.** ${m.index.deployment!.note}`]),
    '',
    '## Methodology',
    '',
    oneLine(m.methodology.description),
    '',
    `Version ${m.methodology.version}; scored models: ${m.methodology.models.join(', ')}. Details: ${m.methodology.url}`,
    '',
    '## Valid values',
    '',
    `- Countries (code, name or alias; case-insensitive): ${m.countries.map((c) => `${c.code} = ${c.name}`).join('; ')}.`,
    `- Industries (slug or name; case-insensitive; \`all\` for every industry): ${m.industries.map((i) => `${i.slug} = ${i.name}`).join('; ')}.`,
    `- Months (YYYY-MM): ${m.months.join(', ')}; the current one is ${m.month}.`,
    '',
    '## Endpoints',
    '',
  ];
  for (const e of endpointDocs(m)) {
    out.push(`### ${e.summary}: ${e.method} ${e.path}`, '', oneLine(e.description), '');
    if (e.parameters.length) {
      out.push('Parameters:', '');
      for (const p of e.parameters) {
        const s = p.schema as Record<string, unknown>;
        const bounds = [s.type, s.minimum !== undefined ? `min ${s.minimum}` : '', s.maximum !== undefined ? `max ${s.maximum}` : '', s.default !== undefined ? `default ${JSON.stringify(s.default)}` : '', s.enum ? `one of ${(s.enum as unknown[]).join(', ')}` : '', s.maxLength !== undefined ? `at most ${s.maxLength} characters` : '']
          .filter(Boolean)
          .join(', ');
        out.push(`- \`${p.name}\` (${p.in}${p.required ? ', required' : ''}${bounds ? `; ${bounds}` : ''}): ${oneLine(p.description)}`);
      }
      out.push('');
    }
    out.push(`Example: ${e.exampleUrl}`, '');
    if (e.response) {
      const answer = await apiGet(e.exampleUrl);
      out.push('```json', excerpt(answer.body), '```', '');
    }
  }
  const worded = errorExamples(m);
  out.push(
    '## Errors',
    '',
    'Every error is JSON `{ "error", "message", ... }` with CORS; a value close to a valid one (a misspelt slug, industry, country, month or sort) also gets `suggestions`, the close valid values, named in the message as "Did you mean". 400 `bad_request` (a missing or invalid parameter, or a typo of a parameter name; the body names the parameter and lists valid values), 404 `not_found` (unknown company, industry, country or month; lists valid values), 405 `method_not_allowed`, 429 `rate_limited` (with Retry-After), 502 `internal` (retry).',
    '',
    '```json',
    JSON.stringify(worded[400]),
    JSON.stringify(worded[404]),
    '```',
    '',
    '## Versions, permanent URLs, downloads, changes',
    '',
    full
      ? `- Pin \`/api/v1\`. Every month-dependent endpoint takes \`month=YYYY-MM\` and also answers at \`/api/v1/months/{month}/...\` (immutable, cacheable for a year); current answers carry \`Link: <...>; rel="canonical"\` to that copy.`
      : `- Pin \`/api/v1\`. Past months and the month-addressed URLs need the function; on this static deployment they are in the bulk downloads below.`,
    `- Bulk downloads (CSV and NDJSON, gzip, with SHA-256 manifests): ${m.index.links.downloads ?? `${site}/downloads/manifest.json`}`,
    `- Releases and corrections: ${m.index.links.changelog ?? `${site}/api/v1/changelog`} and the Atom feed ${m.index.links.feed ?? `${site}/feed.xml`}.`,
    `- OpenAPI 3.1: ${m.index.openapi ?? `${site}/api/v1/openapi.json`}; short overview: ${site}/llms.txt; human docs: ${site}/api-docs/.`,
    ...(full
      ? [`- MCP: connect to ${mcpConnect(site).endpoint} (Streamable HTTP, no key). For an assistant that only starts local (stdio) servers: in a clone of the repository, after \`npm ci\`, the command \`${mcpConnect(site).localCommand}\`.`]
      : []),
    '',
  );
  return out.join('\n');
}

export const GET: APIRoute = async () => new Response(await llmsFullTxt(meta()), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
