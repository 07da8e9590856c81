/**
 * Bulk downloads (src/build/downloads.ts) over the built sample site: the CSV of a month
 * holds exactly the API's leaderboards, the NDJSON the API's profiles, and every file
 * is what its manifest says (bytes, rows, SHA-256).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../src/api/index.ts';
import type { Handler } from '../src/api/index.ts';
import { LEADERBOARD_COLUMNS } from '../src/build/downloads.ts';
import { CompanyProfileSchema, IndexResponseSchema, RankingsResponseSchema } from '../src/core/schemas/responses.ts';
import type { MetaView } from '../src/core/views/layout.ts';
import { FsStore } from '../src/server/fs-store.ts';
import { builtDist } from './lib/dist.ts';

let dist: string;
let handle: Handler;
let meta: MetaView;
const file = (path: string) => readFileSync(join(dist, path.replace(/^\//, '')));
const api = async (path: string) => (await handle(new Request(`${meta.siteUrl}${path}`))).json();

interface Manifest {
  month: string;
  files: { path: string; url: string; bytes: number; rows: number; sha256: string; format: string; columns?: { name: string }[] }[];
  license: { name: string; url: string };
  citation: string;
}

beforeAll(async () => {
  dist = await builtDist();
  handle = createHandler(new FsStore(dist));
  meta = JSON.parse(file('views/meta.json').toString()) as MetaView;
});

describe('bulk downloads', () => {
  it('the index links the dataset manifest, with the license and the citation, and it lists every month', async () => {
    const index = IndexResponseSchema.parse(await api('/api/v1'));
    expect(index.links.downloads).toBe(`${meta.siteUrl}/downloads/manifest.json`);
    expect(index.license?.url).toMatch(/^https:\/\//);
    expect(index.citation).toContain(meta.month);
    const all = JSON.parse(file('downloads/manifest.json').toString()) as { months: Manifest[]; license: unknown; citation: string };
    expect(all.months.map((m) => m.month)).toEqual(meta.months);
    expect(all.license).toEqual(index.license);
  });

  it('every file has the bytes, rows and SHA-256 of its manifest', () => {
    for (const month of meta.months) {
      const m = JSON.parse(file(`downloads/${month}/manifest.json`).toString()) as Manifest;
      expect(m.files.length, month).toBe(month === meta.month ? 2 : 1);
      for (const f of m.files) {
        const bytes = file(f.path);
        expect(bytes.byteLength, f.path).toBe(f.bytes);
        expect(createHash('sha256').update(bytes).digest('hex'), f.path).toBe(f.sha256);
        const text = gunzipSync(bytes).toString('utf8');
        const lines = text.split('\n').filter(Boolean).length;
        expect(lines, f.path).toBe(f.format === 'csv+gzip' ? f.rows + 1 : f.rows);
        expect(f.url).toBe(`${meta.siteUrl}${f.path}`);
      }
    }
  });

  it('a past month\'s CSV, read back by a CSV reader, equals the API\'s leaderboards of that month, every context', async () => {
    const month = meta.months[meta.months.length - 3]!;
    const csv = Papa.parse<Record<string, string>>(gunzipSync(file(`downloads/${month}/leaderboards.csv.gz`)).toString('utf8'), { header: true, skipEmptyLines: true });
    expect(csv.errors).toEqual([]);
    expect(csv.meta.fields).toEqual(LEADERBOARD_COLUMNS.map((c) => c.name));
    const byBoard = new Map<string, Record<string, string>[]>();
    for (const row of csv.data) {
      const key = `${row.country_code}/${row.leaderboard}`;
      byBoard.set(key, [...(byBoard.get(key) ?? []), row]);
    }
    const expected = Object.entries(meta.boards[month]!).flatMap(([country, industries]) => [...industries.map((i) => `${country}/${i}`), `${country}/all`]);
    expect([...byBoard.keys()].sort()).toEqual(expected.sort());
    for (const [key, rows] of byBoard) {
      const [country, industry] = key.split('/');
      const body = RankingsResponseSchema.parse(await api(`/api/v1/rankings?country=${country}&industry=${industry}&month=${month}&limit=100`));
      expect(body.totalCompanies, key).toBe(rows.length);
      body.rankings.forEach((e, i) => {
        const r = rows[i]!;
        expect(
          [Number(r.rank), r.slug, r.company, r.industry, Number(r.visibility_score), Number(r.mention_count), r.previous_rank === '' ? null : Number(r.previous_rank), r.rank_change === '' ? null : Number(r.rank_change)],
          key,
        ).toEqual([e.rank, e.slug, e.company, e.industry, e.visibilityScore, e.mentionCount, e.previousRank, e.rankChange]);
        expect([Number(r.combinations_named), Number(r.combinations), Number(r.scored_answers)], key).toEqual([e.evidence.combinationsNamed, e.evidence.combinations, e.evidence.scoredAnswers]);
      });
    }
  });

  it("the current month's profiles are the API's, in every country", async () => {
    const lines = gunzipSync(file(`downloads/${meta.month}/profiles.ndjson.gz`)).toString('utf8').split('\n').filter(Boolean);
    const profiles = lines.map((l) => CompanyProfileSchema.parse(JSON.parse(l)));
    expect(new Set(profiles.map((p) => p.month))).toEqual(new Set([meta.month]));
    for (const p of profiles.filter((_, i) => i % 37 === 0)) {
      const code = meta.countries.find((c) => c.name === p.country)!.code;
      expect(await api(`/api/v1/company/${p.slug}?country=${code}`)).toEqual(p);
    }
  });
});
