/**
 * npm run bench:serve [-- --soak] [-- --no-write]: throughput of the Node server for every
 * function endpoint beside Debian's nginx serving a static file of the same size (the
 * same bytes the Node server sends), in the same run, with the request log on, the
 * rate limit on and `Accept-Encoding: gzip, br`; `serve` on one static file; and the
 * in-process handler latency of every endpoint. `--soak`: the Node server's RSS over a
 * 60 s load of 50 connections over 5,000 distinct URLs. Load by wrk (/usr/bin/wrk),
 * else autocannon. Needs a built dist/ (npm run build). Prints its report and rewrites the
 * "serve" section of docs/performance.md (with --soak, the "serve-soak" one);
 * `--no-write` only prints.
 * Environment: DIST_DIR (dist), BENCH_DURATION (s per load, 8), BENCH_CONNECTIONS (32),
 * BENCH_RUNS (latency passes, best kept; 3), BENCH_PORT (first of 3 ports, 4391),
 * SOAK_SECONDS (60), SOAK_CONNECTIONS (50), SOAK_URLS (5000), BENCH_SERVER_LOG (the Node
 * server's stdout, its request log; default a temporary file), BENCH_NODE_FLAGS (node flags
 * for the server beside those of the `serve` script, e.g. --trace-gc).
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { createHandler } from '../src/api/index.ts';
import type { Handler } from '../src/api/index.ts';
import { SORTS } from '../src/core/schemas/responses.ts';
import { viewPaths } from '../src/core/views/layout.ts';
import type { BoardView, MetaView, SearchRankingsView } from '../src/core/views/layout.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import { NODE_HANDLER_OPTIONS } from '../src/adapters/node/index.ts';
import { writeBenchSection } from '../scripts/lib/perf-doc.ts';
import { serveCommand } from '../test/lib/serve-command.ts';

const root = resolve(import.meta.dirname, '..');
/** The Node server's command as the `serve` script writes it, read once; BENCH_NODE_FLAGS go before its arguments. */
const [NODE_PROGRAM, NODE_ARGS] = serveCommand(root);
const EXTRA_NODE_FLAGS = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];

interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
// autocannon ships no types.
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<CannonResult>;
const dist = resolve(process.env.DIST_DIR ?? join(root, 'dist'));
const duration = Number(process.env.BENCH_DURATION ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const firstPort = Number(process.env.BENCH_PORT ?? 4391);
const write = !process.argv.includes('--no-write');
const soakMode = process.argv.includes('--soak');
const WRK = '/usr/bin/wrk';
const NGINX = '/usr/sbin/nginx';
const hasWrk = existsSync(WRK);
const hasNginx = existsSync(NGINX);
/** As a browser asks. */
const ACCEPT_ENCODING = 'gzip, br';
/** The rate limiter counts every request but never refuses one (a load from one address would be refused after 60). */
const RATE_LIMIT = 1_000_000_000;
/** The target: every function endpoint at least this share of nginx's req/s. */
const TARGET = 0.35;

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
/** The search rankings of the three months before the current one (who has data in each, and where). */
const pastMonths = meta.months.slice(-4, -1).map((m) => readJson<SearchRankingsView>(viewPaths.monthSearchRankings(m)));
// A past month's profile is shaped by the function from the month's stored records: the month before the current one, a company with data in it.
const pastMonth = pastMonths[pastMonths.length - 1]?.month;
const pastRanked = Object.keys(pastMonths[pastMonths.length - 1]?.companies ?? {});
const pastCompany = pastRanked.includes(company) ? company : pastRanked[0];

const staticPath = '/llms.txt';
/** The function endpoints, one representative URL each. */
const endpoints: [string, string][] = [
  ['company', `/api/v1/company/${company}?country=${meta.examples.country}`],
  ...(pastCompany ? [['company, a past month', `/api/v1/company/${pastCompany}?month=${pastMonth}`] as [string, string]] : []),
  ['rankings, sort=change', `/api/v1/rankings?industry=${bigBoard.industrySlug}&country=us&sort=change&page=2`],
  ['search', `/api/v1/search?q=${encodeURIComponent(meta.examples.search)}`],
  ['leaders', `/api/v1/rankings/${bigBoard.industrySlug}/us?limit=10`],
  ['compare, 5 companies', `/api/v1/compare?companies=${five.join(',')}`],
  ['index', '/api/v1'],
];

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

function startProcess(command: string, args: string[], env: Record<string, string>, stdout: 'ignore' | number = 'ignore'): ChildProcess {
  return spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'inherit'] });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((ok) => {
    child.once('exit', () => ok());
    child.kill('SIGTERM');
  });
}

/** The Node server as `npm run serve` runs it (its command and Node flags), request log to a file, rate limit on. */
function startNode(port: number, work: string): ChildProcess {
  return startProcess(
    NODE_PROGRAM,
    [...EXTRA_NODE_FLAGS, ...NODE_ARGS],
    { PORT: String(port), HOST: '127.0.0.1', DIST_DIR: dist, RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) },
    openSync(process.env.BENCH_SERVER_LOG ?? join(work, 'node-access.log'), 'a'),
  );
}

/** Debian's nginx, one worker (as one Node process), Debian's defaults otherwise, access log buffered as the Node server's. */
function startNginx(port: number, work: string, www: string): ChildProcess {
  const conf = join(work, 'nginx.conf');
  writeFileSync(
    conf,
    [
      'worker_processes 1;',
      `pid ${join(work, 'nginx.pid')};`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log ${join(work, 'nginx-access.log')} combined buffer=64k;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(work, t)};`),
      '  sendfile on;',
      '  tcp_nopush on;',
      '  keepalive_requests 1000000;',
      '  types { application/json json; }',
      `  server { listen 127.0.0.1:${port}; root ${www}; }`,
      '}',
    ].join('\n'),
  );
  return startProcess(NGINX, ['-p', work, '-c', conf, '-e', join(work, 'nginx-error.log'), '-g', 'daemon off;'], {});
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Requests answered per CPU-second of the server's processes (user + system), when known. */
  perCpuSecond?: number;
}

/** CPU seconds (user + system) used so far by a process and its children that are alive (nginx's worker). */
function cpuSeconds(pid: number): number {
  const ticks = (p: number) => {
    const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  let total = ticks(pid);
  const children = existsSync(`/proc/${pid}/task/${pid}/children`) ? readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() : '';
  for (const child of children ? children.split(' ') : []) total += ticks(Number(child));
  return total / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** The median of each figure over rounds. */
function medianLoad(loads: Load[]): Load {
  const of = (f: (l: Load) => number) => median(loads.map(f));
  const cpu = loads.every((l) => l.perCpuSecond !== undefined) ? of((l) => l.perCpuSecond!) : undefined;
  return { rps: of((l) => l.rps), p50: of((l) => l.p50), p99: of((l) => l.p99), non2xx: loads.reduce((a, l) => a + l.non2xx, 0), perCpuSecond: cpu };
}

/** wrk's latency lines (`50%  1.23ms`) in ms. */
function wrkMs(text: string, label: string): number {
  const m = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(text);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

function wrk(url: string, seconds: number, conns: number, script?: string): Load {
  const args = ['-t1', `-c${conns}`, `-d${seconds}s`, '--latency', '-H', `Accept-Encoding: ${ACCEPT_ENCODING}`, ...(script ? ['-s', script] : []), url];
  const out = execFileSync(WRK, args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*?(\d+)/.exec(out)?.[1] ?? 0);
  return { rps, p50: wrkMs(out, '50%'), p99: wrkMs(out, '99%'), non2xx };
}

/** One load (after a 1 s warm-up) against a server process, with the requests it answered per CPU-second. */
async function loadOf(url: string, pid?: number): Promise<Load> {
  let load: Load;
  let cpu = 0;
  if (hasWrk) {
    wrk(url, 1, connections);
    cpu = pid ? cpuSeconds(pid) : 0;
    load = wrk(url, duration, connections);
  } else {
    const headers = { 'accept-encoding': ACCEPT_ENCODING };
    await autocannon({ url, connections, duration: 1, headers });
    cpu = pid ? cpuSeconds(pid) : 0;
    const r = await autocannon({ url, connections, duration, headers });
    load = { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
  }
  if (pid) load.perCpuSecond = (load.rps * duration) / Math.max(1e-9, cpuSeconds(pid) - cpu);
  return load;
}

interface Row {
  label: string;
  path: string;
  /** Bytes of the body on the wire (br when the server compresses). */
  bytes: number;
  node: Load;
  nginx: Load | null;
}

/** The body exactly as the Node server sends it to a browser. */
async function wireBody(url: string): Promise<{ bytes: Buffer; encoding: string | null }> {
  const { request } = await import('node:http');
  return new Promise((ok, fail) => {
    request(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? ok({ bytes: Buffer.concat(chunks), encoding: (res.headers['content-encoding'] as string) ?? null }) : fail(new Error(`${url}: ${res.statusCode}`))));
    })
      .on('error', fail)
      .end();
  });
}

const fmtLoad = (l: Load) => `${l.rps.toFixed(0)} req/s, p50 ${l.p50.toFixed(2)} ms, p99 ${l.p99.toFixed(2)} ms, ${l.perCpuSecond?.toFixed(0) ?? '?'} req per CPU-second, non-2xx/errors ${l.non2xx}`;

async function throughput(): Promise<{ rows: Row[]; serveRow: Load & { bytes: number }; nodeStatic: Load }> {
  const nodePort = firstPort;
  const nginxPort = firstPort + 1;
  const servePort = firstPort + 2;
  const work = mkdtempSync(join(tmpdir(), 'evi-bench-serve-'));
  const www = join(work, 'www');
  const rows: Row[] = [];
  const node = startNode(nodePort, work);
  let nginx: ChildProcess | null = null;
  try {
    const base = `http://127.0.0.1:${nodePort}`;
    await waitFor(`${base}/api/v1/health`);
    // nginx serves, for each endpoint, a file holding the very bytes the Node server sends.
    const bodies: Buffer[] = [];
    for (const [, path] of endpoints) bodies.push((await wireBody(`${base}${path}`)).bytes);
    // nginx's worker drops to an unprivileged user when started as root: it must reach the files.
    chmodSync(work, 0o755);
    mkdirSync(www, { mode: 0o755 });
    bodies.forEach((b, i) => writeFileSync(join(www, `e${i}.json`), b, { mode: 0o644 }));
    if (hasNginx) {
      nginx = startNginx(nginxPort, work, www);
      await waitFor(`http://127.0.0.1:${nginxPort}/e0.json`).catch((error: unknown) => {
        const log = join(work, 'nginx-error.log');
        throw new Error(`${(error as Error).message}\n${existsSync(log) ? readFileSync(log, 'utf8') : ''}`);
      });
    } else console.error(`${NGINX} is absent (apt-get install nginx-light): the nginx reference is skipped.`);
    for (const [i, [label, path]] of endpoints.entries()) {
      // Rounds alternate Node and nginx, so drift in the machine's other load hits both alike; medians are kept.
      const nodeLoads: Load[] = [];
      const nginxLoads: Load[] = [];
      for (let round = 0; round < rounds; round++) {
        nodeLoads.push(await loadOf(`${base}${path}`, node.pid));
        if (nginx) nginxLoads.push(await loadOf(`http://127.0.0.1:${nginxPort}/e${i}.json`, nginx.pid));
      }
      const nodeLoad = medianLoad(nodeLoads);
      const nginxLoad = nginx ? medianLoad(nginxLoads) : null;
      rows.push({ label, path, bytes: bodies[i]!.byteLength, node: nodeLoad, nginx: nginxLoad });
      console.error(`${label}: Node ${fmtLoad(nodeLoad)}${nginxLoad ? `; nginx ${fmtLoad(nginxLoad)}; ratio ${(nodeLoad.rps / nginxLoad.rps).toFixed(2)}` : ''}`);
    }
    const nodeStatic = await loadOf(`${base}${staticPath}`, node.pid);
    console.error(`static file, Node server: ${fmtLoad(nodeStatic)}`);
    await stopProcess(node);
    if (nginx) await stopProcess(nginx);
    // serve reads -c relative to the folder it serves.
    const serve = startProcess(process.execPath, [join(root, 'node_modules/serve/build/main.js'), dist, '-c', 'serve.json', '-l', `tcp://127.0.0.1:${servePort}`], {
      NO_UPDATE_CHECK: '1',
    });
    try {
      await waitFor(`http://127.0.0.1:${servePort}${staticPath}`);
      const serveLoad = await loadOf(`http://127.0.0.1:${servePort}${staticPath}`, serve.pid);
      console.error(`static file, serve: ${fmtLoad(serveLoad)}`);
      return { rows, serveRow: { ...serveLoad, bytes: (await wireBody(`http://127.0.0.1:${servePort}${staticPath}`)).bytes.byteLength }, nodeStatic };
    } finally {
      await stopProcess(serve);
    }
  } finally {
    await stopProcess(node);
    if (nginx) await stopProcess(nginx);
    rmSync(work, { recursive: true, force: true });
  }
}

// ---- soak: memory under a long load over many distinct URLs ----

function rssKiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? NaN);
}

/** The Node process of the server (npm/tsx may sit in between): the child itself here, spawned with node directly. */
async function soak(): Promise<{ line: string; mix: string }> {
  const seconds = Number(process.env.SOAK_SECONDS ?? 60);
  const conns = Number(process.env.SOAK_CONNECTIONS ?? 50);
  const count = Number(process.env.SOAK_URLS ?? 5000);
  if (!hasWrk) throw new Error(`${WRK} is needed for --soak (apt-get install wrk)`);
  const kinds = Object.entries(workload());
  const all = [...new Set(kinds.flatMap(([, list]) => list))];
  const urls = all.slice(0, count);
  // The first `count` distinct URLs, in the workload's order: which endpoints they reach.
  const taken = new Set(urls);
  const mix = kinds
    .map(([kind, list]) => [kind, new Set(list.filter((u) => taken.has(u))).size] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  const work = mkdtempSync(join(tmpdir(), 'evi-bench-soak-'));
  const list = join(work, 'urls.txt');
  writeFileSync(list, `${urls.join('\n')}\n`);
  const script = join(work, 'urls.lua');
  // Each request the next URL of the list, round robin.
  writeFileSync(
    script,
    [
      'local paths = {}',
      `for line in io.lines("${list}") do paths[#paths + 1] = line end`,
      'local i = 0',
      'request = function()',
      '  i = i % #paths + 1',
      `  return wrk.format("GET", paths[i], { ["Accept-Encoding"] = "${ACCEPT_ENCODING}", ["Host"] = "127.0.0.1" })`,
      'end',
    ].join('\n'),
  );
  const port = firstPort;
  const node = startNode(port, work);
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/v1/health`);
    const started = rssKiB(node.pid!);
    // Warm-up: every URL answered once (16 at a time), so the caches hold what they will hold.
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < urls.length) {
          const res = await fetch(`${base}${urls[next++]}`, { headers: { 'accept-encoding': ACCEPT_ENCODING } });
          await res.arrayBuffer();
        }
      }),
    );
    const samples: number[] = [];
    const timer = setInterval(() => samples.push(rssKiB(node.pid!)), 1000);
    const load = await new Promise<Load>((ok, fail) => {
      const child = spawn(WRK, ['-t1', `-c${conns}`, `-d${seconds}s`, '--latency', '-s', script, base], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.on('error', fail);
      child.on('exit', () => {
        const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
        ok({ rps, p50: wrkMs(out, '50%'), p99: wrkMs(out, '99%'), non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) });
      });
    });
    clearInterval(timer);
    const mib = (k: number) => (k / 1024).toFixed(1);
    const first = samples[0]!;
    const min = Math.min(...samples);
    const max = Math.max(...samples);
    const last = samples.at(-1)!;
    const spread = Math.max(Math.abs(max - first), Math.abs(first - min)) / first;
    const line = `RSS over ${seconds} s, ${conns} connections, ${urls.length} distinct URLs (${load.rps.toFixed(0)} req/s, p50 ${load.p50.toFixed(2)} ms, p99 ${load.p99.toFixed(2)} ms, non-2xx ${load.non2xx}): at start ${mib(started)} MiB, after the warm-up pass ${mib(first)} MiB, min ${mib(min)}, max ${mib(max)}, end ${mib(last)} MiB; largest deviation from the first sample ${(spread * 100).toFixed(1)}% (target ±10%); every 10 s: ${samples.filter((_, i) => i % 10 === 0).map(mib).join(', ')} MiB.`;
    console.error(line);
    return { line, mix };
  } finally {
    await stopProcess(node);
    rmSync(work, { recursive: true, force: true });
  }
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
      // one in five in one of the three months before the current one (shaped from its records), of a company with data then
      const past = i % 5 === 4 && pastMonths.length ? pick(pastMonths) : null;
      const slug = past ? pick(Object.keys(past.companies)) : pick(ranked);
      const countries = Object.keys((past ?? searchView).companies[slug]!.rankings);
      return `/api/v1/company/${slug}${i % 2 ? `?country=${pick(countries)}` : ''}${past ? `${i % 2 ? '&' : '?'}month=${past.month}` : ''}`;
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
    const builtHandler = createHandler(store, { ...NODE_HANDLER_OPTIONS, log: () => {}, responseCacheBytes: 0, answerCacheBytes: 0 });
    for (const url of list) await time(builtHandler, url, scratch);
    for (let round = 0; round < 3; round++) for (const url of list) await time(builtHandler, url, samples.built);
    // cached: the same instance as cold, second and later passes.
    for (let round = 0; round < 3; round++) for (const url of list) await time(coldHandler, url, samples.cached);
    out[endpoint] = samples;
  }
  return out;
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const builtFrom = `Over a build of ${meta.totalCompanies.toLocaleString('en-US')} companies and ${meta.months.length} months`;

if (soakMode) {
  const loadBefore = loadavg()[0] ?? 0;
  const { line, mix } = await soak();
  const loadAfter = loadavg()[0] ?? 0;
  const section = [
    '### Memory under load (bench:serve --soak)',
    '',
    `Command: \`npm run bench:serve -- --soak\` on ${date} UTC, over the build in DIST_DIR (${meta.totalCompanies} companies, ${meta.months.length} months), ${machine}; wrk with a Lua script sending the URLs round robin (the first distinct URLs of the in-process latency table's varied set: ${mix}), \`Accept-Encoding: ${ACCEPT_ENCODING}\`, request log on (to a file), rate limit on. A warm-up pass requests every URL once first (the caches fill to what they hold), then RSS is sampled every second from /proc. 1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after.`,
    '',
    line,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  if (write) writeBenchSection('serve-soak', `${builtFrom}, log and rate limit on, \`Accept-Encoding: ${ACCEPT_ENCODING}\`: ${line}`);
  process.exit(0);
}

const loadBefore = loadavg()[0] ?? 0;
const latencies = await latency(runs);
const { rows, serveRow, nodeStatic } = await throughput();
const loadAfter = loadavg()[0] ?? 0;

const ms = (x: number) => x.toFixed(3);
const ms2 = (x: number) => x.toFixed(2);
const cpuCell = (l: Load) => (l.perCpuSecond === undefined ? 'n/a' : l.perCpuSecond.toFixed(0));
const ratioCell = (r: Row) => (r.nginx ? `${(r.node.rps / r.nginx.rps).toFixed(2)} ${r.node.rps / r.nginx.rps >= TARGET ? '✓' : '✗'}` : 'n/a');
const section = [
  '## Serve (bench:serve)',
  '',
  `Command: \`npm run bench:serve\` (BENCH_DURATION=${duration}, BENCH_CONNECTIONS=${connections}) on ${date} UTC, over the build in DIST_DIR (${meta.totalCompanies} companies, ${meta.months.length} months).`,
  `Machine: ${machine}; servers and load generator (${hasWrk ? 'wrk -t1' : 'autocannon'}) on the same machine over loopback. The Node server as \`npm run serve\` runs it (\`node ${NODE_ARGS.join(' ')}\`${EXTRA_NODE_FLAGS.length ? `, with BENCH_NODE_FLAGS=\`${EXTRA_NODE_FLAGS.join(' ')}\`` : ''}, one process), request log on (to a file), rate limit on (RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}: every request counted, none refused), every request with \`Accept-Encoding: ${ACCEPT_ENCODING}\`. nginx: Debian's ${hasNginx ? execFileSync(NGINX, ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim() || 'nginx' : '(absent: skipped)'} with one worker, access log buffered (64k), serving for each endpoint a static file holding the very bytes the Node server sends for it (same size). Each figure is the median of ${rounds} rounds of ${duration} s (after 1 s of warm-up), the rounds alternating Node and nginx. *req per CPU-s*: requests answered per second of CPU (user + system) the server's processes used during the load, from /proc: less sensitive than req/s to other work on the machine. 1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after (the machine is shared: other work was running, so p99 figures include preemption).`,
  '',
  `| Endpoint | Path | Body on the wire (B) | Node req/s | nginx req/s | Node ÷ nginx (target ≥ ${TARGET}) | Node p50 / p99 (ms) | nginx p50 / p99 (ms) | Node req per CPU-s | nginx req per CPU-s | ÷ | non-2xx |`,
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.label} | \`${r.path}\` | ${r.bytes} | ${r.node.rps.toFixed(0)} | ${r.nginx ? r.nginx.rps.toFixed(0) : 'n/a'} | ${ratioCell(r)} | ${ms2(r.node.p50)} / ${ms2(r.node.p99)} | ${r.nginx ? `${ms2(r.nginx.p50)} / ${ms2(r.nginx.p99)}` : 'n/a'} | ${cpuCell(r.node)} | ${r.nginx ? cpuCell(r.nginx) : 'n/a'} | ${r.nginx?.perCpuSecond && r.node.perCpuSecond ? (r.node.perCpuSecond / r.nginx.perCpuSecond).toFixed(2) : 'n/a'} | ${r.node.non2xx + (r.nginx?.non2xx ?? 0)} |`,
  ),
  '',
  `Static file \`${staticPath}\` (${serveRow.bytes} B as \`serve\` sends it): the Node server ${nodeStatic.rps.toFixed(0)} req/s (p50 ${ms2(nodeStatic.p50)} / p99 ${ms2(nodeStatic.p99)} ms), \`serve\` ${serveRow.rps.toFixed(0)} req/s (p50 ${ms2(serveRow.p50)} / p99 ${ms2(serveRow.p99)} ms).`,
  '',
  `In-process handler latency (\`createHandler(new FsStore(dist), NODE_HANDLER_OPTIONS)\`, one request at a time, body read to the end), per endpoint over a seeded set of varied URLs, ${runs} passes.`,
  '*cold*: first request of each URL on a fresh instance (views read from disk and parsed on first use); *built*: views in memory, answer caches off, so every body is shaped, serialized and hashed; *cached*: repeated URLs (kept answer).',
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
  `Times in ms. Targets: every function endpoint ≥ ${TARGET} × nginx req/s; handler p99 ≤ 2 ms for every endpoint but search.`,
  '',
].join('\n');

console.log(`\n${section}`);
if (write) writeBenchSection('serve', docTable());

/** Throughput beside nginx and the handler's p99, for docs/performance.md; the full report is the one printed above. */
function docTable(): string {
  const builtP99 = latencies.map((l) => `${l.endpoint} ${ms(l.wall.built[1])}`).join(', ');
  return [
    `| Endpoint | Node req/s | nginx req/s | Node ÷ nginx (target ≥ ${TARGET}) | Node p50 / p99 (ms) |`,
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.label} | ${r.node.rps.toFixed(0)} | ${r.nginx ? r.nginx.rps.toFixed(0) : 'n/a'} | ${ratioCell(r)} | ${ms2(r.node.p50)} / ${ms2(r.node.p99)} |`),
    '',
    `${builtFrom}; ${hasWrk ? 'wrk -t1' : 'autocannon'}, ${connections} connections, median of ${rounds} rounds of ${duration} s; request log and rate limit on, \`Accept-Encoding: ${ACCEPT_ENCODING}\`. ` +
      `Handler p99 with the views in memory, ms (target ≤ 2 but search): ${builtP99}.`,
  ].join('\n');
}
