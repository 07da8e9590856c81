/**
 * The build pipeline over the hand-made fixture in test/fixtures/basic. Every expected
 * figure below is worked out by hand from the CSV rows (see the comments), one case per rule.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';
import { DataError } from '../src/core/data-error.ts';
import type { BoardView, CompanyView, MetaView } from '../src/core/views/layout.ts';
import { CompanyProfileSchema, HealthResponseSchema, IndexResponseSchema, LeadersResponseSchema, RankingsResponseSchema } from '../src/core/schemas/responses.ts';
import { reportPath } from '../src/pipeline/write/report.ts';

const root = resolve(import.meta.dirname, '..');
const fixture = join(root, 'test/fixtures/basic');
const tmp = mkdtempSync(join(tmpdir(), 'evi-build-'));
const out = join(tmp, 'dist');
const json = <T>(p: string): T => JSON.parse(readFileSync(join(out, p), 'utf8')) as T;
/** The build report, written beside the output folder (never in it: a static host would serve it). */
const report = <T>(): T => {
  if (existsSync(join(out, 'build-report.json'))) throw new Error('build-report.json is in the output folder');
  return JSON.parse(readFileSync(reportPath(out), 'utf8')) as T;
};
const board = (m: string, c: string, i: string) => json<BoardView>(`views/rankings/${m}/${c}/${i}.json`);
const company = (slug: string) => json<CompanyView>(`views/company/${slug}.json`);

const build = (dataDir: string, outDir = out) =>
  runBuild({ root, dataDir, outDir, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers: 1 });

beforeAll(async () => {
  await build(fixture);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('scoring and ranking (data-and-rules §2–§3)', () => {
  // 2026-03, Aerospace, us. Scored answers a1 (ChatGPT, Leadership), a2 (ChatGPT, Inclusion),
  // a3 (Perplexity, Leadership, names nobody), a5/a6 (Google Gemini, Inclusion), a7/a8 (ChatGPT, Leadership):
  // K = 4 combinations. a4 is Claude (research) and is ignored.
  const rows = () => board('2026-03', 'us', 'aerospace').rows;

  it('scores hits / K with empty-company answers still counting as combinations', () => {
    // Orbital: a1 (C,L) + a2 (C,I) = 2/4. Without a3's (Perplexity, Leadership) K would be 3 and this 66.7.
    expect(rows()[0]).toEqual(['orbital-works', 'Orbital Works', 'Aerospace', 50, 2, 2, 2, 4, 7]);
    // The evidence: named in 2 of K = 4 combinations; 7 scored answers (a1-a3, a5-a8; a4 is Claude).
    expect(rows()[0]!.slice(6)).toEqual([2, 4, 7]);
  });

  it('resolves aliases, case, blanks and diacritics, and counts one answer naming a company twice once', () => {
    // Kestrel: a1 names "Kestrel Aero" and "KESTREL  aerospace group" (one answer), a8 "  kestrel aero " -> 2 answers, 1 combination.
    expect(rows()[1]).toEqual(['kestrel-aerospace-group', 'Kestrel Aerospace Group', 'Aerospace', 25, 2, 1, 1, 4, 7]);
    // "Societe Generale Aero" (no accents) resolves to Société Générale Aéro.
    expect(rows()[2]!.slice(0, 5)).toEqual(['societe-generale-aero', 'Société Générale Aéro', 'Aerospace', 25, 1]);
  });

  it('breaks ties by mentions, then collator name with numeric order, then slug', () => {
    // Kestrel (25, 2 mentions) before the 25/1-mention group; in it "Zeta 09" and "Zeta 9" collate equal
    // (numeric), so slug decides: zeta-09-labs < zeta-9-labs; "Zeta 9" < "Zeta 10" numerically.
    expect(rows().map((r) => r[0])).toEqual(['orbital-works', 'kestrel-aerospace-group', 'societe-generale-aero', 'zeta-09-labs', 'zeta-9-labs', 'zeta-10-labs']);
  });

  it('keeps research models out of scores and mention counts', () => {
    // Zeta 9 Labs is named by Claude (a4) and Gemini (a5): one mention, one combination.
    const z9 = rows().find((r) => r[0] === 'zeta-9-labs')!;
    expect(z9[3]).toBe(25);
    expect(z9[4]).toBe(1);
    expect(report<{ rows: { research: number }; researchModels: Record<string, number> }>().researchModels).toEqual({ Claude: 1 });
  });

  it('ranks every company of the universe, never named ones included, and honours tracked_since', () => {
    // Feb: Northwind (tracked since 2026-03) is outside the Retail universe; only Kestrel stands, at 0.
    // Its evidence: named in 0 of K = 1 combination (b3's ChatGPT x Compensation & Benefits), 1 scored answer.
    expect(board('2026-02', 'us', 'retail').rows).toEqual([['kestrel-aerospace-group', 'Kestrel Aerospace Group', 'Retail', 0, 0, null, 0, 1, 1]]);
    // Feb Aerospace: K = 2; never-named companies rank by name then slug after the two 50s.
    expect(board('2026-02', 'us', 'aerospace').rows.map((r) => [r[0], r[3]])).toEqual([
      ['kestrel-aerospace-group', 50],
      ['orbital-works', 50],
      ['societe-generale-aero', 0],
      ['zeta-09-labs', 0],
      ['zeta-9-labs', 0],
      ['zeta-10-labs', 0],
    ]);
  });

  it('rounds half-up to one decimal on exact fractions', () => {
    // Retail us, 2026-03: 16 combinations (ChatGPT and Perplexity x 8 themes). Northwind 1/16 = 6.25 -> 6.3,
    // Kestrel 3/16 = 18.75 -> 18.8.
    expect(board('2026-03', 'us', 'retail').rows).toEqual([
      ['kestrel-aerospace-group', 'Kestrel Aerospace Group', 'Retail', 18.8, 3, 1, 3, 16, 16],
      ['northwind', 'Northwind Traders, Inc.', 'Retail', 6.3, 1, null, 1, 16, 16],
    ]);
  });

  it('gives previousRank null for a company not on the previous board, and rankChange = previousRank - rank', async () => {
    const meta = json<MetaView>('views/meta.json');
    const { rankingsBody } = await import('../src/core/views/shape.ts');
    const body = rankingsBody(meta, board('2026-03', 'us', 'retail'));
    expect(body.rankings.map((e) => [e.slug, e.previousRank, e.rankChange])).toEqual([
      ['kestrel-aerospace-group', 1, 0],
      ['northwind', null, null],
    ]);
    const aero = rankingsBody(meta, board('2026-03', 'us', 'aerospace'));
    expect(aero.rankings.slice(0, 2).map((e) => e.rankChange)).toEqual([1, -1]);
    expect(aero.previousMonth).toBe('2026-02');
    expect(rankingsBody(meta, board('2026-02', 'us', 'aerospace')).previousMonth).toBeNull();
  });

  it('places each company once on the overall board by its best entry', () => {
    // Kestrel: Aerospace 1/4 beats Retail 3/16 on score even with fewer mentions.
    const all = board('2026-03', 'us', 'all');
    expect(all.industry).toBe('All industries');
    expect(all.rows.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['orbital-works', 'Aerospace', 50],
      ['kestrel-aerospace-group', 'Aerospace', 25],
      ['societe-generale-aero', 'Aerospace', 25],
      ['zeta-09-labs', 'Aerospace', 25],
      ['zeta-9-labs', 'Aerospace', 25],
      ['zeta-10-labs', 'Aerospace', 25],
      ['northwind', 'Retail', 6.3],
    ]);
    // gb: Kestrel is 1/1 in Aerospace and in Retail with one mention each: the industry name decides (Aerospace);
    // Gamma Forge ties it on score and mentions and wins on name.
    expect(board('2026-03', 'gb', 'all').rows.map((r) => [r[0], r[2]])).toEqual([
      ['gamma-forge', 'Manufacturing & Industrial'],
      ['kestrel-aerospace-group', 'Aerospace'],
    ]);
  });
});

describe('company views (data-and-rules §4)', () => {
  it('builds the profile from the best entry in the default country', () => {
    const v = company('kestrel-aerospace-group');
    expect(v.defaultCountry).toBe('us');
    const p = CompanyProfileSchema.parse(v.profiles.us);
    expect(p).toMatchObject({
      industry: 'Aerospace',
      country: 'United States',
      visibilityScore: 25,
      industryRank: 2,
      totalCompaniesInIndustry: 6,
      overallRank: 2,
      totalCompaniesInCountry: 7,
      mentionCount: 2,
      // ChatGPT asked Leadership and Inclusion, named it in Leadership; Gemini asked Inclusion only; Perplexity Leadership only.
      modelScores: { chatgpt: 50, googleAi: 0, perplexity: 0 },
      otherIndustries: [{ industry: 'Retail', industryRank: 1, visibilityScore: 18.8 }],
      history: [
        { month: '2026-02', rank: 1, visibilityScore: 50 },
        { month: '2026-03', rank: 2, visibilityScore: 25 },
      ],
      countries: ['United Kingdom', 'United States'],
      lastUpdated: '2026-03-30',
      profileUrl: 'https://evi.example/company/kestrel-aerospace-group/',
      apiUrl: 'https://evi.example/api/v1/company/kestrel-aerospace-group',
    });
    // Leadership: Kestrel 1/2 models with 2 answers beats Orbital 1/2 with 1; Inclusion: Kestrel unnamed, last of 6.
    expect(p.themes).toEqual({ Inclusion: { rank: 6, score: 0 }, Leadership: { rank: 1, score: 50 } });
    expect(v.profiles.gb!.apiUrl).toBe('https://evi.example/api/v1/company/kestrel-aerospace-group?country=gb');
    expect(p.summary).toBe(
      'Kestrel Aerospace Group ranks 2nd of 6 Aerospace employers in the United States in 2026-03, with a Visibility Score of 25: AI assistants named it in 1 of 4 model-and-theme combinations. Its industry rank fell from 1st in 2026-02, 1 place down. Across all industries its overall rank in the United States is 2nd of 7.',
    );
  });

  it('gives modelScores null for a model with no row in the context', () => {
    expect(company('northwind').profiles.us!.modelScores).toEqual({ chatgpt: 12.5, googleAi: null, perplexity: 0 });
  });

  it('uses the best market when the company has no US data', () => {
    const g = company('gamma-forge');
    expect(g.defaultCountry).toBe('gb');
    expect(Object.keys(g.profiles)).toEqual(['gb']);
  });
});

describe('output', () => {
  it('writes each endpoint default response as a static file that matches its schema', () => {
    IndexResponseSchema.parse(json('api/v1/index.json'));
    HealthResponseSchema.parse(json('api/v1/health.json'));
    const r = RankingsResponseSchema.parse(json('api/v1/rankings.json'));
    expect([r.industry, r.country, r.sort, r.page, r.limit, r.totalCompanies, r.totalPages]).toEqual(['All industries', 'United States', 'rank', 1, 25, 7, 1]);
    const l = LeadersResponseSchema.parse(json('api/v1/rankings/retail/us.json'));
    expect(l.topCompanies).toEqual([
      { rank: 1, company: 'Kestrel Aerospace Group', score: 18.8, slug: 'kestrel-aerospace-group' },
      { rank: 2, company: 'Northwind Traders, Inc.', score: 6.3, slug: 'northwind' },
    ]);
    // The handler's answer: the view's profile and its permanent URL.
    expect(json('api/v1/company/gamma-forge.json')).toEqual({ ...company('gamma-forge').profiles.gb, permalink: 'https://evi.example/api/v1/months/2026-03/company/gamma-forge' });
    const h = json<{ companies: number; industries: number; month: string }>('api/v1/health.json');
    expect([h.companies, h.industries, h.month]).toEqual([8, 3, '2026-03']);
  });

  it('reports unresolved and out-of-universe mentions', () => {
    const rep = report<{ unresolvedNames: { top: { name: string; count: number }[] }; outOfUniverseMentions: number; rows: { total: number } }>();
    expect(rep.unresolvedNames.top).toEqual([{ name: 'Unknown Corp', count: 1 }]);
    // Northwind named in Retail in Feb (before tracked_since) and in Aerospace in March (not its industry).
    expect(rep.outOfUniverseMentions).toBe(2);
    expect(rep.rows.total).toBe(3 + 33);
  });

  it('ships host configuration for static hosts', () => {
    expect(readFileSync(join(out, '_redirects'), 'utf8')).toContain('/api/v1/company/:slug /api/v1/company/:slug.json 200');
    expect(readFileSync(join(out, '_headers'), 'utf8')).toContain('Content-Type: application/json; charset=utf-8');
  });
});

describe('bad input stops the build (data-and-rules §1.5)', () => {
  const broken = (edit: (dir: string) => void) => {
    const dir = mkdtempSync(join(tmp, 'data-'));
    cpSync(fixture, dir, { recursive: true });
    edit(dir);
    return dir;
  };
  const append = (dir: string, file: string, text: string) => writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8') + text);
  const expectIssues = async (dir: string, ...patterns: RegExp[]) => {
    const before = readFileSync(join(out, 'views/meta.json'));
    const err = await build(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    const text = (err as DataError).message;
    for (const p of patterns) expect(text).toMatch(p);
    expect(readFileSync(join(out, 'views/meta.json'))).toEqual(before);
  };

  it('names file, line, column and the nearest country', () =>
    expectIssues(broken((d) => append(d, 'mentions/2026-03.csv', 'x1,2026-03-11,ChatGPT,Frnace,Aerospace,Leadership,q1,\n')), /mentions\/2026-03\.csv:35:4 \(country\): unknown country "Frnace"; did you mean "France"\?/));

  it('rejects an unknown industry and a bad date on the same run', () =>
    expectIssues(
      broken((d) => append(d, 'mentions/2026-03.csv', 'x1,2026-03-11,ChatGPT,us,Aerospac,Leadership,q1,\nx2,2026-02-30,ChatGPT,us,Retail,Culture,q1,\n')),
      /2026-03\.csv:35:5 \(industry\): unknown industry "Aerospac"; did you mean "Aerospace"\?/,
      /2026-03\.csv:36:2 \(collected_at\): must be a date/,
    ));

  it('rejects rows of one answer that disagree', () =>
    expectIssues(broken((d) => append(d, 'mentions/2026-03.csv', 'a1,2026-03-02,ChatGPT,us,Aerospace,Inclusion,q1,Orbital Works\n')), /2026-03\.csv:35:6 \(theme\): answer "a1" has theme "Inclusion" here but "Leadership" on line 2/));

  it('rejects wrong columns and a bad month file name', () =>
    expectIssues(
      broken((d) => {
        writeFileSync(join(d, 'mentions/2026-13.csv'), 'answer_id\n');
        writeFileSync(join(d, 'mentions/2026-02.csv'), 'answer_id,when,model\n');
      }),
      /mentions\/2026-13\.csv: bad month file name/,
    ));

  it('stops a Windows-1252 month file at its first accented byte, naming the encoding (data-and-rules §1: UTF-8)', () =>
    expectIssues(
      broken((d) => {
        const file = join(d, 'mentions/2026-03.csv');
        writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('x1,2026-03-11,ChatGPT,us,Aerospace,Leadership,q1,Soci\xe9t\xe9 G\xe9n\xe9rale A\xe9ro\n', 'latin1')]));
      }),
      /mentions\/2026-03\.csv:35:54: not valid UTF-8 at byte offset \d+: the file looks like Latin-1 \(ISO-8859-1\) or Windows-1252/,
    ));

  it('stops a Latin-1 registry row instead of creating a mangled company', () =>
    expectIssues(
      broken((d) => {
        const file = join(d, 'companies.csv');
        writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from(',Soci\xe9t\xe9 Latine,latine.example,Aerospace,us,,\n', 'latin1')]));
      }),
      /companies\.csv:\d+:6: not valid UTF-8/,
    ));

  it('rejects an over-long theme and a control character, quoting a short preview', () =>
    expectIssues(
      broken((d) => append(d, 'mentions/2026-03.csv', `x1,2026-03-11,ChatGPT,us,Aerospace,${'L'.repeat(100_000)},q1,\nx2,2026-03-11,ChatGPT,us,Aerospace,Leadership,q1,Orbital\u0007Works\n`)),
      /2026-03\.csv:35:6 \(theme\): is longer than 200 characters \(got "L{60}… \(100000 characters\)"\)/,
      /2026-03\.csv:36:8 \(company\): contains a control character \(got "Orbital\\u0007Works"\)/,
    ));

  it('reports the wrong header of a month file', () =>
    expectIssues(broken((d) => writeFileSync(join(d, 'mentions/2026-02.csv'), 'answer_id,when,model\n')), /2026-02\.csv:1: wrong columns: expected "answer_id,collected_at,model,country,industry,theme,question_id,company"; missing "collected_at"/));

  it('rejects registry rows with unknown references, duplicate slugs, names and alias owners', () =>
    expectIssues(
      broken((d) =>
        append(
          d,
          'companies.csv',
          ',Kestrel Aerospace Group,dup.example,Aerospace,us,,\norbital-works,Orbital Two,o2.example,Aerospace,us,,\n,Alpha One,a1.example,Aerospce,xx,,\n,Beta Two,b2.example,Retail,us,KAG,\n',
        ),
      ),
      /companies\.csv:10:2 \(name\): duplicate company name "Kestrel Aerospace Group"/,
      /companies\.csv:11:1 \(slug\): duplicate slug "orbital-works"/,
      /companies\.csv:12:4 \(industries\): unknown industry "Aerospce"; did you mean "Aerospace"\?/,
      /companies\.csv:12:5 \(countries\): unknown country "xx"/,
      /companies\.csv:13:6 \(aliases\): alias "KAG" already belongs to "Kestrel Aerospace Group"/,
    ));

  it('does not count an unresolved company or a research model as an error', async () => {
    const dir = broken((d) => append(d, 'mentions/2026-03.csv', 'x1,2026-03-11,Meta AI,us,Aerospace,Leadership,q1,Nobody Inc\n'));
    const r = await build(dir, join(tmp, 'ok'));
    expect(r.report.researchModels).toEqual({ Claude: 1, 'Meta AI': 1 });
  });
});
