/**
 * /llms.txt (llmstxt.org): H1 name, blockquote summary, details, then H2 sections
 * of `- [name](url): note` links; `## Optional` holds what can be skipped.
 */
import type { APIRoute } from 'astro';
import { meta } from '../components/site-data.ts';
import { endpointDocs } from '../api/openapi.ts';
import { deploymentOf, runsFunction } from '../api/endpoints.ts';
import type { MetaView } from '../core/views/layout.ts';
import { mcpConnect } from '../components/mcp-connect.ts';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function llmsTxt(m: MetaView): string {
  const site = m.siteUrl;
  const full = runsFunction(deploymentOf(m.index));
  const mcp = mcpConnect(site);
  const link = (name: string, url: string, note: string) => `- [${name}](${url}): ${oneLine(note)}`;
  const lines = [
    `# ${m.name}`,
    '',
    `> ${oneLine(m.index.description)}`,
    '',
    `Dataset ${m.month} (last updated ${m.lastUpdated}; months ${m.months[0]} to ${m.months[m.months.length - 1]}): ${m.totalCompanies} companies, ${m.industries.length} industries, ${m.countries.length} countries. Methodology version ${m.methodology.version}; scored models: ${m.methodology.models.join(', ')}.`,
    '',
    `Read-only JSON over HTTP GET, no key, CORS open. \`/api/v1/...\` and \`/api/...\` are equivalent; pin \`/api/v1\`. ${m.index.rateLimit ?? ''}`.trim(),
    '',
    m.index.citation ? `License: ${m.index.license?.name} (${m.index.license?.url}). Cite as: ${m.index.citation}` : `Please credit "${m.name}" with a link to ${site}/.`,
    '',
    ...(full
      ? [
          `MCP (Model Context Protocol): connect to ${mcp.endpoint} (Streamable HTTP, no key); one read-only tool per endpoint (search_companies, get_company, get_rankings, get_leaders, compare_companies, get_index, get_health, get_changelog). For an assistant that only starts local (stdio) servers: in a clone of the repository, after \`npm ci\`, the command \`${mcp.localCommand}\`.`,
          '',
        ]
      : [`Static deployment: ${m.index.deployment!.note}`, '']),
    `Countries (code or name): ${m.countries.map((c) => `${c.code} ${c.name}`).join('; ')}.`,
    '',
    `Industries (name or slug): ${m.industries.map((i) => `${i.name} (${i.slug})`).join('; ')}.`,
    '',
    '## API',
    '',
    ...endpointDocs(m).map((e) => link(`${e.summary}: ${e.method} ${e.path}`, e.exampleUrl, e.description)),
    '',
    '## Documentation',
    '',
    link('Full documentation as Markdown', `${site}/llms-full.txt`, 'every endpoint with its parameters, a real example request and answer, errors, valid values and the methodology, in one file.'),
    link('API documentation', `${site}/api-docs/`, 'every endpoint with its parameters, a live example URL and response, errors, limits, versioning.'),
    link('Bulk downloads', m.index.links.downloads ?? `${site}/downloads/manifest.json`, 'per month, every leaderboard entry of every context as gzip CSV, and the current profiles as gzip NDJSON; manifests with bytes, rows, SHA-256, columns, license and citation.'),
    link('Releases and corrections (Atom feed)', m.index.links.feed ?? `${site}/feed.xml`, 'one entry per monthly release and per correction to a published month; the same as JSON at /api/v1/changelog.'),
    link('Methodology', m.methodology.url, `how the Visibility Score, combinations, models, themes and ranks are defined (version ${m.methodology.version}).`),
    '',
    '## Optional',
    '',
    link('Leaderboard page', `${site}/`, 'HTML overall leaderboard and industry leaders for humans.'),
    link('Example company profile page', `${site}/company/${m.examples.company}/`, 'HTML profile: scores, ranks, model and theme bars, history chart.'),
    link('Search index', `${site}/views/search-index.json`, 'compact company name index used by the search box of the pages.'),
    '',
  ];
  return lines.join('\n');
}

export const GET: APIRoute = () => new Response(llmsTxt(meta()), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
