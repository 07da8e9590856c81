/**
 * The MCP endpoint of the Worker under workerd (Miniflare, offline), configured
 * from wrangler.toml over the real built dist/: the SDK's Client over Streamable
 * HTTP at /mcp gets, for every tool, exactly the JSON the Worker's API answers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Miniflare } from 'miniflare';
import type { RequestInit as MiniflareRequestInit } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewPaths } from '../src/core/views/layout.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { builtDist } from './lib/dist.ts';
import { bundleWorker, startWorker } from './lib/workerd.ts';


let mf: Miniflare;
let client: Client;
let meta: MetaView;

const workerFetch = async (url: string | URL, init?: RequestInit) => (await mf.dispatchFetch(String(url), init as MiniflareRequestInit)) as unknown as Response;

beforeAll(async () => {
  const [dist, script] = await Promise.all([builtDist(), bundleWorker('mcp-worker-test')]);
  meta = JSON.parse(readFileSync(join(dist, viewPaths.meta()), 'utf8')) as MetaView;
  mf = await startWorker(script, dist);
  client = new Client({ name: 'evi-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: workerFetch }));
}, 600_000);

afterAll(async () => {
  await client?.close();
  await mf?.dispose();
});

describe('MCP over Streamable HTTP at /mcp on the Worker', () => {
  it('lists the eight read-only tools', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(8);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
  });

  it("answers every tool with the Worker API's JSON", async () => {
    const ex = meta.examples;
    const calls: [string, Record<string, unknown>, string][] = [
      ['get_index', {}, '/api/v1'],
      ['search_companies', { q: ex.search, limit: 3 }, `/api/v1/search?q=${encodeURIComponent(ex.search)}&limit=3`],
      ['get_company', { slug: ex.company }, `/api/v1/company/${ex.company}`],
      ['get_rankings', { industry: ex.industry, country: ex.country, limit: 5 }, `/api/v1/rankings?industry=${ex.industry}&country=${ex.country}&limit=5`],
      ['get_leaders', { industry: ex.industry, country: ex.country, limit: 3 }, `/api/v1/rankings/${ex.industry}/${ex.country}?limit=3`],
      ['compare_companies', { companies: ex.compare.join(',') }, `/api/v1/compare?companies=${ex.compare.join(',')}`],
      ['get_changelog', {}, '/api/v1/changelog'],
      ['get_health', {}, '/api/v1/health'],
    ];
    for (const [name, args, path] of calls) {
      const res = await workerFetch(`http://localhost${path}`);
      expect(res.status, path).toBe(200);
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError ?? false, name).toBe(false);
      expect(result.structuredContent, name).toEqual(await res.json());
    }
  });

  it("gives the API's message as a tool error", async () => {
    const res = await workerFetch('http://localhost/api/v1/company/no-such-company-anywhere');
    const body = (await res.json()) as { message: string };
    const result = (await client.callTool({ name: 'get_company', arguments: { slug: 'no-such-company-anywhere' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.type === 'text' && result.content[0].text.startsWith(body.message)).toBe(true);
  });
});
