/**
 * bench:worker — CPU time of each endpoint on a fresh Worker instance, against the
 * Workers free plan's 10 ms of CPU per request.
 *
 * workerd does not report CPU time locally, so the Worker's own module
 * (`src/adapters/cloudflare/index.ts`, bundled as wrangler does it: test/lib/workerd.ts)
 * runs in a fresh Node process per sample, over a
 * static-assets binding that serves the files of a build from disk. The process's CPU
 * time (`process.cpuUsage()`, user + system) is taken around each request, less the
 * CPU the binding spent reading files (on Cloudflare the assets are read by another
 * service, not by the isolate). Modules are imported before the clock starts (a Worker
 * pays its top-level code at startup, not per request). A child holds the Worker's module
 * and Node's built-ins only, as an isolate holds its Worker: what else its heap held would
 * be walked by each garbage collection the requests set off.
 *
 * Per endpoint, in each fresh process: `first` = the first request of the instance
 * (everything it needs parsed and loaded then), `other` = the same endpoint with other
 * parameters next (views loaded, answer not cached), `repeat` = the first URL again
 * (answer cache). Median over `BENCH_PROCESSES` processes (default 7).
 *
 * Run: `DIST_DIR=dist npm run bench:worker` (after `npm run build`); prints Markdown and
 * rewrites the "worker" section of docs/performance.md (`--no-write`: print only).
 * `BENCH_ONLY=<regexp>` keeps the endpoints whose name matches.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Miniflare } from 'miniflare';
import type { MetaView } from '../src/core/views/layout.ts';

/**
 * The bundler, Miniflare and wrangler, imported by the parent only: in a child they would
 * sit in the heap that the Worker's garbage collections walk (several times a Worker's own).
 */
const harness = () => import('../test/lib/workerd.ts');

const LIMIT_MS = 10;

interface Sample {
  status: number;
  cpuMs: number;
  readMs: number;
  bytes: number;
  /** SHA-1 of the body: the workerd run must answer the same bytes. */
  sha1: string;
  /** CPU of evaluating the Worker's module (startup: not a request's), in the first sample. */
  startupMs?: number;
}

const sha1 = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('hex');

/** One fresh instance: requests `urls` in order, prints their CPU times as JSON. */
async function child(script: string, dist: string, urls: Target[]): Promise<void> {
  // tsx turns on source maps for this TypeScript file; then the first `stack` of any error (one
  // that Node's streams make on releasing a reader, say) parses source maps, which workerd never does
  process.setSourceMapsEnabled(false);
  await warmNodeWebApis();
  const t0 = process.cpuUsage();
  const worker = ((await import(pathToFileURL(script).href)) as { default: { fetch(request: Request, env: unknown): Promise<Response> } }).default;
  // the Worker's startup ends with its priming (microtasks, not awaited by the module): let it end, as workerd does before any request
  await new Promise((resolve) => setTimeout(resolve, 20));
  let readCpu = 0;
  const ASSETS = {
    async fetch(request: Request): Promise<Response> {
      const t = process.cpuUsage();
      const path = decodeURIComponent(new URL(request.url).pathname);
      let bytes: Uint8Array | null = null;
      try {
        const full = join(dist, path);
        if (statSync(full).isFile()) bytes = readFileSync(full);
      } catch {
        bytes = null;
      }
      const d = process.cpuUsage(t);
      readCpu += (d.user + d.system) / 1000;
      return assetResponse(bytes);
    },
  };
  const t1 = process.cpuUsage(t0);
  const env = { ASSETS };
  const out: Sample[] = [];
  for (const url of urls) {
    readCpu = 0;
    const t = process.cpuUsage();
    const res = await worker.fetch(toRequest(url), env);
    const body = new Uint8Array(await res.arrayBuffer());
    const d = process.cpuUsage(t);
    out.push({ status: res.status, cpuMs: (d.user + d.system) / 1000 - readCpu, readMs: readCpu, bytes: body.byteLength, sha1: sha1(body) });
  }
  (out[0] as Sample).startupMs = (t1.user + t1.system) / 1000;
  process.stdout.write(JSON.stringify(out));
}

/**
 * What the assets binding hands the isolate: a Response-like object over the file's
 * bytes. Node's own Response would stream the body through undici's web streams in
 * 64 KB chunks (~10 ms of CPU for a 5 MB file) where workerd hands the body over
 * natively; here `text()` decodes the UTF-8 (as workerd does) and `arrayBuffer()`
 * copies the bytes once (as workerd does), both counted as the handler's CPU.
 */
function assetResponse(bytes: Uint8Array | null): Response {
  const found = bytes !== null;
  return {
    status: found ? 200 : 404,
    ok: found,
    body: { cancel: async () => undefined },
    text: async () => (bytes ? new TextDecoder().decode(bytes) : 'not found'),
    arrayBuffer: async () => (bytes ? bytes.slice().buffer : new ArrayBuffer(0)),
  } as unknown as Response;
}

/**
 * Node loads its fetch classes (undici), streams and encoders lazily, on their first use,
 * at a cost of tens of ms; in workerd they are built in. Used once here, before the clock,
 * with no project code, so that the figures are the handler's.
 */
async function warmNodeWebApis(): Promise<void> {
  const req = new Request('https://warm.example/a?b=1', { headers: { 'if-none-match': '"x"', accept: '*/*' } });
  void req.headers.get('if-none-match');
  void new URL(req.url).searchParams.get('b');
  const res = new Response(new TextEncoder().encode('{}'), { status: 200, headers: { 'content-type': 'application/json' } });
  res.headers.set('etag', '"y"');
  res.headers.append('vary', 'accept');
  await res.clone().arrayBuffer();
  await res.text();
  await new Response(new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array(1)), c.close()) })).arrayBuffer();
  // a request's signal, and a body read with a reader released after (its first release builds an error in a new context)
  const post = new Request('https://warm.example/', { method: 'POST', body: '{}' });
  void post.signal;
  const reader = (post.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  reader.releaseLock();
  new TextDecoder().decode(new Uint8Array([123, 125]));
  await crypto.subtle.digest('SHA-1', new Uint8Array(1));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] as number;
}

function ms(x: number): string {
  return x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** A request of a case: a GET of `url`, or a POST of `body` (JSON-RPC, the MCP endpoint). */
interface Target {
  url: string;
  body?: unknown;
}

interface Case {
  name: string;
  first: string;
  other: string;
  /** POST bodies of the first and the other request (MCP): `first` and `other` are then the path. */
  bodies?: [unknown, unknown];
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const toRequest = (t: Target): Request => (t.body === undefined ? new Request(t.url) : new Request(t.url, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(t.body) }));
const rpc = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

function cases(meta: MetaView): Case[] {
  const ex = meta.examples;
  const [a, b] = [ex.compare[0] ?? ex.company, ex.compare[1] ?? ex.company];
  const past = meta.months[0] ?? meta.month;
  const q = (s: string) => encodeURIComponent(s);
  return [
    { name: 'index', first: '/api/v1', other: '/api/v1/' },
    { name: 'health', first: '/api/v1/health', other: '/api/health' },
    { name: 'search', first: `/api/v1/search?q=${q(ex.search)}`, other: `/api/v1/search?q=${q(b.replace(/-/g, ' ').slice(0, 12))}` },
    { name: 'search, country', first: `/api/v1/search?q=${q(ex.search)}&country=${ex.country}`, other: `/api/v1/search?q=${q(a.replace(/-/g, ' ').slice(0, 10))}&country=${ex.country}` },
    { name: 'search, past month', first: `/api/v1/search?q=${q(ex.search)}&month=${past}`, other: `/api/v1/search?q=${q(b.replace(/-/g, ' '))}&month=${past}` },
    { name: 'company', first: `/api/v1/company/${a}`, other: `/api/v1/company/${b}` },
    { name: 'company, past month', first: `/api/v1/months/${past}/company/${a}`, other: `/api/v1/months/${past}/company/${b}` },
    { name: 'profile page (from a pack in a packed build)', first: `/company/${a}/`, other: `/company/${b}/` },
    { name: 'company, unknown slug (404 + suggestions)', first: `/api/v1/company/${a}x`, other: `/api/v1/company/${b}x` },
    { name: 'rankings', first: `/api/v1/rankings`, other: `/api/v1/rankings?industry=${ex.industry}&country=${ex.country}&sort=change&page=2` },
    { name: 'leaders', first: `/api/v1/rankings/${ex.industry}/${ex.country}`, other: `/api/v1/rankings/all/${ex.country}` },
    { name: 'compare', first: `/api/v1/compare?companies=${ex.compare.join(',')}`, other: `/api/v1/compare?companies=${[b, a].join(',')}` },
    { name: 'changelog', first: '/api/v1/changelog', other: '/api/changelog' },
    { name: 'openapi', first: '/api/v1/openapi.json', other: '/api/openapi.json' },
    { name: 'MCP tools/call (POST /mcp)', first: '/mcp', other: '/mcp', bodies: [rpc(1, 'get_company', { slug: a }), rpc(2, 'search_companies', { q: ex.search, country: ex.country })] },
  ];
}

async function main(): Promise<void> {
  // the Worker as wrangler bundles it (one ESM file, workerd conditions), not the TypeScript sources
  const script = await (await harness()).bundleWorker('bench-worker');
  const dist = realpathSync(resolve(process.env.DIST_DIR ?? 'dist'));
  const processes = Number(process.env.BENCH_PROCESSES ?? 7);
  const meta = JSON.parse(readFileSync(join(dist, 'views/meta.json'), 'utf8')) as MetaView;
  const self = fileURLToPath(import.meta.url);
  const load0 = loadavg();
  const t0 = Date.now();
  const rows: string[] = [];
  /** The same figures, shorter, for docs/performance.md. */
  const docRows: string[] = [];
  const workerdRows: string[] = [];
  const startups: number[] = [];
  let worst = 0;
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
  // workerd's CPU is read from /proc (Linux); BENCH_WORKERD=0 skips it
  const workerd = process.env.BENCH_WORKERD !== '0' && existsSync('/proc/self/task');
  for (const c of cases(meta).filter((x) => !only || only.test(x.name))) {
    const bodies = c.bodies ?? [undefined, undefined];
    const urls: Target[] = [
      { url: `https://evi.example${c.first}`, body: bodies[0] },
      { url: `https://evi.example${c.other}`, body: bodies[1] },
      { url: `https://evi.example${c.first}`, body: bodies[0] },
    ];
    const samples: Sample[][] = [];
    for (let i = 0; i < processes; i++) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', self, 'child', script, dist, JSON.stringify(urls)], { encoding: 'utf8', maxBuffer: 1 << 24 });
      if (r.status !== 0) throw new Error(`child failed for ${c.name}: ${r.stderr}`);
      samples.push(JSON.parse(r.stdout) as Sample[]);
      startups.push((samples.at(-1)![0] as Sample).startupMs ?? NaN);
    }
    const col = (i: number) => median(samples.map((s) => (s[i] as Sample).cpuMs));
    const first = col(0);
    worst = Math.max(worst, first, col(1));
    const statuses = [...new Set(samples[0]!.map((s) => s.status))].join('/');
    const read = median(samples.map((s) => (s[0] as Sample).readMs));
    rows.push(
      `| ${c.name} | \`${c.first}\` | ${statuses} | ${ms(first)} | ${ms(Math.max(...samples.map((s) => (s[0] as Sample).cpuMs)))} | ${ms(col(1))} | ${ms(col(2))} | ${ms(read)} | ${first <= LIMIT_MS && col(1) <= LIMIT_MS ? 'yes' : '**no**'} |`,
    );
    docRows.push(`| ${c.name} | ${ms(first)} | ${ms(col(1))} | ${ms(col(2))} | ${first <= LIMIT_MS && col(1) <= LIMIT_MS ? 'yes' : '**no**'} |`);
    if (workerd) workerdRows.push(await underWorkerd(script, dist, c, urls, samples[0] as Sample[], processes));
  }
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const companies = meta.totalCompanies.toLocaleString('en-US');
  console.log(`Command: \`DIST_DIR=<build> npm run bench:worker\` (BENCH_PROCESSES=${processes}), commit ${commit}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`);
  console.log(`Build: ${companies} companies, ${meta.months.length} months. Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load average ${load0.map((x) => x.toFixed(1)).join(' / ')} at start, ${loadavg().map((x) => x.toFixed(1)).join(' / ')} at end (${((Date.now() - t0) / 1000).toFixed(0)} s).`);
  console.log('');
  console.log('CPU time of the handler per request, ms (median over fresh processes; files read by the binding excluded, shown apart):');
  console.log('');
  console.log('| Endpoint | First URL | Status | First request, fresh instance | max | Other parameters, next | Repeat (cached) | Binding reads (first) | ≤ 10 ms |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---|');
  for (const r of rows) console.log(r);
  console.log('');
  console.log(`Worst median, first or next request: ${ms(worst)} ms (limit ${LIMIT_MS} ms). Startup (evaluating the Worker's module, once per instance, outside the requests above): median ${ms(median(startups))} ms.`);
  if (workerdRows.length > 0) {
    console.log('');
    console.log(
      'Under workerd (Miniflare, the bundled Worker over the same build): CPU time of the whole workerd process per request (all its threads, from /proc/<pid>/task/*/schedstat), so including its HTTP front, Miniflare\'s entry worker and the local static-assets service reading the files, which on Cloudflare run outside the Worker; median over fresh instances. "Same answer": status and body bytes equal to the Node run\'s.',
    );
    console.log('');
    console.log('| Endpoint | First request, fresh instance | Other parameters, next | Repeat (cached) | Same answer |');
    console.log('|---|---:|---:|---:|---|');
    for (const r of workerdRows) console.log(r);
    const bare = await bareWorkerdStartup(dist, processes);
    const ours = median(workerdStartups);
    console.log('');
    console.log(
      `Startup under workerd (CPU of the whole workerd process from its start to its first answer, a static file; median of ${workerdStartups.length} instances): ${ms(ours)} ms; with a Worker that only forwards to its assets: ${ms(bare)} ms; the difference, this Worker's startup (module evaluation and priming): ${ms(ours - bare)} ms (Cloudflare's startup limit: 1 s).`,
    );
  }
  if (!process.argv.includes('--no-write')) {
    (await import('../scripts/lib/perf-doc.ts')).writeBenchSection(
      'worker',
      [
        `| Endpoint | First request, fresh instance (ms) | Other parameters, next | Repeat (cached) | ≤ ${LIMIT_MS} ms |`,
        '|---|---:|---:|---:|---|',
        ...docRows,
        '',
        `CPU of the handler in Node, median of ${processes} fresh processes, files read by the assets binding left out; over a build of ${companies} companies and ${meta.months.length} months. ` +
          `Startup (the module evaluated and primed, once per instance): ${ms(median(startups))} ms, against Cloudflare's 1 s.`,
      ].join('\n'),
    );
  }
}

/** The workerd process (and its threads) that Miniflare started for this process. */
function workerdPids(): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm.startsWith('workerd') && ppid === process.pid) pids.push(Number(d));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/** Nanoseconds on CPU of every thread of `pids`. */
function cpuNs(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return total;
}

/** CPU of the whole workerd process from its start to its first answer (a static file), per instance. */
const workerdStartups: number[] = [];

/**
 * The same for a Worker that only hands every request to its assets: workerd's own start and
 * Miniflare's workers, which the difference with {@link workerdStartups} leaves out.
 */
async function bareWorkerdStartup(dist: string, processes: number): Promise<number> {
  const bare = join(dirname(fileURLToPath(import.meta.url)), '../.cache/bench-worker/bare.js');
  mkdirSync(dirname(bare), { recursive: true });
  writeFileSync(bare, 'export default { fetch: (request, env) => env.ASSETS.fetch(request) };\n');
  const runs: number[] = [];
  for (let i = 0; i < processes; i++) {
    const { mf, startupMs } = await instance(bare, dist);
    runs.push(startupMs);
    await mf.dispose();
  }
  return median(runs);
}

/** A fresh workerd instance that has answered one static file (so that it exists: a Worker's first request runs its startup). */
async function instance(script: string, dist: string): Promise<{ mf: Miniflare; pids: number[]; startupMs: number }> {
  const mf = await (await harness()).startWorker(script, dist);
  const pids = workerdPids();
  await (await mf.dispatchFetch('https://evi.example/favicon.ico')).arrayBuffer();
  return { mf, pids, startupMs: cpuNs(pids) / 1e6 };
}

async function underWorkerd(script: string, dist: string, c: Case, urls: Target[], reference: Sample[], processes: number): Promise<string> {
  const runs: number[][] = [];
  let same = true;
  for (let i = 0; i < processes; i++) {
    const { mf, pids, startupMs } = await instance(script, dist);
    workerdStartups.push(startupMs);
    try {
      const run: number[] = [];
      for (const [j, url] of urls.entries()) {
        const before = cpuNs(pids);
        const res = await mf.dispatchFetch(url.url, url.body === undefined ? undefined : { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(url.body) });
        const body = new Uint8Array(await res.arrayBuffer());
        run.push((cpuNs(pids) - before) / 1e6);
        const want = reference[j] as Sample;
        if (res.status !== want.status || sha1(body) !== want.sha1) same = false;
      }
      runs.push(run);
    } finally {
      await mf.dispose();
    }
  }
  const col = (j: number) => ms(median(runs.map((r) => r[j] as number)));
  return `| ${c.name} | ${col(0)} | ${col(1)} | ${col(2)} | ${same ? 'yes' : '**no**'} |`;
}

if (process.argv[2] === 'child') await child(process.argv[3] as string, process.argv[4] as string, JSON.parse(process.argv[5] as string) as Target[]);
else await main();
