/**
 * The API contract test suite (service-spec §4, §7, data-and-rules §3-§4), run
 * unchanged against the in-process handler, the Node server over loopback HTTP
 * and the Worker under workerd. Expected values come from the views themselves,
 * so the suite holds for any dataset the build produces.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CompanyProfileSchema,
  CompareResponseSchema,
  ErrorResponseSchema,
  HealthResponseSchema,
  IndexResponseSchema,
  LeadersResponseSchema,
  RankingsResponseSchema,
  SearchResponseSchema,
  SORTS,
} from '../../src/core/schemas/responses.ts';
import type { CompanyProfile, ErrorResponse, LeaderboardEntry, RankingsResponse, SearchResponse } from '../../src/core/schemas/responses.ts';
import { shardOf, viewPaths } from '../../src/core/views/layout.ts';
import type { BoardView, CompanyView, MetaView, SearchRankingsView } from '../../src/core/views/layout.ts';

export interface Target {
  /** Sends a request for `path` (starting with `/`) to the system under test. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Reads a file of the dist the target serves (`views/meta.json`), `null` when absent. */
  read(path: string): Promise<string | null>;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const enc = encodeURIComponent;

interface Facts {
  meta: MetaView;
  code: string;
  countryName: string;
  industry: { name: string; slug: string };
  board: BoardView;
  overall: BoardView;
  company: CompanyView;
  search: SearchRankingsView;
}

/**
 * Registers the suite in the current `describe`. `target` is called after the
 * caller's `beforeAll` hooks have run.
 */
export function apiSuite(target: () => Target): void {
  let t: Target;
  let f: Facts;

  async function view<T>(path: string): Promise<T> {
    const text = await t.read(path);
    if (text === null) throw new Error(`fixture: ${path} is missing`);
    return JSON.parse(text) as T;
  }
  async function get(path: string, init?: RequestInit): Promise<{ res: Response; body: unknown; text: string }> {
    const res = await t.fetch(path, init);
    const text = await res.text();
    return { res, text, body: text === '' ? null : JSON.parse(text) };
  }
  async function ok<S extends z.ZodType>(path: string, schema: S): Promise<{ res: Response; body: z.output<S> }> {
    const { res, body, text } = await get(path);
    expect(res.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
    return { res, body: schema.parse(body) };
  }
  async function fails(path: string, status: number, code: ErrorResponse['error']): Promise<ErrorResponse> {
    const { res, body, text } = await get(path);
    expect(res.status, `${path}: ${text.slice(0, 300)}`).toBe(status);
    const error = ErrorResponseSchema.parse(body);
    expect(error.error).toBe(code);
    expect(error.message.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return error;
  }
  const boardPath = (month: string, code: string, slug: string) => viewPaths.board(month, code, slug);
  const rowEntry = (b: BoardView, i: number) => {
    const [slug, company, industry, visibilityScore, mentionCount, previousRank, combinationsNamed, combinations, scoredAnswers] = b.rows[i]!;
    const rank = i + 1;
    const evidence = { combinationsNamed, combinations, scoredAnswers };
    return { rank, slug, company, industry, visibilityScore, mentionCount, evidence, previousRank, rankChange: previousRank === null ? null : previousRank - rank };
  };
  async function allEntries(query: string, total: number): Promise<LeaderboardEntry[]> {
    const out: LeaderboardEntry[] = [];
    for (let page = 1; (page - 1) * 100 < total; page++) {
      out.push(...(await ok(`/api/v1/rankings?${query}&limit=100&page=${page}`, RankingsResponseSchema)).body.rankings);
    }
    return out;
  }

  beforeAll(async () => {
    t = target();
    const meta = await view<MetaView>(viewPaths.meta());
    const code = meta.examples.country;
    const industry = meta.industries.find((i) => i.slug === meta.examples.industry)!;
    f = {
      meta,
      code,
      countryName: meta.countries.find((c) => c.code === code)!.name,
      industry,
      board: await view<BoardView>(boardPath(meta.month, code, industry.slug)),
      overall: await view<BoardView>(boardPath(meta.month, 'us', 'all')),
      company: await view<CompanyView>(viewPaths.company(meta.examples.company)),
      search: await view<SearchRankingsView>(viewPaths.searchRankings()),
    };
  });

  describe('index and health (§4.1, §4.2)', () => {
    it('GET /api/v1 returns the dataset index', async () => {
      const { body } = await ok('/api/v1', IndexResponseSchema);
      expect(body).toEqual(f.meta.index);
      expect(body.datasetVersion).toBe(f.meta.month);
      expect(body.dataset.months).toEqual(f.meta.months);
    });
    it('/api, /api/v1 and a trailing slash answer the same, without redirect', async () => {
      const a = await get('/api/v1');
      for (const path of ['/api', '/api/', '/api/v1/']) {
        const b = await get(path);
        expect(b.res.status, path).toBe(200);
        expect(b.text, path).toBe(a.text);
        expect(b.res.headers.get('etag')).toBe(a.res.headers.get('etag'));
      }
    });
    it('GET /api/v1/health returns the health object', async () => {
      const { body } = await ok('/api/v1/health', HealthResponseSchema);
      expect(body).toEqual(f.meta.health);
      expect((await get('/api/health/')).text).toBe(JSON.stringify(body));
    });
    it('serves the OpenAPI document when the build wrote one', async () => {
      const file = await t.read('api/v1/openapi.json');
      const { res, body } = await get('/api/v1/openapi.json');
      if (file === null) expect(res.status).toBe(404);
      else expect(body).toEqual(JSON.parse(file));
    });
    it('any other path is 404 not_found', async () => {
      for (const path of ['/api/v1/nope', '/api/v2', '/api/v1/company', '/api/v1/rankings/aerospace', '/api/v1/rankings/a/b/c']) {
        await fails(path, 404, 'not_found');
      }
    });
  });

  describe('rankings (§4.5)', () => {
    it('defaults: overall leaderboard of the United States, current month, page 1 of 25 by rank', async () => {
      const { body } = await ok('/api/v1/rankings', RankingsResponseSchema);
      const overall = f.overall;
      expect(body).toMatchObject({
        industry: 'All industries',
        country: overall.country,
        month: f.meta.month,
        previousMonth: overall.previousMonth,
        lastUpdated: f.meta.lastUpdated,
        sort: 'rank',
        page: 1,
        limit: 25,
        totalCompanies: overall.rows.length,
        totalPages: Math.ceil(overall.rows.length / 25),
      });
      expect(body.methodology).toEqual({ version: f.meta.methodology.version, url: f.meta.methodology.url, models: f.meta.methodology.models });
      expect(body.rankings).toHaveLength(Math.min(25, overall.rows.length));
      body.rankings.forEach((entry, i) => {
        expect(entry).toEqual({ ...rowEntry(overall, i), profileUrl: `${f.meta.siteUrl}/company/${entry.slug}/` });
      });
    });
    it('matches the static default file the build wrote', async () => {
      const file = await t.read('api/v1/rankings.json');
      if (file === null) return;
      expect((await get('/api/v1/rankings')).body).toEqual(JSON.parse(file));
    });
    it('industry by slug or name, country by code, name or alias, case-insensitively', async () => {
      const expected = (await ok(`/api/v1/rankings?industry=${f.industry.slug}&country=${f.code}`, RankingsResponseSchema)).body;
      expect(expected.industry).toBe(f.industry.name);
      expect(expected.country).toBe(f.countryName);
      expect(expected.totalCompanies).toBe(f.board.rows.length);
      const country = f.meta.countries.find((c) => c.code === f.code)!;
      const variants = [
        `industry=${enc(f.industry.name)}&country=${enc(country.name)}`,
        `industry=${enc(f.industry.name.toUpperCase())}&country=${enc(` ${country.code.toUpperCase()} `)}`,
        `industry=${enc(f.industry.slug.toUpperCase())}&country=${enc(country.name.toLowerCase())}`,
        ...country.aliases.map((alias) => `industry=${f.industry.slug}&country=${enc(alias)}`),
      ];
      for (const query of variants) expect((await get(`/api/v1/rankings?${query}`)).body, query).toEqual(expected);
    });
    it('pages: limit and page slice the leaderboard; past the last page is empty', async () => {
      const rows = f.overall.rows.length;
      const limit = Math.max(1, Math.min(10, Math.floor(rows / 2)));
      const { body } = await ok(`/api/v1/rankings?limit=${limit}&page=2`, RankingsResponseSchema);
      expect(body.page).toBe(2);
      expect(body.limit).toBe(limit);
      expect(body.totalPages).toBe(Math.ceil(rows / limit));
      body.rankings.forEach((entry, i) => expect(entry.rank).toBe(limit + i + 1));
      const past = (await ok(`/api/v1/rankings?page=${Math.ceil(rows / 25) + 1}`, RankingsResponseSchema)).body;
      expect(past.rankings).toEqual([]);
      expect(past.totalCompanies).toBe(rows);
      expect((await ok('/api/v1/rankings?limit=1', RankingsResponseSchema)).body.rankings).toHaveLength(Math.min(1, rows));
      expect((await ok('/api/v1/rankings?limit=100', RankingsResponseSchema)).body.rankings).toHaveLength(Math.min(100, rows));
      expect((await ok('/api/v1/rankings?limit=007', RankingsResponseSchema)).body.limit).toBe(7);
    });
    it('limit and page outside their range or not base-10 integers: 400', async () => {
      for (const value of ['0', '101', 'abc', '1.5', '-1', '1e1', '0x10', '+5', '10abc']) {
        expect((await fails(`/api/v1/rankings?limit=${enc(value)}`, 400, 'bad_request')).parameter, value).toBe('limit');
      }
      for (const value of ['0', '-1', 'x', '2.0']) {
        expect((await fails(`/api/v1/rankings?page=${enc(value)}`, 400, 'bad_request')).parameter, value).toBe('page');
      }
    });
    it('every sort orders the whole leaderboard per data-and-rules §3', async () => {
      const total = f.board.rows.length;
      const base = `industry=${f.industry.slug}&country=${f.code}`;
      const byRank = await allEntries(base, total);
      expect(byRank.map((e) => e.slug)).toEqual(f.board.rows.map((r) => r[0]));
      for (const sort of SORTS) {
        const entries = await allEntries(`${base}&sort=${sort}`, total);
        expect(entries, sort).toHaveLength(total);
        expect(new Set(entries.map((e) => e.slug)).size).toBe(total);
        for (const e of entries) expect(e.rankChange).toBe(e.previousRank === null ? null : e.previousRank - e.rank);
        for (let i = 1; i < entries.length; i++) {
          const a = entries[i - 1]!;
          const b = entries[i]!;
          const inOrder =
            sort === 'rank' || sort === 'score'
              ? a.rank < b.rank
              : sort === 'mentions'
                ? a.mentionCount > b.mentionCount || (a.mentionCount === b.mentionCount && a.rank < b.rank)
                : sort === 'name'
                  ? collator.compare(a.company, b.company) < 0 || (collator.compare(a.company, b.company) === 0 && a.slug < b.slug)
                  : b.rankChange === null
                    ? a.rankChange !== null || a.rank < b.rank
                    : a.rankChange !== null && (a.rankChange > b.rankChange || (a.rankChange === b.rankChange && a.rank < b.rank));
          expect(inOrder, `${sort}: ${a.slug} before ${b.slug}`).toBe(true);
        }
        const first = (await ok(`/api/v1/rankings?${base}&sort=${sort}&limit=5&page=2`, RankingsResponseSchema)).body;
        expect(first.sort).toBe(sort);
        expect(first.rankings).toEqual(entries.slice(5, 10));
      }
    });
    it('unknown sort: 400 with validSorts', async () => {
      const error = await fails('/api/v1/rankings?sort=best', 400, 'bad_request');
      expect(error.validSorts).toEqual([...SORTS]);
    });
    it('month: a previous month is served; malformed is 400; unknown is 404 with validMonths', async () => {
      if (f.meta.months.length > 1) {
        const month = f.meta.months[0]!;
        const code = Object.keys(f.meta.boards[month] ?? {})[0];
        if (code) {
          const { body } = await ok(`/api/v1/rankings?month=${month}&country=${code}`, RankingsResponseSchema);
          expect(body.month).toBe(month);
          expect(body.previousMonth).toBeNull();
          for (const e of body.rankings) expect(e.previousRank).toBeNull();
        }
      }
      for (const month of ['2026-4', '2026-13', '26-04', 'april', '2026-04-01']) {
        expect((await fails(`/api/v1/rankings?month=${month}`, 400, 'bad_request')).parameter).toBe('month');
      }
      const error = await fails('/api/v1/rankings?month=1999-01', 404, 'not_found');
      expect(error.validMonths).toEqual(f.meta.months);
    });
    it('unknown industry: 404 with the valid names and slugs', async () => {
      const error = await fails('/api/v1/rankings?industry=underwater-basket-weaving', 404, 'not_found');
      for (const i of f.meta.industries) {
        expect(error.validIndustries).toContain(i.name);
        expect(error.validIndustries).toContain(i.slug);
      }
    });
    it('unknown country in the query: 400 with validCountries', async () => {
      const error = await fails('/api/v1/rankings?country=atlantis', 400, 'bad_request');
      expect(error.parameter).toBe('country');
      for (const c of f.meta.countries) {
        expect(error.validCountries).toContain(c.name);
        expect(error.validCountries).toContain(c.code);
      }
    });
    it('a known industry and country without a leaderboard that month: 404', async () => {
      const gap = boardGap(f.meta);
      if (!gap) return;
      const error = await fails(`/api/v1/rankings?industry=${gap.industry}&country=${gap.country}`, 404, 'not_found');
      expect(error.validIndustries).toBeUndefined();
    });
  });

  describe('leaders (§4.6)', () => {
    it('top 10 of the current leaderboard in compact form', async () => {
      const { body } = await ok(`/api/v1/rankings/${f.industry.slug}/${f.code}`, LeadersResponseSchema);
      expect(body).toMatchObject({
        industry: f.industry.name,
        country: f.countryName,
        month: f.meta.month,
        lastUpdated: f.meta.lastUpdated,
        totalCompanies: f.board.rows.length,
      });
      expect(body.topCompanies).toEqual(
        f.board.rows.slice(0, 10).map(([slug, company, , score], i) => ({ rank: i + 1, company, score, slug })),
      );
      const file = await t.read(`api/v1/rankings/${f.industry.slug}/${f.code}.json`);
      if (file !== null) expect(body).toEqual(JSON.parse(file));
    });
    it('path accepts industry names and country names, case-insensitively', async () => {
      const expected = (await get(`/api/v1/rankings/${f.industry.slug}/${f.code}`)).text;
      for (const path of [
        `/api/v1/rankings/${enc(f.industry.name)}/${enc(f.countryName)}`,
        `/api/rankings/${f.industry.slug.toUpperCase()}/${f.code.toUpperCase()}/`,
      ]) {
        const { res, text } = await get(path);
        expect(res.status, path).toBe(200);
        expect(text, path).toBe(expected);
      }
    });
    it('limit: 1 to 100, default 10; anything else 400', async () => {
      const { body } = await ok(`/api/v1/rankings/${f.industry.slug}/${f.code}?limit=3`, LeadersResponseSchema);
      expect(body.topCompanies).toHaveLength(Math.min(3, f.board.rows.length));
      const all = await ok(`/api/v1/rankings/${f.industry.slug}/${f.code}?limit=100`, LeadersResponseSchema);
      expect(all.body.topCompanies).toHaveLength(Math.min(100, f.board.rows.length));
      for (const value of ['0', '101', 'ten', '-3']) {
        await fails(`/api/v1/rankings/${f.industry.slug}/${f.code}?limit=${value}`, 400, 'bad_request');
      }
    });
    it('unknown industry or country in the path: 404 with the valid values', async () => {
      const a = await fails(`/api/v1/rankings/knitting/${f.code}`, 404, 'not_found');
      expect(a.validIndustries).toContain(f.industry.slug);
      const b = await fails(`/api/v1/rankings/${f.industry.slug}/atlantis`, 404, 'not_found');
      expect(b.validCountries).toContain(f.code);
    });
    it('a known pair without a leaderboard: 404', async () => {
      const gap = boardGap(f.meta);
      if (gap) await fails(`/api/v1/rankings/${gap.industry}/${gap.country}`, 404, 'not_found');
    });
  });

  describe('company (§4.4)', () => {
    it('default country profile, slug case-insensitive', async () => {
      const slug = f.company.slug;
      const { body } = await ok(`/api/v1/company/${slug}`, CompanyProfileSchema);
      // The view's profile, plus the permanent URL of this answer (month-addressed, resolved parameters).
      expect(body).toEqual({ ...f.company.profiles[f.company.defaultCountry!], permalink: `${f.meta.siteUrl}/api/v1/months/${f.meta.month}/company/${f.company.slug}` });
      expect((await get(`/api/company/${slug.toUpperCase()}/`)).body).toEqual(body);
      const file = await t.read(`api/v1/company/${slug}.json`);
      if (file !== null) expect(body).toEqual(JSON.parse(file));
    });
    it('country by code or name selects that country’s profile', async () => {
      for (const [code, profile] of Object.entries(f.company.profiles)) {
        const name = f.meta.countries.find((c) => c.code === code)!.name;
        // Every spelling of the country gives the same permanent URL (the resolved code).
        const expected = { ...profile, permalink: `${f.meta.siteUrl}/api/v1/months/${f.meta.month}/company/${f.company.slug}?country=${code}` };
        expect((await ok(`/api/v1/company/${f.company.slug}?country=${code}`, CompanyProfileSchema)).body).toEqual(expected);
        expect((await ok(`/api/v1/company/${f.company.slug}?country=${enc(name.toUpperCase())}`, CompanyProfileSchema)).body).toEqual(expected);
      }
    });
    it("a past month's profile (shaped by the function from that month's records) agrees with that month's leaderboards", async () => {
      const month = f.meta.months[f.meta.months.length - 2];
      if (!month) return;
      const board = JSON.parse((await t.read(boardPath(month, f.code, f.industry.slug))) ?? 'null') as BoardView | null;
      const overall = await view<BoardView>(boardPath(month, f.code, 'all'));
      if (!board) return;
      let checked = 0, stored = 0;
      for (let i = 0; i < Math.min(5, board.rows.length); i++) {
        const row = rowEntry(board, i);
        const path = `/api/v1/company/${row.slug}?country=${f.code}&month=${month}`;
        // A store without the month's records for it (the hand-made fixture has none): no data that month.
        const shard = JSON.parse((await t.read(viewPaths.companyShard(month, shardOf(row.slug, f.meta.companyShards)))) ?? '{"companies":{}}') as { companies: Record<string, unknown> };
        if (!Object.hasOwn(shard.companies, row.slug)) {
          await fails(path, 404, 'not_found');
          continue;
        }
        stored++;
        const { body } = await ok(path, CompanyProfileSchema);
        expect(body.permalink).toBe(`${f.meta.siteUrl}/api/v1/months/${month}/company/${row.slug}?country=${f.code}`);
        expect([body.month, body.country, body.lastUpdated]).toEqual([month, f.countryName, f.meta.lastUpdated]);
        expect(body.overallRank).toBe(overall.rows.findIndex((r) => r[0] === row.slug) + 1);
        expect(body.totalCompaniesInCountry).toBe(overall.rows.length);
        expect(body.history[body.history.length - 1]).toEqual({ month, rank: body.industryRank, visibilityScore: body.visibilityScore });
        // Its best industry there is this board's, or one it stands higher in (and this board is among its others).
        const here = body.industry === board.industry ? { industryRank: body.industryRank, visibilityScore: body.visibilityScore } : body.otherIndustries.find((o) => o.industry === board.industry);
        expect(here, path).toEqual({ ...(body.industry === board.industry ? {} : { industry: board.industry }), industryRank: row.rank, visibilityScore: row.visibilityScore });
        if (body.industry !== board.industry) continue;
        expect([body.mentionCount, body.evidence, body.totalCompaniesInIndustry]).toEqual([row.mentionCount, row.evidence, board.rows.length]);
        checked++;
      }
      if (stored > 0) expect(checked).toBeGreaterThan(0);
    });
    it('a country without data for the company: 404 with its countries', async () => {
      const missing = f.meta.countries.find((c) => !(c.code in f.company.profiles));
      if (!missing) return;
      const error = await fails(`/api/v1/company/${f.company.slug}?country=${missing.code}`, 404, 'not_found');
      const names = Object.keys(f.company.profiles).map((code) => f.meta.countries.find((c) => c.code === code)!.name);
      expect([...error.countries!].sort()).toEqual(names.sort());
      expect(error.message).toContain(f.company.company);
    });
    it('unknown country: 400; unknown or malformed slug: 404', async () => {
      await fails(`/api/v1/company/${f.company.slug}?country=atlantis`, 400, 'bad_request');
      await fails('/api/v1/company/no-such-company-anywhere', 404, 'not_found');
      for (const slug of ['..%2F..%2Fmeta', '..%2F..%2Fviews%2Fmeta', 'a..b', 'meta.json', '-x-', 'a%00b']) {
        await fails(`/api/v1/company/${slug}`, 404, 'not_found');
      }
    });
    it('a company without data this month: 404', async () => {
      for (const [slug, entry] of Object.entries(f.search.companies)) {
        if (entry.defaultCountry !== null) continue;
        await fails(`/api/v1/company/${slug}`, 404, 'not_found');
        return;
      }
    });
  });

  describe('compare (§4.7)', () => {
    it('2 to 5 companies, each in its default country', async () => {
      const slugs = f.meta.examples.compare;
      const { body } = await ok(`/api/v1/compare?companies=${slugs.join(',')}`, CompareResponseSchema);
      expect(body.month).toBe(f.meta.month);
      expect(body.lastUpdated).toBe(f.meta.lastUpdated);
      expect(body.companies.map((c) => c.slug)).toEqual(slugs);
      for (const profile of body.companies) {
        expect(profile.country).toBe(countryOf(f.meta, f.search.companies[profile.slug]!.defaultCountry!));
      }
      const spaced = await ok(`/api/v1/compare?companies=${enc(` ${slugs.map((s) => s.toUpperCase()).join(' , ')} ,`)}`, CompareResponseSchema);
      expect(spaced.body).toEqual(body);
    });
    it('five companies; a country applied to every company', async () => {
      const codes = Object.keys(f.meta.boards[f.meta.month] ?? {});
      for (const code of codes) {
        const slugs = Object.entries(f.search.companies)
          .filter(([, e]) => code in e.rankings)
          .map(([slug]) => slug)
          .slice(0, 5);
        if (slugs.length < 2) continue;
        const { body } = await ok(`/api/v1/compare?companies=${slugs.join(',')}&country=${code}`, CompareResponseSchema);
        expect(body.companies.map((c: CompanyProfile) => [c.slug, c.country])).toEqual(slugs.map((s) => [s, countryOf(f.meta, code)]));
        return;
      }
    });
    it('missing, fewer than 2 or more than 5 distinct slugs: 400', async () => {
      const [a, b] = f.meta.examples.compare as [string, string];
      const more = [a, b, 'c-1', 'd-2', 'e-3', 'f-4'];
      for (const query of ['', '?companies=', `?companies=${a}`, `?companies=${a},${a}`, `?companies=${a},,${a.toUpperCase()}`, `?companies=${more.join(',')}`]) {
        expect((await fails(`/api/v1/compare${query}`, 400, 'bad_request')).parameter, query).toBe('companies');
      }
      await fails(`/api/v1/compare?companies=${a},${b}&country=atlantis`, 400, 'bad_request');
    });
    it('unknown slugs: 404 listing them', async () => {
      const [a] = f.meta.examples.compare as [string];
      const error = await fails(`/api/v1/compare?companies=${a},nope-one,Nope-Two`, 404, 'not_found');
      expect(error.unknown).toEqual(['nope-one', 'nope-two']);
    });
    it('a company without data in the asked country: 404 naming it', async () => {
      for (const country of f.meta.countries) {
        const have = Object.entries(f.search.companies).find(([, e]) => country.code in e.rankings);
        const lack = Object.entries(f.search.companies).find(([, e]) => !(country.code in e.rankings) && Object.keys(e.rankings).length > 0);
        if (!have || !lack) continue;
        const error = await fails(`/api/v1/compare?companies=${have[0]},${lack[0]}&country=${country.code}`, 404, 'not_found');
        expect(error.message).toContain(lack[1].company);
        expect(error.countries?.length).toBeGreaterThan(0);
        return;
      }
    });
  });

  describe('search (§4.3)', () => {
    it('finds the example company with its latest ranking', async () => {
      const q = f.meta.examples.search;
      const { body } = await ok(`/api/v1/search?q=${enc(q)}`, SearchResponseSchema);
      expect(body.query).toBe(q);
      expect(body.month).toBe(f.meta.month);
      expect(body.results.length).toBeGreaterThan(0);
      expect(body.results.length).toBeLessThanOrEqual(5);
      checkResults(body);
    });
    it('q is trimmed; limit 1 to 20', async () => {
      const q = f.meta.examples.search;
      const { body } = await ok(`/api/v1/search?q=${enc(`  ${q} `)}&limit=1`, SearchResponseSchema);
      expect(body.query).toBe(q);
      expect(body.results).toHaveLength(1);
      expect((await ok(`/api/v1/search?q=a&limit=20`, SearchResponseSchema)).body.results.length).toBeLessThanOrEqual(20);
      for (const value of ['0', '21', 'five']) {
        expect((await fails(`/api/v1/search?q=a&limit=${value}`, 400, 'bad_request')).parameter).toBe('limit');
      }
    });
    it('q missing, blank or longer than 100 characters: 400', async () => {
      for (const query of ['', '?q=', '?q=%20%20', `?q=${'a'.repeat(101)}`, '?limit=3']) {
        expect((await fails(`/api/v1/search${query}`, 400, 'bad_request')).parameter, query).toBe('q');
      }
      await ok(`/api/v1/search?q=${'a'.repeat(100)}`, SearchResponseSchema);
    });
    it('country keeps only companies ranked there, with that country’s ranking', async () => {
      for (const country of f.meta.countries) {
        const slugs = Object.entries(f.search.companies).filter(([, e]) => country.code in e.rankings);
        const target = slugs.find(([, e]) => e.defaultCountry !== country.code) ?? slugs[0];
        if (!target) continue;
        const { body } = await ok(`/api/v1/search?q=${enc(target[1].company)}&country=${enc(country.name)}&limit=20`, SearchResponseSchema);
        expect(body.results.length).toBeGreaterThan(0);
        for (const r of body.results) {
          expect(r.country).toBe(country.name);
          expect(f.search.companies[r.slug]!.rankings[country.code]).toBeDefined();
        }
        checkResults(body, country.code);
        return;
      }
    });
    it('unknown country: 400', async () => {
      await fails('/api/v1/search?q=a&country=atlantis', 400, 'bad_request');
    });
  });

  function checkResults(body: SearchResponse, code?: string): void {
    for (const r of body.results) {
      const entry = f.search.companies[r.slug]!;
      const country = code ?? entry.defaultCountry!;
      const ranking = entry.rankings[country]!;
      expect(r).toEqual({
        company: entry.company,
        slug: r.slug,
        website: entry.website,
        industry: ranking.industry,
        industries: entry.industries,
        country: countryOf(f.meta, country),
        latestRanking: {
          rank: ranking.rank,
          industryRank: ranking.industryRank,
          totalCompaniesInIndustry: ranking.totalCompaniesInIndustry,
          visibilityScore: ranking.visibilityScore,
          month: f.search.month,
        },
        profileUrl: `${f.meta.siteUrl}/company/${r.slug}/`,
        apiUrl: `${f.meta.siteUrl}/api/v1/company/${r.slug}${country === entry.defaultCountry ? '' : `?country=${country}`}`,
        matchedOn: r.matchedOn,
        confidence: r.confidence,
      });
      expect(['name', 'alias', 'domain', 'prefix', 'fuzzy', 'words', 'acronym']).toContain(r.matchedOn);
      expect(r.confidence).toBeGreaterThan(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
    }
    // Best first.
    const confidences = body.results.map((r) => r.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
  }

  describe('HTTP headers (§1, §8, data-and-rules §4)', () => {
    it('success: CORS, JSON type, long cache life, strong ETag', async () => {
      const res = await t.fetch('/api/v1/health');
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toMatch(/^public, max-age=1800, s-maxage=3600, stale-while-revalidate=\d+$/);
      expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
      await res.arrayBuffer();
    });
    it('errors: CORS, JSON type, short cache life', async () => {
      const res = await t.fetch('/api/v1/company/no-such-company');
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      expect(res.headers.get('etag')).toBeNull();
      await res.arrayBuffer();
    });
    it('If-None-Match with the current ETag: 304 with CORS and the ETag, no body', async () => {
      for (const path of ['/api/v1', '/api/v1/health', `/api/v1/company/${f.company.slug}`, `/api/v1/rankings?industry=${f.industry.slug}`]) {
        const first = await t.fetch(path);
        await first.arrayBuffer();
        const tag = first.headers.get('etag')!;
        const res = await t.fetch(path, { headers: { 'If-None-Match': tag } });
        expect(res.status, path).toBe(304);
        expect(res.headers.get('etag')).toBe(tag);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('cache-control')).toMatch(/^public, max-age=1800/);
        expect(await res.text()).toBe('');
        const other = await t.fetch(path, { headers: { 'If-None-Match': '"something-else"' } });
        expect(other.status).toBe(200);
        await other.arrayBuffer();
        const star = await t.fetch(path, { headers: { 'If-None-Match': `"x", ${tag}` } });
        expect(star.status).toBe(304);
        await star.arrayBuffer();
      }
    });
    it('different representations have different ETags', async () => {
      const a = await t.fetch('/api/v1/rankings?limit=2');
      const b = await t.fetch('/api/v1/rankings?limit=3');
      expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
      await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    });
    it('OPTIONS answers the CORS preflight', async () => {
      const res = await t.fetch('/api/v1/rankings', {
        method: 'OPTIONS',
        headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'If-None-Match' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,OPTIONS');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-none-match');
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(await res.text()).toBe('');
    });
    it('HEAD: same status and headers as GET, no body', async () => {
      for (const path of ['/api/v1/health', '/api/v1/company/no-such-company']) {
        const get = await t.fetch(path);
        await get.arrayBuffer();
        const head = await t.fetch(path, { method: 'HEAD' });
        expect(head.status).toBe(get.status);
        expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
        expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(head.headers.get('access-control-allow-origin')).toBe('*');
        expect(await head.text()).toBe('');
      }
    });
    it('other methods: 405 with Allow, on any path', async () => {
      for (const [method, path] of [['POST', '/api/v1/health'], ['PUT', '/api/v1/company/x'], ['DELETE', '/api/v1'], ['PATCH', '/api/v1/nope']] as const) {
        const res = await t.fetch(path, { method, body: method === 'DELETE' ? undefined : '{}' });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(ErrorResponseSchema.parse(await res.json()).error).toBe('method_not_allowed');
      }
    });
  });
}

function countryOf(meta: MetaView, code: string): string {
  return meta.countries.find((c) => c.code === code)?.name ?? code;
}

/** A known industry and country with no leaderboard in the current month, if the data has one. */
function boardGap(meta: MetaView): { industry: string; country: string } | null {
  const month = meta.boards[meta.month] ?? {};
  for (const country of meta.countries) {
    const slugs = month[country.code] ?? [];
    const industry = meta.industries.find((i) => !slugs.includes(i.slug));
    if (industry) return { industry: industry.slug, country: country.code };
  }
  return null;
}

export type { RankingsResponse };
