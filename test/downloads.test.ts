/**
 * Bulk downloads (src/pipeline/write/downloads.ts) over the built sample site: the CSV of a month
 * holds exactly the API's leaderboards, the NDJSON the API's profiles, and every file
 * is what its manifest says (bytes, rows, SHA-256).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../src/api/index.ts';
import type { Handler } from '../src/api/index.ts';
import { LEADERBOARD_COLUMNS, loadDataset } from '../src/pipeline/write/downloads.ts';
import { DataError } from '../src/core/data-error.ts';
import { DEFAULT_DATASET } from '../src/core/schemas/dataset.ts';
import { viewPaths, type MetaView, type SearchRankingsView } from '../src/core/views/layout.ts';
import { startServer } from '../src/adapters/node/index.ts';
import { CompanyProfileSchema, IndexResponseSchema, RankingsResponseSchema } from '../src/core/schemas/responses.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
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

describe('bulk downloads, every row', () => {
  it('every month\'s CSV equals the API\'s leaderboards, every page of every context', async () => {
    for (const month of meta.months) {
      const csv = Papa.parse<Record<string, string>>(gunzipSync(file(`downloads/${month}/leaderboards.csv.gz`)).toString('utf8'), { header: true, skipEmptyLines: true });
      expect(csv.errors, month).toEqual([]);
      const got = csv.data.map((r) => [r.country_code, r.leaderboard, Number(r.rank), r.slug, Number(r.visibility_score), Number(r.mention_count), r.previous_rank === '' ? null : Number(r.previous_rank)]);
      const want: unknown[][] = [];
      const seen = new Set<string>();
      for (const r of csv.data) {
        const key = `${r.country_code}/${r.leaderboard}`;
        if (seen.has(key)) continue;
        seen.add(key);
        for (let page = 1, pages = 1; page <= pages; page++) {
          const body = RankingsResponseSchema.parse(await api(`/api/v1/rankings?country=${r.country_code}&industry=${r.leaderboard}&month=${month}&limit=100&page=${page}`));
          pages = body.totalPages;
          for (const e of body.rankings) want.push([r.country_code, r.leaderboard, e.rank, e.slug, e.visibilityScore, e.mentionCount, e.previousRank]);
        }
      }
      expect(seen.size, month).toBe(Object.values(meta.boards[month]!).reduce((n, industries) => n + industries.length + 1, 0));
      expect(got, month).toEqual(want);
    }
  }, 120_000);

  it('the current month\'s NDJSON holds every profile once, each equal to the API\'s', async () => {
    const rankings = JSON.parse(file(viewPaths.searchRankings()).toString()) as SearchRankingsView;
    const wanted = Object.entries(rankings.companies).flatMap(([slug, c]) => Object.keys(c.rankings).map((code) => `${slug}/${code}`));
    const lines = gunzipSync(file(`downloads/${meta.month}/profiles.ndjson.gz`)).toString('utf8').split('\n').filter(Boolean);
    const keys: string[] = [];
    for (const line of lines) {
      const p = JSON.parse(line) as { slug: string; country: string };
      const code = meta.countries.find((c) => c.name === p.country)!.code;
      keys.push(`${p.slug}/${code}`);
      expect(await api(`/api/v1/company/${p.slug}?country=${code}`)).toEqual(p);
    }
    expect(keys.length).toBe(new Set(keys).size);
    expect(keys.sort()).toEqual(wanted.sort());
  }, 120_000);

  it('the Node server serves the files as they are (application/gzip, not re-encoded) and the manifest', async () => {
    const running = await startServer({ distDir: dist, port: 0, rateLimitPerMinute: 0, log: null });
    try {
      const m = JSON.parse(file(`downloads/${meta.month}/manifest.json`).toString()) as Manifest;
      for (const f of m.files) {
        const res = await fetch(`${running.url}${f.path}`, { headers: { 'accept-encoding': 'gzip, br' } });
        expect(res.status, f.path).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/gzip');
        expect(res.headers.get('content-encoding')).toBeNull();
        expect(createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex')).toBe(f.sha256);
      }
      const res = await fetch(`${running.url}/downloads/manifest.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(JSON.parse(file('downloads/manifest.json').toString()));
    } finally {
      await running.close();
    }
  });
});

describe('dataset.json', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'evi-dataset-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('falls back to the defaults the README states when the data folder has none', async () => {
    expect(await loadDataset(tmp)).toEqual(DEFAULT_DATASET);
    expect(DEFAULT_DATASET.license.name).toBe('CC BY 4.0');
  });

  it('is read, and a bad one is a data error naming the file', async () => {
    const dir = mkdtempSync(join(tmp, 'd-'));
    writeFileSync(join(dir, 'dataset.json'), JSON.stringify({ license: { name: 'ODbL 1.0', url: 'https://opendatacommons.org/licenses/odbl/1-0/' }, citation: 'Cite {name} ({month})' }));
    expect((await loadDataset(dir)).license.name).toBe('ODbL 1.0');
    writeFileSync(join(dir, 'dataset.json'), JSON.stringify({ license: { name: 'X', url: 'not a url' }, citation: 'c' }));
    await expect(loadDataset(dir)).rejects.toBeInstanceOf(DataError);
    writeFileSync(join(dir, 'dataset.json'), '{"license":');
    await expect(loadDataset(dir)).rejects.toThrow(/dataset\.json.*not valid JSON/s);
  });
});
