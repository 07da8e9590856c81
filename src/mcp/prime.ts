/**
 * Runs the MCP endpoint's own code once at a Worker's startup, as `primeApi` does for
 * the handler (src/api/prime.ts): the SDK's message schemas on a `tools/call` and a
 * `tools/list` and on their results, as its transport and server check them, and every
 * tool over a handler of its own on a tiny in-memory store.
 * The SDK's server and transport cannot run there: they make an `AbortController` per
 * request, which workerd refuses at global scope. Microtasks only, no I/O; nothing it
 * keeps is shared with the real handler.
 */
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  isTaskAugmentedRequestParams,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { primeHandler } from '../api/index.ts';
import { callTool, listTools } from './server.ts';

const SITE = 'https://prime.invalid';
const CALLS: [string, Record<string, unknown>][] = [
  ['get_company', { slug: 'quill-works' }],
  ['get_company', { slug: 'quill-work' }],
  ['search_companies', { q: 'quill', country: 'us' }],
  ['get_leaders', { industry: 'retail', country: 'us' }],
  ['get_rankings', { limit: 2 }],
  ['compare_companies', { companies: 'quill-works,kestrel-aerospace-group' }],
  ['get_index', {}],
];

/** Primes the MCP code; resolves with a count of what it saw, so that nothing is optimised away. */
export async function primeMcp(): Promise<number> {
  const api = primeHandler();
  let seen = 0;
  for (let round = 0; round < 2; round++) {
    for (const [i, [name, args]] of CALLS.entries()) {
      const call = { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: args } };
      seen += Number(JSONRPCMessageSchema.safeParse(call).success) + Number(CallToolRequestSchema.safeParse(call).success);
      // What the transport and the server ask of each message on the way in and out.
      seen += Number(isInitializeRequest(call)) + Number(isJSONRPCRequest(call)) + Number(isJSONRPCNotification(call)) + Number(isTaskAugmentedRequestParams(call.params));
      // Results of the tools' two shapes, made here: the tools' own cannot be at global scope in workerd.
      for (const result of [{ content: [{ type: 'text', text: name }], structuredContent: args }, { isError: true, content: [{ type: 'text', text: name }] }]) {
        const response = { jsonrpc: '2.0', id: i + 1, result };
        seen += Number(CallToolResultSchema.safeParse(result).success) + Number(isJSONRPCResultResponse(response)) + Number(isJSONRPCErrorResponse(response));
      }
      try {
        seen += JSON.stringify(await callTool(api, name, args, SITE)).length;
      } catch {
        // workerd: no Response with a body at global scope (src/api/prime.ts)
      }
    }
    seen += Number(ListToolsRequestSchema.safeParse({ jsonrpc: '2.0', id: 0, method: 'tools/list' }).success) + JSON.stringify(listTools()).length;
  }
  return seen;
}
