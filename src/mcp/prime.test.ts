import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../test/lib/fixture.ts';
import { createHandler } from '../api/index.ts';
import { MemoryStore } from '../api/store.ts';
import { primeMcp } from './prime.ts';
import { callTool } from './server.ts';

const CALLS: [string, Record<string, unknown>][] = [
  ['get_company', { slug: 'kestrel-aerospace-group' }],
  ['get_company', { slug: 'kestrel-aerospacex' }],
  ['search_companies', { q: 'kestrel' }],
  ['get_leaders', { industry: 'retail', country: 'us' }],
  ['compare_companies', { companies: 'kestrel-aerospace-group,orbital-works' }],
];

async function results(): Promise<string[]> {
  const api = createHandler(new MemoryStore(fixtureFiles()), { log: () => {} });
  const out: string[] = [];
  for (const [name, args] of CALLS) out.push(JSON.stringify(await callTool(api, name, args)));
  return out;
}

describe('primeMcp (a Worker startup runs the MCP tools once over a tiny store)', () => {
  it('runs every tool to its end under Node and leaves no state that changes a later result', async () => {
    const first = await results();
    expect(first.some((r) => r.includes('"isError":true'))).toBe(true);
    expect(first.some((r) => r.includes('structuredContent'))).toBe(true);
    // Every call of the primer answered: its tools' JSON, well beyond the schemas' counts.
    expect(await primeMcp()).toBeGreaterThan(10_000);
    expect(await results()).toEqual(first);
  });
});
