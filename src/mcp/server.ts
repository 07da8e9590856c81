/**
 * The MCP server (@modelcontextprotocol/sdk): the tools of `tools.ts` answered by
 * calling the API handler's `fetch(Request)` (or a remote API over fetch), so an
 * assistant gets exactly the API's JSON. The low-level `Server` is used rather
 * than `McpServer.registerTool` so that the advertised input schemas are the JSON
 * Schemas of the API's own zod schemas and the arguments reach the API as they
 * are: the API alone validates them, and its error message is the tool error.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { TOOLS, ToolArgumentError, toolUrl } from './tools.ts';
import type { JsonObject } from './tools.ts';

/** Anything that answers an API request: the in-process handler or `fetch` to a remote API. */
export type ApiFetch = (request: Request) => Promise<Response>;

export interface McpOptions {
  /** Base URL of the API's origin (the `/api/v1` paths are appended). Default `http://localhost`: any origin does for the in-process handler. */
  baseUrl?: string;
  /** Server version reported to clients. */
  version?: string;
}

export const MCP_SERVER_NAME = 'employer-visibility-index';
export const MCP_PATH = '/mcp';
/** A tool call is a few hundred bytes; the SDK's default (4 MiB) is far more than a public endpoint needs. */
export const MAX_BODY_BYTES = 64 * 1024;

const INSTRUCTIONS =
  'Rankings of companies by how visible they are as employers in the answers of AI assistants (ChatGPT, Gemini, Perplexity), by country, industry and month. ' +
  'Use get_leaders for "top <industry> employers in <country>", search_companies to find a slug, get_company or compare_companies for details, get_index for the valid countries, industries and months, get_changelog for releases and corrections. ' +
  'Every answer is the JSON of the public API (`/api/v1`), with its methodology and profile links.';

/**
 * The server validates JSON only for elicitation, which these tools never ask for;
 * this stands in for the default Ajv validator, whose code generation (`new Function`)
 * a Worker does not allow.
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'this server does not use elicitation' }),
};

/** The `tools/list` entries. */
export function listTools(): Tool[] {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }));
}

/**
 * A tool error. The API's error body goes into the text, not `structuredContent`:
 * clients check structured content against the tool's output schema even on errors.
 */
function failure(text: string, body?: JsonObject): CallToolResult {
  const extra = body ? Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'message')) : {};
  const detail = Object.keys(extra).length ? `\n${JSON.stringify(extra)}` : '';
  return { isError: true, content: [{ type: 'text', text: `${text}${detail}` }] };
}

/**
 * Runs one tool: the API request, then its JSON as `structuredContent` with a
 * short text, or an `isError` result carrying the API's message.
 */
export async function callTool(api: ApiFetch, name: string, args: Record<string, unknown> = {}, baseUrl = 'http://localhost'): Promise<CallToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) return failure(`Unknown tool "${name}". Tools: ${TOOLS.map((t) => t.name).join(', ')}.`);
  let url: URL;
  try {
    url = toolUrl(tool, args, baseUrl);
  } catch (error) {
    if (error instanceof ToolArgumentError) return failure(error.message);
    throw error;
  }
  let res: Response;
  try {
    res = await api(new Request(url, { headers: { accept: 'application/json' } }));
  } catch (error) {
    return failure(`The API could not be reached (${url.origin}): ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return failure(`The API answered ${res.status} with a body that is not JSON.`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return failure(`The API answered ${res.status} with JSON that is not an object.`);
  const json = body as JsonObject;
  if (!res.ok) {
    const message = typeof json.message === 'string' ? json.message : `HTTP ${res.status}`;
    return failure(message, json);
  }
  let summary: string;
  try {
    summary = tool.summarize(json);
  } catch {
    summary = `${tool.title}: see the structured content.`;
  }
  return { content: [{ type: 'text', text: summary }], structuredContent: json };
}

/**
 * An MCP server (not yet connected to a transport) whose tools call `api`.
 *
 * @example
 * const server = createMcpServer(createHandler(new FsStore('dist')));
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(api: ApiFetch, options: McpOptions = {}): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: 'Employer Visibility Index', version: options.version ?? '0.1.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: noElicitation },
  );
  const tools = listTools();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(api, request.params.name, request.params.arguments ?? {}, options.baseUrl));
  return server;
}

/** CORS for browser-based MCP clients (the endpoint is public and read-only, like the API). */
const PREFLIGHT = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age': '86400',
};

/**
 * 405 for GET and DELETE. A client probing for a notification stream (GET with
 * `Accept: text/event-stream`) gets no body: SDK clients drop the connection
 * without reading one.
 */
function methodNotAllowed(request: Request): Response {
  const headers = { Allow: 'POST, OPTIONS', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' };
  if (request.headers.get('accept')?.includes('text/event-stream')) return new Response(null, { status: 405, headers });
  const body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST.' }, id: null };
  return Response.json(body, { status: 405, headers });
}

/**
 * The Streamable HTTP endpoint (stateless: a fresh server and transport per
 * request, JSON answers rather than SSE streams), for `/mcp` on the Node server
 * and the Worker.
 *
 * @example
 * const mcp = createMcpHttpHandler(handler);
 * if (new URL(request.url).pathname === MCP_PATH) return mcp(request);
 */
export function createMcpHttpHandler(api: ApiFetch, options: McpOptions = {}): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: PREFLIGHT });
    // Stateless: no open stream for server notifications (GET), nothing to end (DELETE).
    if (request.method !== 'POST') return methodNotAllowed(request);
    const server = createMcpServer(api, options);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    try {
      const res = await transport.handleRequest(request);
      const headers = new Headers(res.headers);
      headers.set('Access-Control-Allow-Origin', '*');
      headers.set('Access-Control-Expose-Headers', 'Mcp-Session-Id, Mcp-Protocol-Version');
      headers.set('Cache-Control', 'no-store');
      return new Response(res.body, { status: res.status, headers });
    } finally {
      // With JSON answers the response is complete once handleRequest resolves.
      void server.close();
    }
  };
}

/**
 * One Streamable HTTP request at `/mcp` against `handle`, with the tools' URLs on
 * `origin` (the Node server's and the Worker's entry point).
 *
 * @example
 * if (pathname === MCP_PATH) return handleMcp(request, handler, url.origin);
 */
export function handleMcp(request: Request, handle: ApiFetch, origin: string): Promise<Response> {
  return createMcpHttpHandler(handle, { baseUrl: origin })(request);
}
