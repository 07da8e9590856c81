import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiSuite } from '../../test/lib/api-suite.ts';
import { CompanyProfileSchema, ErrorResponseSchema, RankingsResponseSchema, SearchResponseSchema } from '../core/schemas/responses.ts';
import { viewPaths } from '../core/views/layout.ts';
import { leadersBody, rankingsBody } from '../core/views/shape.ts';
import { createHandler } from './index.ts';
import { RankingsQuerySchema, SearchQuerySchema } from './params.ts';
import { MemoryStore } from './store.ts';
import type { ViewStore } from './store.ts';
import { boards, companies, fixtureFiles, fixtureStore, meta, MONTH, PREVIOUS } from '../../test/lib/fixture.ts';

const call = (handle: (r: Request) => Promise<Response>, path: string, init?: RequestInit) => handle(new Request(`http://localhost${path}`, init));

describe('handler over the fixture store', () => {
  const store = fixtureStore();
  const handle = createHandler(store, { log: () => {} });
  apiSuite(() => ({ fetch: (path, init) => call(handle, path, init), read: (path) => store.read(path) }));
});

describe('handler specifics', () => {
  const handle = createHandler(fixtureStore(), { log: () => {} });
  const json = async (path: string) => {
    const res = await call(handle, path);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers with the same bytes as the shared shaping of src/core/views/shape.ts', async () => {
    const board = boards.find((b) => b.month === MONTH && b.countryCode === 'us' && b.industrySlug === 'retail')!;
    const res = await call(handle, '/api/v1/rankings?industry=retail&sort=change&page=2&limit=7');
    // The shaped body, then the permanent URL the handler adds (resolved parameters, defaults left out).
    expect(await res.text()).toBe(JSON.stringify({ ...rankingsBody(meta, board, { sort: 'change', page: 2, limit: 7 }), permalink: `${meta.siteUrl}/api/v1/months/${MONTH}/rankings?industry=retail&sort=change&page=2&limit=7` }));
    const leaders = await call(handle, '/api/v1/rankings/retail/US?limit=4');
    expect(await leaders.text()).toBe(JSON.stringify({ ...leadersBody(meta, board, 4), permalink: `${meta.siteUrl}/api/v1/months/${MONTH}/rankings/retail/us?limit=4` }));
  });

  it('the overall leaderboard answers to industry=all as well', async () => {
    const a = await json('/api/v1/rankings');
    const b = await json('/api/v1/rankings?industry=all');
    const c = await json('/api/v1/rankings/All%20industries/us');
    expect(b).toEqual(a);
    expect(c.status).toBe(200);
  });

  it('previous month: previousMonth null, previousRank null', async () => {
    const { body } = await json(`/api/v1/rankings?month=${PREVIOUS}&industry=aerospace`);
    const parsed = RankingsResponseSchema.parse(body);
    expect(parsed.previousMonth).toBeNull();
    expect(parsed.rankings.map((e) => e.slug)).toEqual(['orbital-works', 'kestrel-aerospace-group']);
  });

  it('a board missing in an earlier month for a country is a 404', async () => {
    const { status, body } = await json(`/api/v1/rankings?month=${PREVIOUS}&country=gb`);
    expect(status).toBe(404);
    expect(ErrorResponseSchema.parse(body).message).toContain('United Kingdom');
  });

  it('a company without US data defaults to its best market', async () => {
    const { body } = await json('/api/v1/company/skyline-air');
    expect(CompanyProfileSchema.parse(body).country).toBe('United Kingdom');
    const search = SearchResponseSchema.parse((await json('/api/v1/search?q=skyline&country=fr')).body);
    expect(search.results[0]?.apiUrl).toBe('https://evi.example/api/v1/company/skyline-air?country=fr');
    const plain = SearchResponseSchema.parse((await json('/api/v1/search?q=skyline')).body);
    expect(plain.results[0]).toMatchObject({ country: 'United Kingdom', apiUrl: 'https://evi.example/api/v1/company/skyline-air' });
  });

  it('a company with no data this month: 404 on profile and compare, absent from search', async () => {
    const a = await json('/api/v1/company/dormant-co');
    expect(a.status).toBe(404);
    expect(a.body.message).toMatch(/no data in the current month/);
    const b = await json('/api/v1/compare?companies=dormant-co,northwind');
    expect(b.status).toBe(404);
    expect(b.body.message).toContain('Dormant Co');
    const s = SearchResponseSchema.parse((await json('/api/v1/search?q=dormant')).body);
    expect(s.results.map((r) => r.slug)).not.toContain('dormant-co');
  });

  it('compare keeps the order asked and the default country of each', async () => {
    const { body } = await json('/api/v1/compare?companies=skyline-air,kestrel-aerospace-group');
    const list = (body.companies as { slug: string; country: string }[]).map((c) => [c.slug, c.country]);
    expect(list).toEqual([
      ['skyline-air', 'United Kingdom'],
      ['kestrel-aerospace-group', 'United States'],
    ]);
  });

  it('country with data for nobody: companies named, countries listed', async () => {
    const { status, body } = await json('/api/v1/compare?companies=kestrel-aerospace-group,skyline-air&country=de');
    expect(status).toBe(404);
    expect(body.countries).toEqual(['United Kingdom', 'United States']);
  });
});

describe('failures of the store', () => {
  it('a corrupt view: 502 internal for that request, logged once; other requests still 200', async () => {
    const lines: string[] = [];
    const store = new MemoryStore(fixtureFiles()).set(viewPaths.company('orbital-works'), '{"slug": "orbital-works", ');
    const handle = createHandler(store, { log: (line) => lines.push(line) });
    for (let i = 0; i < 3; i++) {
      const res = await call(handle, '/api/v1/company/orbital-works');
      expect(res.status).toBe(502);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const body = ErrorResponseSchema.parse(await res.json());
      expect(body.error).toBe('internal');
      expect(JSON.stringify(body)).not.toMatch(/JSON|position|at /);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(viewPaths.company('orbital-works'));
    expect((await call(handle, '/api/v1/company/northwind')).status).toBe(200);
    // Once the file is fixed, the same instance serves it.
    store.set(viewPaths.company('orbital-works'), companies[1]!);
    expect((await call(handle, '/api/v1/company/orbital-works')).status).toBe(200);
  });

  it('a store that throws: 502; a missing meta.json: 502; a thrown bug: 500 without a stack', async () => {
    const throwing: ViewStore = { read: async () => Promise.reject(new Error('EIO: disk on fire')) };
    const logs: string[] = [];
    const a = await call(createHandler(throwing, { log: (l) => logs.push(l) }), '/api/v1/health');
    expect(a.status).toBe(502);
    expect(await a.text()).not.toContain('disk on fire');
    const b = await call(createHandler(new MemoryStore(), { log: (l) => logs.push(l) }), '/api/v1');
    expect(b.status).toBe(502);
    const badIndex = new MemoryStore(fixtureFiles()).set(viewPaths.searchIndex(), { v: 2 });
    expect((await call(createHandler(badIndex, { log: (l) => logs.push(l) }), '/api/v1/search?q=kestrel')).status).toBe(502);
    const wrongShape = new MemoryStore(fixtureFiles()).set(viewPaths.company('northwind'), []);
    const c = await call(createHandler(wrongShape, { log: (l) => logs.push(l) }), '/api/v1/company/northwind');
    expect(c.status).toBe(500);
    const text = await c.text();
    expect(text).not.toMatch(/TypeError|\.ts|at /);
    expect(ErrorResponseSchema.parse(JSON.parse(text)).error).toBe('internal');
    expect(logs.length).toBe(4);
  });
});

describe('parameter schemas (for the OpenAPI generator)', () => {
  it('export defaults and descriptions as JSON Schema', () => {
    const rankings = z.toJSONSchema(RankingsQuerySchema, { io: 'input' }) as { properties: Record<string, { default?: unknown; description?: string; type?: string }> };
    expect(rankings.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
    expect(rankings.properties.sort?.default).toBe('rank');
    expect(rankings.properties.country?.default).toBe('us');
    for (const p of Object.values(rankings.properties)) expect(p.description).toBeTruthy();
    const search = z.toJSONSchema(SearchQuerySchema, { io: 'input' }) as { required?: string[] };
    expect(search.required).toEqual(['q']);
  });
});

describe('strict, helpful parameters', () => {
  const handle = createHandler(fixtureStore(), { log: () => {} });
  const json = async (path: string) => {
    const res = await call(handle, path);
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, etag: res.headers.get('etag') };
  };

  it('a typo of a parameter is a 400 naming the parameter it looks like', async () => {
    for (const [path, given, meant] of [
      ['/api/v1/rankings?industy=retail', 'industy', 'industry'],
      ['/api/v1/rankings?Country=gb', 'Country', 'country'],
      ['/api/v1/rankings/retail/us?limt=3', 'limt', 'limit'],
      ['/api/v1/company/orbital-works?countries=us', 'countries', 'country'],
      ['/api/v1/compare?companies=orbital-works,northwind&mnth=2026-01', 'mnth', 'month'],
    ] as const) {
      const r = await json(path);
      expect(r.status, path).toBe(400);
      expect(r.body.parameter, path).toBe(given);
      expect(r.body.message, path).toContain(`did you mean "${meant}"`);
      expect(r.body.validParameters, path).toContain(meant);
    }
  });

  it('other unknown parameters are ignored and change neither the answer nor its validator', async () => {
    const plain = await json('/api/v1/rankings?industry=retail');
    const tracked = await json('/api/v1/rankings?industry=retail&utm_source=newsletter&_=1718000000&fbclid=abc');
    expect(tracked.status).toBe(200);
    expect(tracked.body).toEqual(plain.body);
    expect(tracked.etag).toBe(plain.etag);
  });

  it('an unknown slug lists up to five close slugs', async () => {
    const r = await json('/api/v1/company/orbital-wroks');
    expect(r.status).toBe(404);
    expect(r.body.suggestions).toContain('orbital-works');
    expect((r.body.suggestions as string[]).length).toBeLessThanOrEqual(5);
    expect(r.body.message).toContain('orbital-works');
    expect(ErrorResponseSchema.parse(r.body)).toEqual(r.body);
  });

  it('a value close to a valid one gets the same status plus the close values, for every parameter that takes one from a list', async () => {
    for (const [path, status, parameter, meant] of [
      ['/api/v1/rankings?industry=aerospcae', 404, 'industry', 'aerospace'],
      ['/api/v1/rankings?industry=Retial', 404, 'industry', 'Retail'],
      ['/api/v1/rankings?industry=oil-gaz', 404, 'industry', 'oil-gas'],
      ['/api/v1/rankings/airlnie/us', 404, 'industry', 'airline'],
      ['/api/v1/rankings?country=Frnace', 400, 'country', 'France'],
      ['/api/v1/rankings?country=Untied%20Kingdom', 400, 'country', 'United Kingdom'],
      ['/api/v1/search?q=kestrel&country=Germny', 400, 'country', 'Germany'],
      ['/api/v1/company/orbital-works?country=Deutschlnd', 400, 'country', 'Deutschland'],
      ['/api/v1/compare?companies=orbital-works,northwind&country=Amercia', 400, 'country', 'America'],
      ['/api/v1/rankings/retail/Frnace', 404, 'country', 'France'],
      ['/api/v1/rankings?month=2026-4', 400, 'month', MONTH],
      ['/api/v1/rankings?month=2026-05', 404, 'month', MONTH],
      ['/api/v1/rankings?month=2025-12', 404, 'month', PREVIOUS],
      ['/api/v1/months/2026-05/rankings/retail/us', 404, 'month', MONTH],
      ['/api/v1/search?q=kestrel&month=202603', 400, 'month', PREVIOUS],
      ['/api/v1/rankings?sort=rnak', 400, 'sort', 'rank'],
      ['/api/v1/rankings?sort=mention', 400, 'sort', 'mentions'],
      ['/api/v1/rankings?sort=nmae', 400, 'sort', 'name'],
    ] as const) {
      const r = await json(path);
      expect(r.status, path).toBe(status);
      expect(r.body.parameter, path).toBe(parameter);
      expect(r.body.suggestions, path).toContain(meant);
      expect((r.body.suggestions as string[])[0], path).toBe(meant);
      expect(r.body.message, path).toContain(`Did you mean "${meant}"`);
      expect(ErrorResponseSchema.parse(r.body), path).toEqual(r.body);
    }
  });

  it('a value close to none keeps the plain answer with the whole list', async () => {
    for (const [path, list] of [
      ['/api/v1/rankings?industry=underwater-basket-weaving', 'validIndustries'],
      ['/api/v1/rankings?country=atlantis', 'validCountries'],
      ['/api/v1/rankings?sort=best', 'validSorts'],
    ] as const) {
      const r = await json(path);
      expect(r.body.suggestions, path).toBeUndefined();
      expect(r.body.message, path).not.toContain('Did you mean');
      expect(r.body[list], path).toBeDefined();
    }
  });

  it('month 13 is not a month', async () => {
    const r = await json('/api/v1/rankings?month=2026-13');
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('13 is not a month');
  });
});

describe('search says what matched and where a better match is', () => {
  const handle = createHandler(fixtureStore(), { log: () => {} });
  const search = async (qs: string) => SearchResponseSchema.parse(await (await call(handle, `/api/v1/search?${qs}`)).json());

  it('each result carries matchedOn and confidence', async () => {
    const body = await search('q=orbital%20works');
    expect(body.results[0]).toMatchObject({ slug: 'orbital-works', matchedOn: 'name', confidence: 1 });
    expect(body.betterMatchElsewhere).toBeUndefined();
    expect((await search('q=works%20orbital')).results[0]).toMatchObject({ slug: 'orbital-works', matchedOn: 'name' });
    expect((await search('q=jobs%20at%20orbital%20works')).results[0]).toMatchObject({ slug: 'orbital-works', matchedOn: 'name' });
  });

  it('with country, names a better match outside that country', async () => {
    const body = await search('q=orbital%20works&country=gb');
    expect(body.results.map((r) => r.slug)).not.toContain('orbital-works');
    expect(body.betterMatchElsewhere).toMatchObject({ slug: 'orbital-works', company: 'Orbital Works', country: 'United States', matchedOn: 'name', confidence: 1 });
    // none when the country holds the best match
    expect((await search('q=skyline%20air&country=gb')).betterMatchElsewhere).toBeUndefined();
  });
});
