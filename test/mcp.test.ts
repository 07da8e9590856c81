/**
 * The MCP server driven by the SDK's own Client over both transports, against the
 * real built site: stdio (the package's bin reading dist/, and `npm run mcp`
 * forwarding to a running server) and Streamable HTTP at /mcp on the Node server. Every tool's
 * structured result must equal the HTTP API's JSON for the same request, and every
 * API error must come back as a tool error carrying the API's message.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CompanyPathSchema, CompanyQuerySchema, CompareQuerySchema, LeadersPathSchema, LeadersQuerySchema, RankingsQuerySchema, SearchQuerySchema } from '../src/api/params.ts';
import { viewPaths } from '../src/core/views/layout.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { startServer } from '../src/adapters/node/index.ts';
import type { RunningServer } from '../src/adapters/node/index.ts';
import { builtDist } from './lib/dist.ts';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'src/adapters/node/bin.mjs');

let dist: string;
let meta: MetaView;
let server: RunningServer;
const clients: Client[] = [];

/** A tool call and the API request that must give the same JSON. */
interface Case {
  tool: string;
  args: Record<string, unknown>;
  path: string;
}

function cases(): Case[] {
  const ex = meta.examples;
  const [a, b] = ex.compare;
  const first = meta.index.dataset.months[0]!;
  const other = meta.index.dataset.countries.find((c) => c !== ex.country) ?? ex.country;
  const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return [
    { tool: 'get_index', args: {}, path: '/api/v1' },
    { tool: 'search_companies', args: { q: ex.search }, path: `/api/v1/search?${q({ q: ex.search })}` },
    { tool: 'search_companies', args: { q: ex.search, limit: 3, country: other }, path: `/api/v1/search?${q({ q: ex.search, limit: 3, country: other })}` },
    { tool: 'get_company', args: { slug: ex.company }, path: `/api/v1/company/${ex.company}` },
    { tool: 'get_company', args: { slug: ex.company, country: ex.country }, path: `/api/v1/company/${ex.company}?${q({ country: ex.country })}` },
    { tool: 'get_rankings', args: {}, path: '/api/v1/rankings' },
    {
      tool: 'get_rankings',
      args: { industry: ex.industry, country: ex.country, limit: 5, page: 1, sort: 'mentions' },
      path: `/api/v1/rankings?${q({ industry: ex.industry, country: ex.country, limit: 5, page: 1, sort: 'mentions' })}`,
    },
    { tool: 'get_leaders', args: { industry: ex.industry, country: ex.country }, path: `/api/v1/rankings/${ex.industry}/${ex.country}` },
    { tool: 'get_leaders', args: { industry: 'all', country: ex.country, limit: 3 }, path: `/api/v1/rankings/all/${ex.country}?limit=3` },
    { tool: 'compare_companies', args: { companies: `${a},${b}` }, path: `/api/v1/compare?${q({ companies: `${a},${b}` })}` },
    { tool: 'compare_companies', args: { companies: `${a},${b}`, month: first }, path: `/api/v1/compare?${q({ companies: `${a},${b}`, month: first })}` },
    { tool: 'get_company', args: { slug: ex.company, month: first }, path: `/api/v1/company/${ex.company}?${q({ month: first })}` },
    { tool: 'get_leaders', args: { industry: ex.industry, country: ex.country, month: first }, path: `/api/v1/rankings/${ex.industry}/${ex.country}?${q({ month: first })}` },
    { tool: 'get_changelog', args: {}, path: '/api/v1/changelog' },
    { tool: 'get_health', args: {}, path: '/api/v1/health' },
  ];
}

/** Tool calls the API refuses: each must be a tool error whose text starts with the API's message. */
function errorCases(): Case[] {
  const ex = meta.examples;
  return [
    { tool: 'search_companies', args: { q: ' ' }, path: '/api/v1/search?q=%20' },
    { tool: 'search_companies', args: { q: ex.search, limit: 50 }, path: `/api/v1/search?q=${encodeURIComponent(ex.search)}&limit=50` },
    { tool: 'get_company', args: { slug: 'no-such-company-anywhere' }, path: '/api/v1/company/no-such-company-anywhere' },
    { tool: 'get_rankings', args: { country: 'Atlantis' }, path: '/api/v1/rankings?country=Atlantis' },
    { tool: 'get_rankings', args: { month: '1999-01' }, path: '/api/v1/rankings?month=1999-01' },
    { tool: 'get_rankings', args: { sort: 'loudest' }, path: '/api/v1/rankings?sort=loudest' },
    { tool: 'get_leaders', args: { industry: 'no-such-industry', country: ex.country }, path: `/api/v1/rankings/no-such-industry/${ex.country}` },
    { tool: 'compare_companies', args: { companies: ex.compare[0] }, path: `/api/v1/compare?companies=${ex.compare[0]}` },
  ];
}

async function api(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: 'evi-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** The package's bin, as `npx employer-visibility-index mcp` runs it. */
const stdio = (args: string[]) => new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd: ROOT, stderr: 'pipe' });
/** `npm run --silent mcp -- …`, as the README tells a client to start it. */
const npmRun = (args: string[]) => new StdioClientTransport({ command: 'npm', args: ['run', '--silent', 'mcp', '--', ...args], cwd: ROOT, stderr: 'pipe' });

beforeAll(async () => {
  dist = await builtDist();
  meta = JSON.parse(readFileSync(join(dist, viewPaths.meta()), 'utf8')) as MetaView;
  server = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, log: null, logError: () => {} });
}, 600_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.close(100);
});

const transports: [string, () => Promise<Client>][] = [
  ['stdio, reading the built dist/', () => connect(stdio(['--dist', dist]))],
  ['stdio (npm run mcp), forwarding to a running server (--url)', () => connect(npmRun(['--url', server.url]))],
  ['Streamable HTTP at /mcp on the Node server', () => connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))],
];

describe.each(transports)('MCP over %s', (_name, open) => {
  let client: Client;
  beforeAll(async () => {
    client = await open();
  }, 60_000);

  it('lists the read-only tools with input schemas derived from the API parameter schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['compare_companies', 'get_changelog', 'get_company', 'get_health', 'get_index', 'get_leaders', 'get_rankings', 'search_companies']);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.annotations?.destructiveHint, tool.name).toBe(false);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    const derived = (...schemas: z.ZodObject[]) =>
      Object.assign({}, ...schemas.map((s) => (z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as { properties: object }).properties)) as Record<string, unknown>;
    expect(byName.get('search_companies')?.inputSchema.properties).toEqual(derived(SearchQuerySchema));
    expect(byName.get('search_companies')?.inputSchema.required).toEqual(['q']);
    expect(byName.get('get_company')?.inputSchema.properties).toEqual(derived(CompanyPathSchema, CompanyQuerySchema));
    expect(byName.get('get_rankings')?.inputSchema.properties).toEqual(derived(RankingsQuerySchema));
    expect(byName.get('get_leaders')?.inputSchema.properties).toEqual(derived(LeadersPathSchema, LeadersQuerySchema));
    expect(byName.get('get_leaders')?.inputSchema.required).toEqual(['industry', 'country']);
    expect(byName.get('compare_companies')?.inputSchema.properties).toEqual(derived(CompareQuerySchema));
  });

  it("returns the API's JSON as structured content for every tool, with a short text", async () => {
    const seen = new Set<string>();
    for (const c of cases()) {
      const expected = await api(c.path);
      expect(expected.status, c.path).toBe(200);
      const result = (await client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
      expect(result.isError ?? false, `${c.tool} ${JSON.stringify(c.args)}`).toBe(false);
      expect(result.structuredContent, `${c.tool} ${JSON.stringify(c.args)}`).toEqual(expected.body);
      const text = result.content[0];
      expect(text?.type).toBe('text');
      expect(text?.type === 'text' ? text.text.length : 0).toBeGreaterThan(10);
      seen.add(c.tool);
    }
    expect(seen.size).toBe(8);
  });

  it('answers "who are the top fintech employers in Germany" in one call, naming them in the text', async () => {
    // The issue's question, with the names a person would type (the sample data has both).
    const industry = meta.industries.some((i) => i.slug === 'fintech') ? 'fintech' : meta.examples.industry;
    const country = meta.countries.some((c) => c.name === 'Germany') ? 'Germany' : meta.examples.country;
    const result = (await client.callTool({ name: 'get_leaders', arguments: { industry, country, limit: 3 } })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual((await api(`/api/v1/rankings/${industry}/${country}?limit=3`)).body);
    const top = (result.structuredContent as { topCompanies: { company: string }[] }).topCompanies;
    expect(top.length).toBeGreaterThan(0);
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    for (const entry of top) expect(text).toContain(entry.company);
  });

  it("turns API errors into tool errors carrying the API's message", async () => {
    for (const c of errorCases()) {
      const expected = await api(c.path);
      expect(expected.status, c.path).toBeGreaterThanOrEqual(400);
      const result = (await client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
      expect(result.isError, `${c.tool} ${JSON.stringify(c.args)}`).toBe(true);
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      expect(text.startsWith(String(expected.body.message)), `${text} / ${String(expected.body.message)}`).toBe(true);
      expect(text).toContain(`"error":"${String(expected.body.error)}"`);
    }
  });

  it('reports an unknown tool, and a missing path argument, as tool errors', async () => {
    const unknown = (await client.callTool({ name: 'delete_everything', arguments: {} })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    const missing = (await client.callTool({ name: 'get_company', arguments: {} })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.type === 'text' ? missing.content[0].text : '').toBe('Missing required argument: slug.');
  });
});

describe('/mcp on the Node server', () => {
  it('answers a CORS preflight and refuses a GET stream in stateless mode', async () => {
    const pre = await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Mcp-Protocol-Version/i);
    const get = await fetch(`${server.url}/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    await get.body?.cancel();
  });

  it('refuses a request body over 64 KiB before parsing it', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_companies', arguments: { q: 'x'.repeat(70_000) } } });
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body });
    expect(res.status).toBe(413);
    await res.body?.cancel();
  });
});
