import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESEARCH_MODELS, SCORED_MODELS, writeDataset } from './mentions-gen.ts';
import { COUNTRIES, INDUSTRIES, foldName, slugify } from './registry-gen.ts';

const OPTS = { companies: 150, months: 3, firstMonth: '2026-03', rowsPerMonth: 4000, seed: 5, gzip: true };
const dirs: string[] = [];

function readCsv(path: string): string[][] {
  const raw = readFileSync(path);
  const { data, errors } = Papa.parse<string[]>((path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'), { delimiter: ',', skipEmptyLines: true });
  if (errors.length) throw new Error(`${path}: ${errors[0]!.message} (row ${errors[0]!.row})`);
  return data;
}

beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const out = mkdtempSync(join(tmpdir(), 'evi-gen-'));
    dirs.push(out);
    await writeDataset({ ...OPTS, out });
  }
}, 60_000);

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('writeDataset', () => {
  it('is byte-identical for the same options', () => {
    const [a, b] = dirs as [string, string];
    const files = ['countries.csv', 'industries.csv', 'companies.csv', ...readdirSync(join(a, 'mentions')).map((f) => `mentions/${f}`)];
    expect(readdirSync(join(a, 'mentions'))).toEqual(['2026-03.csv.gz', '2026-04.csv.gz', '2026-05.csv.gz']);
    for (const f of files) expect(readFileSync(join(b, f)).equals(readFileSync(join(a, f))), f).toBe(true);
  });

  it('writes the reference lists and a registry the build accepts', () => {
    const dir = dirs[0] as string;
    const countries = readCsv(join(dir, 'countries.csv'));
    expect(countries[0]).toEqual(['code', 'name', 'aliases']);
    expect(countries.slice(1).map((r) => r[1])).toEqual(COUNTRIES.map((c) => c.name));
    const industries = readCsv(join(dir, 'industries.csv'));
    expect(industries).toEqual([['name'], ...INDUSTRIES.map((n) => [n])]);

    const companies = readCsv(join(dir, 'companies.csv'));
    expect(companies[0]).toEqual(['slug', 'name', 'website', 'industries', 'countries', 'aliases', 'tracked_since']);
    const rows = companies.slice(1);
    expect(rows).toHaveLength(OPTS.companies);
    const blank = rows.filter((r) => r[0] === '').length;
    expect(blank).toBeGreaterThan(0);
    expect(blank).toBeLessThan(rows.length);
    const slugs = rows.map((r) => r[0] || slugify(r[1] as string));
    expect(new Set(slugs).size).toBe(rows.length);
    for (const s of slugs) expect(s).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    for (const r of rows) {
      for (const i of (r[3] as string).split('|')) expect(INDUSTRIES).toContain(i);
      for (const c of (r[4] as string).split('|')) expect(COUNTRIES.some((x) => x.code === c)).toBe(true);
      expect(r[6]).toMatch(/^(\d{4}-\d{2})?$/);
    }
  });

  it('writes mention rows with valid contexts, consistent answers and resolvable names', () => {
    const dir = dirs[0] as string;
    const countryKey = new Map<string, string>();
    for (const c of COUNTRIES) for (const n of [c.code, c.name, ...c.aliases]) countryKey.set(n.toLowerCase(), c.code);
    const industryKey = new Map<string, string>();
    for (const n of INDUSTRIES) {
      industryKey.set(n.toLowerCase(), n);
      industryKey.set(slugify(n), n);
    }
    const registry = readCsv(join(dir, 'companies.csv')).slice(1);
    const owner = new Map<string, string[]>();
    for (const r of registry) for (const n of [r[1] as string, ...(r[5] ? (r[5] as string).split('|') : [])]) owner.set(foldName(n), r);

    for (const month of ['2026-03', '2026-04', '2026-05']) {
      const rows = readCsv(join(dir, 'mentions', `${month}.csv.gz`));
      expect(rows[0]).toEqual(['answer_id', 'collected_at', 'model', 'country', 'industry', 'theme', 'question_id', 'company']);
      const answers = new Map<string, string>();
      const models = new Set<string>();
      let empty = 0;
      let resolved = 0;
      let unresolved = 0;
      let variants = 0;
      const bad: string[] = [];
      const idRe = new RegExp(`^a-${month}-\\d{6}$`);
      const atRe = new RegExp(`^${month}-(0[1-9]|[12]\\d|3[01])(T([01]\\d|2[0-3]):[0-5]\\d:00Z)?$`);
      const allModels = [...SCORED_MODELS, ...RESEARCH_MODELS];
      for (const r of rows.slice(1)) {
        const [id, at, model, country, industry, theme, question, company] = r as [string, string, string, string, string, string, string, string];
        if (r.length !== 8) bad.push(`columns: ${r.join(',')}`);
        if (!idRe.test(id)) bad.push(`answer_id: ${id}`);
        if (!atRe.test(at)) bad.push(`collected_at: ${at}`);
        if (!countryKey.has(country.trim().toLowerCase())) bad.push(`country: ${country}`);
        if (!industryKey.has(industry.trim().toLowerCase())) bad.push(`industry: ${industry}`);
        if (!allModels.includes(model)) bad.push(`model: ${model}`);
        models.add(model);
        const shared = [at, model, country, industry, theme, question].join('\u0000');
        const seen = answers.get(id);
        if (seen === undefined) answers.set(id, shared);
        else if (seen !== shared) bad.push(`answer ${id} disagrees`);
        if (company === '') {
          empty++;
          continue;
        }
        const co = owner.get(foldName(company));
        if (!co) {
          unresolved++;
          continue;
        }
        resolved++;
        if (company !== co[1] && !(co[5] as string).split('|').includes(company)) variants++;
        if (co[6] && (co[6] as string) > month) bad.push(`${company} named before ${co[6]}`);
      }
      expect(bad.slice(0, 10)).toEqual([]);
      expect(models).toEqual(new Set([...SCORED_MODELS, ...RESEARCH_MODELS]));
      expect(empty).toBeGreaterThan(0);
      expect(unresolved).toBeGreaterThan(0);
      expect(variants).toBeGreaterThan(0);
      expect(resolved).toBeGreaterThan(unresolved * 5);
    }
  }, 30_000);

  it('writes plain CSV when gzip is off', async () => {
    const out = mkdtempSync(join(tmpdir(), 'evi-gen-'));
    dirs.push(out);
    const result = await writeDataset({ ...OPTS, months: 1, rowsPerMonth: 500, gzip: false, out });
    expect(readdirSync(join(out, 'mentions'))).toEqual(['2026-03.csv']);
    expect(result.rows).toBe(readCsv(join(out, 'mentions', '2026-03.csv')).length - 1);
    expect(result.files).toHaveLength(4);
  });
});
