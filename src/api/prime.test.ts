import { describe, expect, it } from 'vitest';
import { boards, fixtureFiles } from '../../test/lib/fixture.ts';
import { encodeBoard } from '../core/views/board-rows.ts';
import { OVERALL, viewPaths } from '../core/views/layout.ts';
import { createHandler, primeApi } from './index.ts';
import { MemoryStore } from './store.ts';

const TARGETS = [
  '/api/v1',
  '/api/v1/health',
  '/api/v1/search?q=kestrel',
  '/api/v1/search?q=skyline&country=gb',
  '/api/v1/company/kestrel-aerospace-group',
  '/api/v1/company/kestrel-aerospacex',
  '/api/v1/rankings',
  '/api/v1/rankings?sort=name&limit=3&page=2',
  '/api/v1/rankings?sort=change',
  '/api/v1/rankings?sort=mentions&country=gb',
  '/api/v1/rankings?industry=retail&sort=change&page=2&limit=7',
  '/api/v1/rankings/all/us?limit=3',
  '/api/v1/rankings/retail/us',
  '/api/v1/compare?companies=kestrel-aerospace-group,orbital-works',
  '/api/v1/changelog',
  '/api/v1/rankings?country=zz',
];

/** Every answer's status, headers and body, in order. */
async function answers(handle: (r: Request) => Promise<Response>): Promise<string[]> {
  const out: string[] = [];
  for (const target of TARGETS) {
    const res = await handle(new Request(`http://localhost${target}`, { headers: { 'accept-encoding': 'identity' } }));
    out.push(`${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
  }
  return out;
}

/** The fixture, with the overall boards in binary form as the build writes them. */
function withBinaryBoards(): MemoryStore {
  const store = new MemoryStore(fixtureFiles());
  for (const b of boards) if (b.industrySlug === OVERALL) store.set(viewPaths.overallBoardBinary(b.month, b.countryCode), encodeBoard(b));
  return store;
}

describe('primeApi (a runtime startup runs the handler once over a tiny store)', () => {
  it('runs every request to its end under Node and leaves no state that changes a later answer', async () => {
    const before = createHandler(withBinaryBoards(), { log: () => {} });
    const first = await answers(before);
    expect(await primeApi()).toBeGreaterThan(10_000);
    expect(await answers(createHandler(withBinaryBoards(), { log: () => {} }))).toEqual(first);
    expect(await answers(before)).toEqual(first);
  });
});

describe('overall boards in binary form', () => {
  it('answer the same bytes as the JSON views, and are what the handler reads when present', async () => {
    const json = await answers(createHandler(new MemoryStore(fixtureFiles()), { log: () => {} }));
    expect(await answers(createHandler(withBinaryBoards(), { log: () => {} }))).toEqual(json);
    // with the JSON view of the US overall board gone (a JSON read would be a 502), the binary form alone answers it
    const store = withBinaryBoards().delete(viewPaths.board(boards[0]!.month, 'us', OVERALL));
    const url = 'http://localhost/api/v1/rankings?sort=name';
    const res = await createHandler(store, { log: () => {} })(new Request(url));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(await (await createHandler(new MemoryStore(fixtureFiles()), { log: () => {} })(new Request(url))).text());
  });
});
