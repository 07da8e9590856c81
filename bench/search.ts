/**
 * bench:search — quality and speed of the company search on fictional registries
 * of 1,000 and 20,000 companies (half `generateRegistry`, half employer names with
 * descriptors, industry words and abbreviations from `test/lib/search-names.ts`):
 * top-1 per query kind beside query p99 and the index size, and plain Fuse.js over
 * all docs for comparison. Run: `npx tsx bench/search.ts` (`npm run bench:search`).
 * Prints Markdown.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Fuse from 'fuse.js';
import { writeBenchSection } from '../scripts/lib/perf-doc.ts';
import { generateRegistry } from '../scripts/lib/registry-gen.ts';
import { buildSearchFiles, buildSearchIndex, loadSearchIndex, searchCompanies, type SearchIndex } from '../src/core/search/index.ts';
import type { SearchDoc } from '../src/core/views/layout.ts';
import { generateNamedRegistry } from '../test/lib/search-names.ts';
import { generateQueries, QUERY_KINDS, type LabelledQuery, type QueryKind, type RegistryCompany } from '../test/lib/search-queries.ts';

const SIZES = [
  { companies: 1000, perKind: undefined, fusePerKind: 15 },
  { companies: 20000, perKind: 400, fusePerKind: 3 },
];
const SEED = 1;
const QUERY_SEED = 7;

interface Run {
  /** Wall time per query, sorted. */
  ms: number[];
  /** CPU time of the process per query, sorted: what the query costs, whoever else runs on the machine. */
  cpu: number[];
  top1: Map<QueryKind, [number, number]>;
  top5: Map<QueryKind, [number, number]>;
  failures: { q: LabelledQuery; got: string[] }[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function median(xs: number[]): number {
  return percentile([...xs].sort((a, b) => a - b), 50);
}

function time(ms: number): string {
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(1)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}

function pct(hit: number, total: number): string {
  return total === 0 ? '–' : `${((100 * hit) / total).toFixed(1)}%`;
}

/**
 * Runs every query `passes` times (pass order, not query by query) and keeps each
 * query's median wall and CPU time: one descheduling does not make a p99.
 */
function evaluate(queries: LabelledQuery[], search: (q: string) => string[], passes = 1): Run {
  const run: Run = { ms: [], cpu: [], top1: new Map(), top5: new Map(), failures: [] };
  const times = queries.map(() => [] as number[]);
  const cpus = queries.map(() => [] as number[]);
  const timed = (i: number, q: string): string[] => {
    const c = process.cpuUsage();
    const t = performance.now();
    const got = search(q);
    times[i]!.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpus[i]!.push((used.user + used.system) / 1000);
    return got;
  };
  for (let p = 1; p < passes; p++) queries.forEach((q, i) => timed(i, q.query));
  for (const [i, q] of queries.entries()) {
    const got = timed(i, q.query);
    run.ms.push(median(times[i]!));
    run.cpu.push(median(cpus[i]!));
    const t1 = run.top1.get(q.kind) ?? [0, 0];
    const t5 = run.top5.get(q.kind) ?? [0, 0];
    const rank = got.indexOf(q.expected);
    run.top1.set(q.kind, [t1[0] + (rank === 0 ? 1 : 0), t1[1] + 1]);
    run.top5.set(q.kind, [t5[0] + (rank >= 0 && rank < 5 ? 1 : 0), t5[1] + 1]);
    if (rank !== 0) run.failures.push({ q, got: got.slice(0, 3) });
  }
  run.ms.sort((a, b) => a - b);
  run.cpu.sort((a, b) => a - b);
  return run;
}

function total(m: Map<QueryKind, [number, number]>): [number, number] {
  let hit = 0;
  let all = 0;
  for (const [h, a] of m.values()) {
    hit += h;
    all += a;
  }
  return [hit, all];
}

/**
 * `companies` companies: half `generateRegistry`, half generated employer names; the
 * registry (for the queries) and the docs the index is built from (subsidiaries as aliases).
 */
function registryOf(companies: number): { registry: RegistryCompany[]; docs: SearchDoc[] } {
  const named = generateNamedRegistry({ companies: companies / 2, seed: SEED });
  const taken = new Set(named.map((c) => c.slug));
  const generated = generateRegistry({ companies: companies - named.length, seed: SEED }).filter((c) => !taken.has(c.slug));
  const registry: RegistryCompany[] = [...named, ...generated];
  return { registry, docs: registry.map((c) => ({ slug: c.slug, name: c.name, website: c.website, aliases: [...c.aliases, ...(c.subsidiaries ?? [])] })) };
}

function stratified(queries: LabelledQuery[], perKind: number): LabelledQuery[] {
  const out: LabelledQuery[] = [];
  for (const kind of QUERY_KINDS) out.push(...queries.filter((q) => q.kind === kind).slice(0, perKind));
  return out;
}

/**
 * Cold load as a fresh instance sees it: a new process, parse + load + first query, in
 * CPU time of the process (what the Workers plan counts), median of 3 processes.
 * `primed`: the search code run over a tiny index first, as a Worker does at startup
 * (`primeSearch`, outside the request's CPU).
 */
function coldLoad(file: string, engine = '../src/core/search/index.ts', binary = false, primed = false): { parse: number; load: number; firstQuery: number; heap: number } {
  const runs = [0, 1, 2].map(() => coldLoadOnce(file, engine, binary, primed));
  const mid = (f: (r: (typeof runs)[number]) => number) => median(runs.map(f));
  return { parse: mid((r) => r.parse), load: mid((r) => r.load), firstQuery: mid((r) => r.firstQuery), heap: mid((r) => r.heap) };
}

/** `binary`: the file is search-index.bin, read in place (no parse: the parse column is 0). */
function coldLoadOnce(file: string, engine: string, binary: boolean, primed: boolean): { parse: number; load: number; firstQuery: number; heap: number } {
  const script = `
    import { readFileSync } from 'node:fs';
    const { loadSearchIndex, decodeSearchIndex, findCompanies } = await import(${JSON.stringify(new URL(engine, import.meta.url).href)});
    ${primed ? `(await import(${JSON.stringify(new URL('../src/core/search/prime.ts', import.meta.url).href)})).primeSearch();` : ''}
    const text = readFileSync(${JSON.stringify(file)}, ${binary ? 'null' : "'utf8'"});
    globalThis.gc();
    const heap0 = process.memoryUsage().heapUsed;
    const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
    let t = cpu();
    const data = ${binary ? 'text' : 'JSON.parse(text)'};
    const parse = cpu() - t;
    t = cpu();
    const index = ${binary ? 'decodeSearchIndex(data)' : 'loadSearchIndex(data)'};
    const load = cpu() - t;
    t = cpu();
    findCompanies(index, 'kestrel aerospace');
    const firstQuery = cpu() - t;
    globalThis.gc();
    const heap = process.memoryUsage().heapUsed - heap0;
    console.log(JSON.stringify({ parse, load, firstQuery, heap, keep: index.slugs.length }));
  `;
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1) as string);
}

const FUSE_OPTIONS = { keys: ['name', 'aliases', 'slug', 'website'], includeScore: true };

function fuseSearch(docs: SearchDoc[]): { build: number; search: (q: string) => string[] } {
  const t = performance.now();
  const fuse = new Fuse(docs, FUSE_OPTIONS);
  const build = performance.now() - t;
  return { build, search: (q) => fuse.search(q, { limit: 5 }).map((r) => r.item.slug) };
}

const machine = `${cpus().length} vCPU (nproc), ${(readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? cpus()[0]?.model ?? '?').trim()}, Node ${process.version}`;
const lines: string[] = [];
const out = (s = ''): void => {
  lines.push(s);
  console.log(s);
};
const started = performance.now();
const tmp = mkdtempSync(join(tmpdir(), 'bench-search-'));

out(`Command: \`npm run bench:search\` (\`npx tsx bench/search.ts\`)  `);
out(`Machine: ${machine}, load average at start ${loadavg().map((l) => l.toFixed(1)).join(' / ')}  `);
out(`Registries: half \`generateRegistry({ companies: companies / 2, seed: ${SEED} })\` (aliases + subsidiaries as aliases), half \`generateNamedRegistry({ companies: companies / 2, seed: ${SEED} })\`; queries: \`generateQueries(registry, { seed: ${QUERY_SEED}, perKind })\`.`);
out();

const summary: string[] = [];
const kindRows = new Map<QueryKind, string[]>();
const fuseRows: string[] = [];
/** The rows docs/performance.md keeps (its "search" section). */
const docRows: string[] = [];
// BENCH_SEARCH_ONLY=cold: only the fresh-instance table (a minute instead of several)
const onlyCold = process.env.BENCH_SEARCH_ONLY === 'cold';
for (const size of onlyCold ? [] : SIZES) {
  const { registry, docs } = registryOf(size.companies);

  const builds: number[] = [];
  let json = '';
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    json = JSON.stringify(buildSearchIndex(docs));
    builds.push(performance.now() - t);
  }
  const bytes = Buffer.byteLength(json);
  const binaryBytes = buildSearchFiles(docs).binary.byteLength;
  const gzip = gzipSync(json, { level: 9 }).length;
  const file = join(tmp, `index-${size.companies}.json`);
  writeFileSync(file, json);
  const cold = coldLoad(file);
  const loads: number[] = [];
  let index: SearchIndex | undefined;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    index = loadSearchIndex(JSON.parse(json));
    loads.push(performance.now() - t);
  }
  const idx = index as SearchIndex;

  let t = performance.now();
  const queries = generateQueries(registry, { seed: QUERY_SEED, perKind: size.perKind });
  const genMs = performance.now() - t;
  const search = (q: string): string[] => searchCompanies(idx, q, { limit: 5 }).map((h) => h.slug);
  evaluate(queries, search); // warm-up
  const run = evaluate(queries, search, 3);
  // about half the companies accepted, as with the API's country filter
  const filtered = evaluate(queries, (q) => searchCompanies(idx, q, { limit: 5, filter: (s) => s.charCodeAt(s.length - 1) % 2 === 0 }).map((h) => h.slug), 3);
  const [h1, all] = total(run.top1);
  const [h5] = total(run.top5);

  console.error(`[${size.companies}] ${queries.length} queries generated in ${time(genMs)}; failures:`);
  for (const kind of QUERY_KINDS) {
    const f = run.failures.filter((x) => x.q.kind === kind);
    if (f.length === 0) continue;
    console.error(`  ${kind}: ${f.length}`);
    for (const x of f.slice(0, 4)) console.error(`    ${JSON.stringify(x.q.query)} -> want ${x.q.expected}, got ${x.got.join(', ') || '(nothing)'}`);
  }

  const fuse = fuseSearch(docs);
  const sample = stratified(queries, size.fusePerKind);
  const fuseRun = evaluate(sample, fuse.search);
  const oursOnSample = evaluate(sample, search, 3);
  // Fuse as the scorer over this index's short list (its top 20)
  const bySlug = new Map(docs.map((d) => [d.slug, d]));
  const shortList = evaluate(
    sample,
    (q) => {
      const list = searchCompanies(idx, q, { limit: 20 }).map((h) => bySlug.get(h.slug) as SearchDoc);
      return new Fuse(list, FUSE_OPTIONS).search(q, { limit: 5 }).map((r) => r.item.slug);
    },
    3,
  );

  summary.push(
    `| ${size.companies.toLocaleString('en')} | ${time(median(builds))} | ${bytes.toLocaleString('en')} | ${gzip.toLocaleString('en')} | ${binaryBytes.toLocaleString('en')} | ${time(cold.parse + cold.load)} (${time(cold.parse)} + ${time(cold.load)}) | ${time(median(loads))} | ${(cold.heap / 2 ** 20).toFixed(1)} MB | ${time(cold.firstQuery)} | ${time(percentile(run.ms, 50))} / ${time(percentile(run.ms, 95))} / ${time(percentile(run.ms, 99))} | ${time(percentile(run.cpu, 50))} / ${time(percentile(run.cpu, 95))} / ${time(percentile(run.cpu, 99))} | ${time(percentile(filtered.ms, 99))} | ${all} | ${pct(h1, all)} | ${pct(h5, all)} |`,
  );
  const worst = QUERY_KINDS.map((kind) => {
    const [k1, kAll] = run.top1.get(kind) ?? [0, 0];
    return { kind, share: kAll ? k1 / kAll : 1, text: pct(k1, kAll) };
  }).sort((a, b) => a.share - b.share)[0]!;
  docRows.push(`| ${size.companies.toLocaleString('en')} | ${Math.round(gzip / 1000).toLocaleString('en')} KB | ${binaryBytes.toLocaleString('en')} | ${time(percentile(run.cpu, 50))} / ${time(percentile(run.cpu, 99))} | ${pct(h1, all)} | ${worst.text} (${worst.kind}) |`);
  for (const kind of QUERY_KINDS) {
    const [k1, kAll] = run.top1.get(kind) ?? [0, 0];
    const [k5] = run.top5.get(kind) ?? [0, 0];
    const row = kindRows.get(kind) ?? [];
    row.push(`${kAll}`, pct(k1, kAll), pct(k5, kAll));
    kindRows.set(kind, row);
  }
  const row = (engine: string, setup: string, r: Run): string => {
    const [r1, rAll] = total(r.top1);
    const [r5] = total(r.top5);
    return `| ${size.companies.toLocaleString('en')} | ${sample.length} | ${engine} | ${setup} | ${time(percentile(r.ms, 50))} / ${time(percentile(r.ms, 95))} / ${time(percentile(r.ms, 99))} | ${time(percentile(r.cpu, 50))} / ${time(percentile(r.cpu, 95))} / ${time(percentile(r.cpu, 99))} | ${pct(r1, rAll)} | ${pct(r5, rAll)} |`;
  };
  fuseRows.push(
    row('plain Fuse.js over all docs', `${time(fuse.build)} (new Fuse)`, fuseRun),
    row('this index', `${time(median(loads))} (load)`, oursOnSample),
    row('this index, then Fuse.js over its top 20', `${time(median(loads))} (load)`, shortList),
  );
}
// the reference scale of the Worker: 10,000 companies, both files of the index
const coldRows: string[] = [];
{
  const { docs } = registryOf(10000);
  for (const [engine, path, build, binary, primed] of [
    ['this index, binary file (what the API reads), primed as a Worker is at startup', '../src/core/search/index.ts', () => buildSearchFiles(docs).binary, true, true],
    ['this index, binary file, unprimed', '../src/core/search/index.ts', () => buildSearchFiles(docs).binary, true, false],
    ['this index (v2 file, what the pages read)', '../src/core/search/index.ts', () => JSON.stringify(buildSearchIndex(docs)), false, false],
  ] as const) {
    const content = build();
    const file = join(tmp, `cold-${coldRows.length}.${binary ? 'bin' : 'json'}`);
    writeFileSync(file, content);
    const c = coldLoad(file, path, binary, primed);
    const size = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
    coldRows.push(`| ${engine} | ${size.toLocaleString('en')} | ${binary ? '–' : time(c.parse)} | ${time(c.load)} | ${time(c.firstQuery)} | ${time(c.parse + c.load + c.firstQuery)} |`);
  }
}
rmSync(tmp, { recursive: true, force: true });
/** The total of cold row `i` (its last cell). */
const coldTotal = (i: number): string => coldRows[i]?.split('|').at(-2)?.trim() ?? 'n/a';

if (!onlyCold) {
out('| Companies | Build (JSON) | Index bytes (JSON) | gzip | Binary bytes | Cold load, new process, CPU (parse + load) | Warm load | Heap | First query (CPU) | Query p50 / p95 / p99 (wall) | Query p50 / p95 / p99 (CPU) | p99 with filter (wall) | Queries | Top-1 | Top-5 |');
out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of summary) out(row);
out();
out(`| Query kind | ${SIZES.map((s) => `${s.companies / 1000}k n | ${s.companies / 1000}k top-1 | ${s.companies / 1000}k top-5`).join(' | ')} |`);
out(`|---|${SIZES.map(() => '---:|---:|---:').join('|')}|`);
for (const kind of QUERY_KINDS) out(`| ${kind} | ${(kindRows.get(kind) ?? []).join(' | ')} |`);
out();
}
out('First search on a fresh instance at 10,000 companies (new process; CPU time; median of 3 processes):');
out();
out('| Engine | File bytes | JSON.parse | Load | First query | Total |');
out('|---|---:|---:|---:|---:|---:|');
for (const row of coldRows) out(row);
out();
if (!onlyCold) {
out('Fuse.js 7.5.0 (keys name, aliases, slug, website; default options) beside this index, on the same stratified sample of the queries above:');
out();
out('| Companies | Sample | Engine | Setup | Query p50 / p95 / p99 (wall) | (CPU) | Top-1 | Top-5 |');
out('|---:|---:|---|---:|---:|---:|---:|---:|');
for (const row of fuseRows) out(row);
out();
}
out(`Query times: each query's median of 3 passes (wall clock, and CPU time of the process, which a busy machine inflates less), then percentiles over the queries; plain Fuse.js over all docs: one pass. Load average at end ${loadavg().map((l) => l.toFixed(1)).join(' / ')}; bench wall time ${((performance.now() - started) / 1000).toFixed(0)} s.`);

if (!onlyCold && !process.argv.includes('--no-write')) {
  writeBenchSection(
    'search',
    [
      '| Companies | Index gzip | Binary bytes | Query p50 / p99 (CPU) | Top-1 | Lowest kind |',
      '|---:|---:|---:|---:|---:|---|',
      ...docRows,
      '',
      `Targets: top-1 ≥ 97% on every query kind, p99 ≤ 1 ms at 20,000 companies, the pages' index ≤ 1 MB gzip. First search on a fresh Worker instance at 10,000 companies, from the binary index: ${coldTotal(0)} of CPU (${coldTotal(1)} without the Worker's priming).`,
    ].join('\n'),
  );
}
