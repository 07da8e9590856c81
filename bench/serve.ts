/**
 * npm run bench:serve [-- --write]: throughput of the Node server against `serve`
 * on loopback (autocannon), and in-process handler latency of every endpoint.
 * Needs a built dist/ (npm run build). `--write` replaces the `## Serve (bench:serve)`
 * section of BENCHMARKS.md. Environment: DIST_DIR (dist), BENCH_DURATION (s, 10),
 * BENCH_CONNECTIONS (32), BENCH_RUNS (latency passes, best kept; 3).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createHandler } from '../src/api/index.ts';
import type { Handler } from '../src/api/index.ts';
import { SORTS } from '../src/core/schemas/responses.ts';
import { viewPaths } from '../src/core/views/layout.ts';
import type { BoardView, MetaView, SearchRankingsView } from '../src/core/views/layout.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { NODE_HANDLER_OPTIONS } from '../src/adapters/node/index.ts';

const root = resolve(import.meta.dirname, '..');

interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
// autocannon ships no types.
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: { url: string; connections: number; duration: number }) => Promise<CannonResult>;
const dist = resolve(process.env.DIST_DIR ?? join(root, 'dist'));
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const write = process.argv.includes('--write');

if (!existsSync(join(dist, viewPaths.meta()))) {
  console.error(`No built site in ${dist}: run npm run build first.`);
  process.exit(1);
}
const readJson = <T>(path: string) => JSON.parse(readFileSync(join(dist, path), 'utf8')) as T;
const meta = readJson<MetaView>(viewPaths.meta());
const searchView = readJson<SearchRankingsView>(viewPaths.searchRankings());
const month = meta.month;

// Deterministic choices from the data: the biggest US industry board, the example company.
const usIndustries = meta.boards[month]?.us ?? [];
const boards = usIndustries.map((slug) => readJson<BoardView>(viewPaths.board(month, 'us', slug)));
const bigBoard = boards.reduce((a, b) => (b.rows.length > a.rows.length ? b : a));
const company = meta.examples.company;
const overall = readJson<BoardView>(viewPaths.board(month, 'us', 'all'));
const five = overall.rows.slice(0, 5).map((r) => r[0]);

const staticPath = `/${viewPaths.company(company)}`;
const paths = {
  rankings: `/api/v1/rankings?industry=${bigBoard.industrySlug}&country=us&sort=change&page=2`,
  company: `/api/v1/company/${company}?country=${meta.examples.country}`,
  compare: `/api/v1/compare?companies=${five.join(',')}`,
};

function wait(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await wait(100);
  }
  throw new Error(`${url} did not come up`);
}

function startProcess(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((ok) => {
    child.once('exit', () => ok());
    child.kill('SIGTERM');
  });
}

interface Load {
  label: string;
  url: string;
  bytes: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function load(label: string, url: string): Promise<Load> {
  const probe = await fetch(url);
  const bytes = (await probe.arrayBuffer()).byteLength;
  if (!probe.ok) throw new Error(`${url}: ${probe.status}`);
  await autocannon({ url, connections, duration: 2 }); // warm-up
  const r = await autocannon({ url, connections, duration });
  const out = { label, url: url.replace(/^http:\/\/[^/]+/, ''), bytes, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
  console.error(`${label}: ${out.rps.toFixed(0)} req/s, p50 ${out.p50} ms, p99 ${out.p99} ms, ${bytes} B, non-2xx/errors ${out.non2xx}`);
  return out;
}

async function throughput(): Promise<Load[]> {
  const nodePort = 4391;
  const servePort = 4392;
  const results: Load[] = [];
  const node = startProcess(process.execPath, ['--import', 'tsx', 'src/adapters/node/main.ts'], {
    PORT: String(nodePort),
    HOST: '127.0.0.1',
    DIST_DIR: dist,
    RATE_LIMIT_PER_MINUTE: '0',
  });
  try {
    const base = `http://127.0.0.1:${nodePort}`;
    await waitFor(`${base}/api/v1/health`);
    results.push(await load('(a) static JSON file, Node server', `${base}${staticPath}`));
    results.push(await load('(c) rankings, industry+country, sort=change, page=2', `${base}${paths.rankings}`));
    results.push(await load('(d) company profile with country', `${base}${paths.company}`));
    results.push(await load('(e) compare, 5 companies', `${base}${paths.compare}`));
  } finally {
    await stopProcess(node);
  }
  // serve reads -c relative to the folder it serves.
  const serve = startProcess(process.execPath, [join(root, 'node_modules/serve/build/main.js'), dist, '-c', relative(dist, join(root, 'serve.json')), '-l', `tcp://127.0.0.1:${servePort}`], {
    NO_UPDATE_CHECK: '1',
  });
  try {
    const base = `http://127.0.0.1:${servePort}`;
    await waitFor(`${base}${staticPath}`);
    results.splice(1, 0, await load('(b) same static JSON file, `serve`', `${base}${staticPath}`));
  } finally {
    await stopProcess(serve);
  }
  return results;
}

// ---- in-process handler latency ----

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

function workload(): Record<string, string[]> {
  const rnd = seeded(42);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T;
  const slugs = Object.keys(searchView.companies);
  const ranked = slugs.filter((s) => searchView.companies[s]?.defaultCountry !== null);
  const combosOf = (m: string) => Object.entries(meta.boards[m] ?? {}).flatMap(([code, industries]) => industries.map((i) => [code, i] as const));
  const combos = combosOf(month);
  const names = ranked.map((s) => searchView.companies[s]!.company);
  const typo = (name: string) => {
    const i = 1 + Math.floor(rnd() * (name.length - 2));
    return name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
  };
  const n = 2000;
  return {
    index: Array.from({ length: n }, (_, i) => (i % 2 ? '/api' : '/api/v1')),
    health: Array.from({ length: n }, () => '/api/v1/health'),
    search: Array.from({ length: n }, (_, i) => {
      const name = pick(names);
      const q = i % 3 === 0 ? name : i % 3 === 1 ? name.slice(0, 4 + Math.floor(rnd() * 6)) : typo(name);
      return `/api/v1/search?q=${encodeURIComponent(q)}${i % 4 === 0 ? `&country=${pick(combos)[0]}` : ''}`;
    }),
    company: Array.from({ length: n }, (_, i) => {
      const slug = pick(ranked);
      const countries = Object.keys(searchView.companies[slug]!.rankings);
      return `/api/v1/company/${slug}${i % 2 ? `?country=${pick(countries)}` : ''}`;
    }),
    rankings: Array.from({ length: n }, (_, i) => {
      const month = i % 5 === 0 ? pick(meta.months) : meta.month;
      const [code, industry] = pick(combosOf(month));
      return `/api/v1/rankings?${i % 7 === 0 ? '' : `industry=${industry}&`}country=${code}&month=${month}&sort=${pick(SORTS)}&page=${1 + Math.floor(rnd() * 2)}&limit=${pick([10, 25, 50, 100])}`;
    }),
    leaders: Array.from({ length: n }, () => {
      const [code, industry] = pick(combos);
      return `/api/v1/rankings/${industry}/${code}?limit=${pick([5, 10, 25])}`;
    }),
    compare: Array.from({ length: n }, () => {
      const set = new Set<string>();
      const size = 2 + Math.floor(rnd() * 4);
      while (set.size < size) set.add(pick(ranked));
      return `/api/v1/compare?companies=${[...set].join(',')}`;
    }),
  };
}

type Column = 'cold' | 'built' | 'cached';
const COLUMNS: Column[] = ['cold', 'built', 'cached'];
/** Samples (ms) of one endpoint in one pass, by URL. */
type Samples = Record<Column, Map<string, number[]>>;

interface Latency {
  endpoint: string;
  urls: number;
  /** p50 and p99 over every request of a pass; the best of the passes. */
  wall: Record<Column, [number, number]>;
  /** p50 and p99 over URLs of each URL's fastest request (over all passes): what a URL costs without interference. */
  intrinsic: Record<Column, [number, number]>;
}

function percentiles(samples: number[]): [number, number] {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] as number;
  return [at(0.5), at(0.99)];
}

async function time(handle: Handler, url: string, into: Map<string, number[]>): Promise<void> {
  const t0 = performance.now();
  const res = await handle(new Request(`http://localhost${url}`));
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  let list = into.get(url);
  if (!list) into.set(url, (list = []));
  list.push(ms);
}

/** `runs` passes over the same URLs: the machine is shared, and other load only ever adds time. */
async function latency(runs: number): Promise<Latency[]> {
  const passes: Record<string, Samples>[] = [];
  for (let i = 0; i < runs; i++) passes.push(await latencyPass());
  return Object.keys(passes[0]!).map((endpoint) => {
    const wall = {} as Latency['wall'];
    const intrinsic = {} as Latency['intrinsic'];
    for (const column of COLUMNS) {
      const per = passes.map((p) => percentiles([...p[endpoint]![column].values()].flat()));
      wall[column] = [Math.min(...per.map((x) => x[0])), Math.min(...per.map((x) => x[1]))];
      const fastest = new Map<string, number>();
      for (const p of passes) for (const [url, xs] of p[endpoint]![column]) fastest.set(url, Math.min(fastest.get(url) ?? Infinity, ...xs));
      intrinsic[column] = percentiles([...fastest.values()]);
    }
    const row = { endpoint, urls: passes[0]![endpoint]!.cold.size, wall, intrinsic };
    const fmt = (x: [number, number]) => x.map((v) => v.toFixed(3)).join('/');
    console.error(`${endpoint}: wall ${COLUMNS.map((c) => `${c} ${fmt(wall[c])}`).join(', ')}; intrinsic ${COLUMNS.map((c) => `${c} ${fmt(intrinsic[c])}`).join(', ')}`);
    return row;
  });
}

async function latencyPass(): Promise<Record<string, Samples>> {
  const out: Record<string, Samples> = {};
  const urls = workload();
  const store = new FsStore(dist);
  const scratch = new Map<string, number[]>();
  // Compile the code paths first (JIT), on an instance that is then dropped: "cold" below is about data, not code.
  const warm = createHandler(store, { ...NODE_HANDLER_OPTIONS, log: () => {} });
  for (const list of Object.values(urls)) for (const url of list.slice(0, 200)) await time(warm, url, scratch);
  for (const [endpoint, list] of Object.entries(urls)) {
    const samples: Samples = { cold: new Map(), built: new Map(), cached: new Map() };
    // cold: a fresh instance (meta.json already loaded, as after the first request); every view read and parsed on first use.
    const coldHandler = createHandler(store, { ...NODE_HANDLER_OPTIONS, log: () => {} });
    await time(coldHandler, '/api/v1/health', scratch);
    if (endpoint === 'search') await time(coldHandler, '/api/v1/search?q=warmup', scratch);
    for (const url of new Set(list)) await time(coldHandler, url, samples.cold);
    // built: views in memory, every body shaped, serialized and hashed anew (response cache off).
    const builtHandler = createHandler(store, { ...NODE_HANDLER_OPTIONS, log: () => {}, responseCacheBytes: 0 });
    for (const url of list) await time(builtHandler, url, scratch);
    for (let round = 0; round < 3; round++) for (const url of list) await time(builtHandler, url, samples.built);
    // cached: the same instance as cold, second and later passes.
    for (let round = 0; round < 3; round++) for (const url of list) await time(coldHandler, url, samples.cached);
    out[endpoint] = samples;
  }
  return out;
}

const loadBefore = loadavg()[0] ?? 0;
const latencies = await latency(runs);
const loads = await throughput();
const loadAfter = loadavg()[0] ?? 0;

const b = loads.find((l) => l.label.startsWith('(b)'))!.rps;
const ms = (x: number) => x.toFixed(3);
const date = new Date().toISOString().slice(0, 10);
const section = [
  '## Serve (bench:serve)',
  '',
  `Command: \`npm run bench:serve\` (BENCH_DURATION=${duration}, BENCH_CONNECTIONS=${connections}) on ${date}, over the sample-data build (${meta.totalCompanies} companies, ${meta.months.length} months).`,
  `Machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; server and autocannon on the same machine over loopback, one server process, request log on, rate limit off (RATE_LIMIT_PER_MINUTE=0), no Accept-Encoding. 1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after (other work was running on the machine: p99 figures include preemption).`,
  '',
  '| Load | Path | Body (B) | req/s | × (b) | p50 (ms) | p99 (ms) | non-2xx |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
  ...loads.map((l) => `| ${l.label} | \`${l.url}\` | ${l.bytes} | ${l.rps.toFixed(0)} | ${(l.rps / b).toFixed(2)} | ${l.p50} | ${l.p99} | ${l.non2xx} |`),
  '',
  `In-process handler latency (\`createHandler(new FsStore(dist), NODE_HANDLER_OPTIONS)\`, one request at a time, body read to the end), per endpoint over a seeded set of varied URLs, ${runs} passes.`,
  '*cold*: first request of each URL on a fresh instance (views read from disk and parsed on first use); *built*: views in memory, response cache off, so every body is shaped, serialized and hashed; *cached*: repeated URLs (response cache hit).',
  '',
  'Wall clock over every request of a pass (best pass; includes preemption by other load on the machine):',
  '',
  '| Endpoint | URLs | cold p50 | cold p99 | built p50 | built p99 | cached p50 | cached p99 |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...latencies.map((l) => `| ${l.endpoint} | ${l.urls} | ${COLUMNS.map((c) => `${ms(l.wall[c][0])} | ${ms(l.wall[c][1])}`).join(' | ')} |`),
  '',
  'Per URL, its fastest request over the passes, then p50/p99 over URLs (what each URL costs without interference; the p99 is the 99th-percentile URL):',
  '',
  '| Endpoint | URLs | cold p50 | cold p99 | built p50 | built p99 | cached p50 | cached p99 |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...latencies.map((l) => `| ${l.endpoint} | ${l.urls} | ${COLUMNS.map((c) => `${ms(l.intrinsic[c][0])} | ${ms(l.intrinsic[c][1])}`).join(' | ')} |`),
  '',
  'Times in ms. Targets: (c), (d) ≥ 1.0 × (b) req/s; handler p99 ≤ 2 ms for every endpoint but search.',
  '',
].join('\n');

console.log(`\n${section}`);
if (write) {
  const file = join(root, 'BENCHMARKS.md');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf('## Serve (bench:serve)');
  let next = start === -1 ? -1 : current.indexOf('\n## ', start + 1);
  if (next !== -1) next += 1;
  const updated =
    start === -1 ? `${current.trimEnd()}\n\n${section}` : `${current.slice(0, start)}${section}${next === -1 ? '' : `\n${current.slice(next)}`}`;
  writeFileSync(file, updated);
  console.error(`Updated ${file}`);
}
