/**
 * The MCP server (src/mcp/), driven by the SDK's own client over both transports: stdio
 * (the `npm run mcp` process over the built sample site) and Streamable HTTP at `/mcp`
 * on the Node server. Every tool's structured result equals the HTTP API's JSON for the
 * same request; API errors are tool errors with the API's message.
 */
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../src/api/index.ts';
import type { Handler } from '../src/api/index.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { TOOL_ENDPOINTS, toolName } from '../src/mcp/server.ts';
import { FsStore } from '../src/server/fs-store.ts';
import { startServer } from '../src/server/index.ts';
import type { RunningServer } from '../src/server/index.ts';
import { builtDist } from './lib/dist.ts';

const root = resolve(import.meta.dirname, '..');
let dist: string;
let handle: Handler;
let site: MetaView;
let server: RunningServer;

beforeAll(async () => {
  dist = await builtDist();
  handle = createHandler(new FsStore(dist));
  site = JSON.parse((await new FsStore(dist).read('views/meta.json'))!) as MetaView;
  server = await startServer({ distDir: dist, port: 0, log: null, rateLimitPerMinute: 0 });
});
afterAll(() => server?.close());

/** The same question asked of the tools and of the HTTP API. */
function cases(m: MetaView): [string, Record<string, unknown>, string][] {
  const ex = m.examples;
  const past = m.months[0]!;
  return [
    ['get_index', {}, '/api/v1'],
    ['get_health', {}, '/api/v1/health'],
    ['search_companies', { q: ex.search, limit: 3 }, `/api/v1/search?q=${encodeURIComponent(ex.search)}&limit=3`],
    ['get_company', { slug: ex.company }, `/api/v1/company/${ex.company}`],
    ['get_company', { slug: ex.company, month: past }, `/api/v1/company/${ex.company}?month=${past}`],
    ['get_rankings', { industry: ex.industry, country: 'de', limit: 5 }, `/api/v1/rankings?industry=${ex.industry}&country=de&limit=5`],
    ['get_leaders', { industry: 'fintech', country: 'Germany', limit: 3 }, '/api/v1/rankings/fintech/Germany?limit=3'],
    ['compare_companies', { companies: ex.compare.join(',') }, `/api/v1/compare?companies=${ex.compare.join(',')}`],
    ['get_changelog', {}, '/api/v1/changelog'],
  ];
}

async function exercise(client: Client) {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(TOOL_ENDPOINTS.map((e) => toolName(e.id)).sort());
  for (const t of tools) {
    expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    expect(t.inputSchema.type, t.name).toBe('object');
  }
  expect(Object.keys(tools.find((t) => t.name === 'get_rankings')!.inputSchema.properties ?? {})).toEqual(['industry', 'country', 'month', 'limit', 'page', 'sort']);
  for (const [tool, args, path] of cases(site)) {
    const result = await client.callTool({ name: tool, arguments: args });
    const api = await handle(new Request(`${site.siteUrl}${path}`));
    const body = await api.json();
    if (api.status === 200) {
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBeFalsy();
      expect(result.structuredContent, `${tool} ${JSON.stringify(args)}`).toEqual(body);
      expect((result.content as { type: string; text: string }[])[0]!.text.length).toBeGreaterThan(10);
    } else {
      expect(result.isError, tool).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toBe((body as { message: string }).message);
    }
  }
  const miss = await client.callTool({ name: 'get_company', arguments: { slug: 'no-such-company-anywhere' } });
  expect(miss.isError).toBe(true);
  expect((miss.content as { text: string }[])[0]!.text).toMatch(/No company with slug "no-such-company-anywhere"/);
}

describe('MCP server', () => {
  it('over stdio (npm run mcp against the build) answers every tool as the HTTP API does', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', join(root, 'src/mcp/stdio.ts'), '--dist', dist],
      cwd: root,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'evi-test', version: '1' });
    await client.connect(transport);
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it('over Streamable HTTP at /mcp on the Node server', async () => {
    const client = new Client({ name: 'evi-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });
});
