import { createWriteStream, mkdirSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { TransformOptions } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ZlibOptions } from 'node:zlib';
import {
  COUNTRIES,
  INDUSTRIES,
  foldName,
  generateRegistry,
  mulberry32,
  pick,
  randInt,
  shuffle,
  slugify,
  stripDiacritics,
} from './registry-gen.ts';
import type { GenCompany, Rng } from './registry-gen.ts';

export interface DatasetOptions {
  out: string;
  companies: number;
  months: number;
  firstMonth: string;
  rowsPerMonth: number;
  seed: number;
  gzip: boolean;
  onProgress?: (msg: string) => void;
}

export const SCORED_MODELS = ['ChatGPT', 'Google Gemini', 'Perplexity'];
export const RESEARCH_MODELS = ['Claude', 'Copilot', 'Meta AI'];
export const THEMES: { name: string; code: string }[] = [
  { name: 'Career Opportunities', code: 'career' },
  { name: 'Leadership', code: 'lead' },
  { name: 'Inclusion', code: 'incl' },
  { name: 'Compensation & Benefits', code: 'comp' },
  { name: 'Work-Life Balance', code: 'wlb' },
  { name: 'Learning & Development', code: 'learn' },
  { name: 'Culture', code: 'culture' },
  { name: 'Job Security', code: 'jobsec' },
];

const HEADER = 'answer_id,collected_at,model,country,industry,theme,question_id,company\n';
const CHUNK = 1 << 18;

export function csvField(s: string): string {
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvBytes(s: string): Buffer {
  return Buffer.from(csvField(s), 'utf8');
}

export function monthList(first: string, count: number): string[] {
  const m = /^(\d{4})-(\d{2})$/.exec(first);
  if (!m) throw new Error(`bad month ${first}`);
  let y = Number(m[1]);
  let mo = Number(m[2]);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(`${y}-${String(mo).padStart(2, '0')}`);
    if (++mo > 12) {
      mo = 1;
      y++;
    }
  }
  return out;
}

function daysIn(month: string): number {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

function hashSeed(seed: number, salt: number): number {
  let h = (seed ^ Math.imul(salt + 0x9e3779b9, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

interface CompanyForms {
  name: Buffer;
  alts: Buffer[];
  variants: Buffer[];
}

function companyForms(c: GenCompany): CompanyForms {
  const alts = [...c.aliases, ...c.subsidiaries];
  const variants = new Set<string>([c.name.toUpperCase(), (alts[0] ?? c.name).toLowerCase(), ` ${c.name}`]);
  if (c.name.includes(' ')) variants.add(c.name.replace(' ', '  '));
  const plain = stripDiacritics(c.name);
  if (plain !== c.name) variants.add(plain);
  for (const a of alts) {
    const p = stripDiacritics(a);
    if (p !== a) variants.add(p);
  }
  return { name: csvBytes(c.name), alts: alts.map(csvBytes), variants: [...variants].map(csvBytes) };
}

interface Context {
  industry: number;
  country: number;
  members: number[];
  rankWeights: number[];
  /**
   * Per member, the share of (model, theme) combinations whose answers can name it at all:
   * no assistant knows every company for every theme. Without it every well-known company is
   * named in every combination of a month (many answers per combination) and boards open with
   * long ties at 100.
   */
  coverage: number[];
  combos: [number, number][];
  themes: number[];
  weight: number;
}

const UNRESOLVED_HEADS = ['tib', 'quor', 'amb', 'ser', 'lod', 'vant', 'ox', 'pem', 'rud', 'sti', 'hux', 'jen', 'cav', 'dre', 'gor'];
const UNRESOLVED_TAILS = ['eron', 'ally', 'ick', 'apex', 'umbra', 'ola', 'worth', 'stone', 'bay', 'field', 'gate', 'hurst'];
const UNRESOLVED_WORDS = ['Staffing', 'Collective', 'Co-op', 'Agency', 'Dynamics', 'Ventures', 'Works', 'Studio', 'Partners', 'Labs'];

function unresolvedPool(rng: Rng, size: number, taken: Set<string>): Buffer[] {
  const out: Buffer[] = [];
  const seen = new Set<string>();
  for (let tries = 0; out.length < size && tries < size * 50; tries++) {
    const root = pick(rng, UNRESOLVED_HEADS) + pick(rng, UNRESOLVED_TAILS);
    const name = `${root.charAt(0).toUpperCase()}${root.slice(1)} ${pick(rng, UNRESOLVED_WORDS)}`;
    const key = foldName(name);
    if (taken.has(key) || seen.has(key)) continue;
    seen.add(key);
    out.push(csvBytes(name));
  }
  return out;
}

function buildContexts(rng: Rng, registry: GenCompany[]): Context[] {
  const fame = registry.map(() => Math.log(rng() + 1e-9));
  const byPair = new Map<number, number[]>();
  const countryIndex = new Map(COUNTRIES.map((c, i) => [c.code, i]));
  const industryIndex = new Map(INDUSTRIES.map((n, i) => [n, i]));
  registry.forEach((c, idx) => {
    for (const ind of c.industries) {
      for (const code of c.countries) {
        const key = (industryIndex.get(ind) as number) * 64 + (countryIndex.get(code) as number);
        let list = byPair.get(key);
        if (!list) byPair.set(key, (list = []));
        list.push(idx);
      }
    }
  });
  const contexts: Context[] = [];
  for (const key of [...byPair.keys()].sort((a, b) => a - b)) {
    const raw = byPair.get(key) as number[];
    const sortKey = new Map(raw.map((idx) => [idx, (fame[idx] as number) + 1.2 * (rng() - 0.5)]));
    const members = [...raw].sort((a, b) => (sortKey.get(b) as number) - (sortKey.get(a) as number) || a - b);
    const exponent = 0.8 + 0.5 * rng();
    const rankWeights = members.map((_, k) => 1 / Math.pow(k + 1, exponent));
    // The best known reach at most ~0.85 of the combinations, the long tail a few.
    const coverage = rankWeights.map((w) => COVERAGE_MAX * Math.pow(w, 0.6) * (0.55 + 0.45 * rng()));
    const themes = shuffle(rng, THEMES.map((_, i) => i)).slice(0, randInt(rng, 4, 8)).sort((a, b) => a - b);
    let models = [0, 1, 2];
    if (rng() < 0.2) models = models.filter((m) => m !== randInt(rng, 0, 2));
    const combos: [number, number][] = [];
    for (const m of models) for (const t of themes) combos.push([m, t]);
    contexts.push({
      industry: Math.floor(key / 64),
      country: key % 64,
      members,
      rankWeights,
      coverage,
      combos,
      themes,
      weight: combos.length * (1 + Math.sqrt(members.length) / 2),
    });
  }
  return contexts;
}

const NAME_COUNT_CDF = [0.12, 0.32, 0.54, 0.74, 0.88, 1];
/** The largest share of a context's combinations that can name one company (see Context.coverage). */
const COVERAGE_MAX = 0.85;

export async function writeDataset(opts: DatasetOptions): Promise<{ files: string[]; bytes: number; rows: number }> {
  const months = monthList(opts.firstMonth, opts.months);
  const registry = generateRegistry({ companies: opts.companies, seed: opts.seed, months });
  const setupRng = mulberry32(hashSeed(opts.seed, 0xc0ffee));

  mkdirSync(join(opts.out, 'mentions'), { recursive: true });
  // A month file left by an earlier run with other options would silently become an extra dataset month.
  for (const f of readdirSync(join(opts.out, 'mentions'))) {
    if (/^\d{4}-\d{2}\.csv(\.gz)?$/.test(f)) unlinkSync(join(opts.out, 'mentions', f));
  }
  const files: string[] = [];
  const writeText = (name: string, text: string): void => {
    const path = join(opts.out, name);
    writeFileSync(path, text);
    files.push(path);
  };

  writeText(
    'countries.csv',
    'code,name,aliases\n' + COUNTRIES.map((c) => [c.code, c.name, c.aliases.join('|')].map(csvField).join(',') + '\n').join(''),
  );
  writeText('industries.csv', 'name\n' + INDUSTRIES.map((n) => csvField(n) + '\n').join(''));
  writeText(
    'companies.csv',
    'slug,name,website,industries,countries,aliases,tracked_since\n' +
      registry
        .map((c) =>
          [
            setupRng() < 0.3 ? '' : c.slug,
            c.name,
            c.website,
            c.industries.join('|'),
            c.countries.join('|'),
            [...c.aliases, ...c.subsidiaries].join('|'),
            c.trackedSince ?? '',
          ]
            .map(csvField)
            .join(',') + '\n',
        )
        .join(''),
  );

  const forms = registry.map(companyForms);
  const taken = new Set<string>();
  for (const c of registry) for (const n of [c.name, ...c.aliases, ...c.subsidiaries]) taken.add(foldName(n));
  const pool = unresolvedPool(setupRng, Math.max(40, Math.round(opts.companies / 8)), taken);
  const poolWeights = cumulative(pool.map((_, k) => 1 / (k + 1)));
  const contexts = buildContexts(setupRng, registry);
  const trend = registry.map(() => (setupRng() - 0.5) * 0.16);
  const totalWeight = contexts.reduce((s, c) => s + c.weight, 0);

  const countryForms = COUNTRIES.map((c) => ({
    code: c.code,
    others: [c.name, c.name, ...c.aliases, c.code.toUpperCase()].map(csvField),
  }));
  const industryForms = INDUSTRIES.map((n) => ({
    name: csvField(n),
    others: [slugify(n), slugify(n), n.toLowerCase(), n.toUpperCase()].map(csvField),
  }));
  const themeNames = THEMES.map((t) => csvField(t.name));

  let totalRows = 0;
  for (let mi = 0; mi < months.length; mi++) {
    const month = months[mi] as string;
    const rng = mulberry32(hashSeed(opts.seed, mi + 1));
    const days = daysIn(month);
    const fileName = `${month}.csv${opts.gzip ? '.gz' : ''}`;
    const path = join(opts.out, 'mentions', fileName);
    let monthRows = 0;
    let answerSeq = 0;

    // Rows are assembled as bytes in large buffers: string ropes cost more in GC than the generation itself.
    function* chunks(): Generator<Buffer> {
      let chunk = Buffer.allocUnsafe(CHUNK);
      let pos = chunk.write(HEADER, 0, 'utf8');
      let prefixStart = 0;
      let prefixEnd = 0;
      let fresh = true;
      const row = (company: Buffer | null): void => {
        if (fresh) {
          fresh = false;
        } else {
          chunk.copyWithin(pos, prefixStart, prefixEnd);
          pos += prefixEnd - prefixStart;
        }
        if (company) {
          chunk.set(company, pos);
          pos += company.length;
        }
        chunk[pos++] = 10;
      };
      for (const ctx of contexts) {
        const eligible: number[] = [];
        const reach: number[] = [];
        const weights: number[] = [];
        ctx.members.forEach((idx, k) => {
          const since = registry[idx]?.trackedSince;
          if (since && since > month) return;
          eligible.push(idx);
          reach.push(ctx.coverage[k] as number);
          weights.push((ctx.rankWeights[k] as number) * Math.exp((trend[idx] as number) * mi + 0.5 * (rng() - 0.5)));
        });
        if (eligible.length === 0) continue;
        const cum = cumulative(weights);
        const total = cum[cum.length - 1] as number;
        // Small universes would otherwise see every member named in every answer (all scores 100).
        const cap = Math.max(1, Math.ceil(eligible.length / 2));
        const industryName = INDUSTRIES[ctx.industry] as string;
        const countryCode = COUNTRIES[ctx.country]?.code as string;
        const cf = countryForms[ctx.country] as { code: string; others: string[] };
        const inf = industryForms[ctx.industry] as { name: string; others: string[] };
        const quota = Math.max(ctx.combos.length, Math.round((opts.rowsPerMonth * ctx.weight) / totalWeight));
        const startRows = monthRows;
        let scored = 0;
        const chosen: number[] = [];
        while (monthRows - startRows < quota || scored < ctx.combos.length) {
          let model: string;
          let theme: number;
          let comboIdx = -1;
          if (rng() < 0.1) {
            model = RESEARCH_MODELS[Math.floor(rng() * 3)] as string;
            theme = ctx.themes[Math.floor(rng() * ctx.themes.length)] as number;
          } else {
            comboIdx = scored < ctx.combos.length ? scored : Math.floor(rng() * ctx.combos.length);
            const combo = ctx.combos[comboIdx] as [number, number];
            scored++;
            model = SCORED_MODELS[combo[0]] as string;
            theme = combo[1];
          }
          const day = String(1 + Math.floor(rng() * days)).padStart(2, '0');
          let collected = `${month}-${day}`;
          if (rng() < 0.1) {
            collected += `T${String(Math.floor(rng() * 24)).padStart(2, '0')}:${String(Math.floor(rng() * 60)).padStart(2, '0')}:00Z`;
          }
          const country = rng() < 0.85 ? cf.code : (cf.others[Math.floor(rng() * cf.others.length)] as string);
          const industry = rng() < 0.88 ? inf.name : (inf.others[Math.floor(rng() * inf.others.length)] as string);
          const question = `${(THEMES[theme] as { code: string }).code}-${1 + Math.floor(rng() * 4)}`;
          answerSeq++;

          if (pos > CHUNK - 8192) {
            yield chunk.subarray(0, pos);
            chunk = Buffer.allocUnsafe(CHUNK);
            pos = 0;
          }
          prefixStart = pos;
          pos += chunk.write(
            `a-${month}-${String(answerSeq).padStart(6, '0')},${collected},${model},${country},${industry},${themeNames[theme]},${question},`,
            pos,
            'utf8',
          );
          prefixEnd = pos;
          fresh = true;
          const before = monthRows;

          if (rng() >= 0.05) {
            const u = rng();
            let n = 1;
            while (u > (NAME_COUNT_CDF[n - 1] as number)) n++;
            chosen.length = 0;
            for (let s = 0; s < n; s++) {
              const r = rng();
              if (r < 0.05) {
                row(pool[search(poolWeights, rng() * (poolWeights[poolWeights.length - 1] as number))] as Buffer);
              } else if (r < 0.065) {
                const other = outOfUniverse(rng, registry, industryName, countryCode, month);
                if (other < 0) continue;
                row((forms[other] as CompanyForms).name);
              } else {
                if (chosen.length >= cap) continue;
                let idx = -1;
                for (let attempt = 0; attempt < 4; attempt++) {
                  const at = search(cum, rng() * total);
                  const cand = eligible[at] as number;
                  // Whether this combination can name the company this month: a fixed draw per
                  // (context, company, combination, month), so its share of combinations is its coverage.
                  if (comboIdx >= 0 && hashSeed(opts.seed ^ contextKey(ctx), cand * 4096 + comboIdx * 64 + mi) / 4294967296 >= (reach[at] as number)) continue;
                  if (!chosen.includes(cand)) {
                    idx = cand;
                    break;
                  }
                }
                if (idx < 0) continue;
                chosen.push(idx);
                row(pickForm(rng, forms[idx] as CompanyForms));
              }
              monthRows++;
            }
            if (chosen.length > 0 && rng() < 0.02) {
              const f = forms[chosen[0] as number] as CompanyForms;
              row(f.alts.length > 0 ? (f.alts[0] as Buffer) : (f.variants[0] as Buffer));
              monthRows++;
            }
          }
          if (monthRows === before) {
            row(null);
            monthRows++;
          }
        }
      }
      if (pos > 0) yield chunk.subarray(0, pos);
    }

    const started = performance.now();
    // Deep buffers let generation (main thread) and compression (libuv pool) overlap.
    const source = Readable.from(chunks(), { objectMode: false, highWaterMark: CHUNK });
    const sink = createWriteStream(path, { highWaterMark: 16 * CHUNK });
    const gzipOptions: ZlibOptions & TransformOptions = { level: 6, chunkSize: 1 << 16, highWaterMark: 16 * CHUNK };
    if (opts.gzip) await pipeline(source, createGzip(gzipOptions), sink);
    else await pipeline(source, sink);
    files.push(path);
    totalRows += monthRows;
    const secs = (performance.now() - started) / 1000;
    opts.onProgress?.(
      `${month}: ${monthRows.toLocaleString('en-US')} rows, ${answerSeq.toLocaleString('en-US')} answers, ${formatBytes(statSync(path).size)} in ${secs.toFixed(1)} s (${Math.round(monthRows / secs).toLocaleString('en-US')} rows/s)`,
    );
  }

  const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
  return { files, bytes, rows: totalRows };
}

const contextKey = (ctx: Context): number => ctx.industry * 64 + ctx.country;

function cumulative(weights: number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let s = 0;
  weights.forEach((w, i) => {
    s += w;
    out[i] = s;
  });
  return out;
}

function search(cum: Float64Array, x: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cum[mid] as number) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function pickForm(rng: Rng, f: CompanyForms): Buffer {
  const r = rng();
  if (r < 0.6) return f.name;
  if (r < 0.87) return f.alts.length > 0 ? (f.alts[Math.floor(rng() * f.alts.length)] as Buffer) : f.name;
  return f.variants[Math.floor(rng() * f.variants.length)] as Buffer;
}

function outOfUniverse(rng: Rng, registry: GenCompany[], industry: string, country: string, month: string): number {
  for (let attempt = 0; attempt < 6; attempt++) {
    const idx = Math.floor(rng() * registry.length);
    const c = registry[idx] as GenCompany;
    if (c.trackedSince && c.trackedSince > month) continue;
    if (c.industries.includes(industry) && c.countries.includes(country)) continue;
    return idx;
  }
  return -1;
}

function formatBytes(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : `${(n / 1024).toFixed(0)} KB`;
}
