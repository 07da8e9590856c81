/**
 * The MCP server (Model Context Protocol): one read-only tool per endpoint of the
 * endpoint table, over the same Web-standard handler as the HTTP API. A tool's input
 * schema is the endpoint's own zod parameter schemas (path and query); its result is
 * the API's JSON as structured content plus a one-line text; an API error becomes an
 * MCP tool error carrying the API's message. Adapters (stdio, Streamable HTTP at
 * `/mcp`) only choose the transport.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ENDPOINTS, endpointUrl } from '../api/endpoints.ts';
import type { Endpoint } from '../api/endpoints.ts';
import type { Handler } from '../api/index.ts';
import { siteUrls } from '../core/urls.ts';
import type { QueryValues } from '../core/urls.ts';

/** The MCP path on every host that runs the function. */
export const MCP_PATH = '/mcp';

/** `searchCompanies` -> `search_companies`; `getIndex` -> `get_index`. */
export const toolName = (id: string) => id.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Endpoints offered as tools: every data endpoint of the table (the OpenAPI document is for HTTP clients). */
export const TOOL_ENDPOINTS = (ENDPOINTS as readonly Endpoint[]).filter((e) => e.id !== 'getOpenApi');

/** A short sentence about an answer, for clients that show text only. */
function summarize(id: string, body: Record<string, unknown>): string {
  const b = body as Record<string, any>;
  switch (id) {
    case 'searchCompanies':
      return `${b.results.length} result(s) for "${b.query}" (${b.month})${b.results.length ? `: ${b.results.map((r: any) => `${r.company} (${r.slug}), rank ${r.latestRanking.rank} in ${r.country}`).join('; ')}` : ''}.`;
    case 'getCompany':
      return b.summary;
    case 'getRankings':
      return `${b.industry}, ${b.country}, ${b.month}: page ${b.page} of ${b.totalPages}, ${b.totalCompanies} companies; ${b.rankings.slice(0, 5).map((e: any) => `${e.rank}. ${e.company} (${e.visibilityScore})`).join(', ')}.`;
    case 'getLeaders':
      return `Top ${b.industry} employers in ${b.country}, ${b.month}: ${b.topCompanies.map((e: any) => `${e.rank}. ${e.company} (${e.score})`).join(', ')}.`;
    case 'compareCompanies':
      return `${b.month}: ${b.companies.map((p: any) => `${p.company}: ${p.visibilityScore} in ${p.industry}, ${p.country} (rank ${p.industryRank} of ${p.totalCompaniesInIndustry})`).join('; ')}.`;
    case 'getChangelog':
      return `${b.releases.length} monthly release(s); latest ${b.releases[0]?.month ?? 'none'}.`;
    default:
      return `${b.name ?? 'Answer'} for ${b.month ?? ''}.`.trim();
  }
}

/**
 * @param handle the API handler (local views, or a remote base URL forwarded with fetch)
 * @param origin the site origin the tools' URLs are built on
 * @example
 * const server = createMcpServer(createHandler(new FsStore('dist')), 'https://evi.example');
 */
export function createMcpServer(handle: Handler, origin: string, version = '1'): McpServer {
  const server = new McpServer({ name: 'employer-visibility-index', version });
  const urls = siteUrls(origin);
  for (const e of TOOL_ENDPOINTS) {
    const shape = { ...(e.pathParams?.shape ?? {}), ...e.query.shape };
    server.registerTool(
      toolName(e.id),
      {
        title: e.summary,
        description: `${e.description} Read-only; answers with the API's JSON (${e.method} ${'/api/v1'}${e.path}).`,
        inputSchema: shape,
        annotations: { title: e.summary, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        const params: QueryValues = {};
        for (const [k, v] of Object.entries(args ?? {})) if (v !== undefined && v !== null) params[k] = typeof v === 'number' ? v : String(v);
        const res = await handle(new Request(endpointUrl(urls, e, params)));
        const body = (await res.json()) as Record<string, unknown>;
        if (res.status !== 200) return { isError: true, content: [{ type: 'text', text: String(body.message ?? `HTTP ${res.status}`) }], structuredContent: body };
        return { content: [{ type: 'text', text: summarize(e.id, body) }], structuredContent: body };
      },
    );
  }
  return server;
}

/**
 * Streamable HTTP at `/mcp`, stateless (a fresh server and transport per request,
 * JSON responses): what the Node server and the Worker call for that path.
 */
export async function handleMcp(request: Request, handle: Handler, origin: string): Promise<Response> {
  const server = createMcpServer(handle, origin);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    void server.close();
  }
}
