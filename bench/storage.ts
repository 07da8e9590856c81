/**
 * bench:storage — the size of the output at the reference scale (10,000 companies,
 * 23 countries, 32 industries): files and bytes by folder, the largest file, against
 * the static-asset limits of Cloudflare (100,000 files, 25 MiB per file; 20,000 files on
 * the free plan), for 24 months of reference rows and for 60 months of fewer rows per
 * month (the file count depends on contexts, not rows). Also the time of the cold
 * build and of an incremental build adding one month. Pages are left out (EVI_PAGES=0);
 * they add one file per company plus a handful. Run: `npm run bench:storage`.
 *
 * Environment: EVI_BENCH_DATA (folder for generated data, reused; default a temporary one).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUILD_NODE_ARGS } from '../src/pipeline/workers/build-command.ts';
import { prepareBenchData, REFERENCE, subsetDir, type BenchDataParams } from './lib/bench-data.ts';

const repo = resolve(import.meta.dirname, '..');
const root = process.env.EVI_BENCH_DATA ?? mkdtempSync(join(tmpdir(), 'evi-storage-'));
const say = (l: string) => console.error(l);

function walk(dir: string, base = dir, out = { files: 0, bytes: 0, max: { path: '', bytes: 0 }, byTop: new Map<string, { files: number; bytes: number }>() }) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, base, out);
    else {
      const b = statSync(p).size;
      const rel = p.slice(base.length + 1);
      const top = rel.includes('/') ? rel.split('/').slice(0, rel.startsWith('views/') ? 2 : 1).join('/') : '(root)';
      out.files++;
      out.bytes += b;
      if (b > out.max.bytes) out.max = { path: rel, bytes: b };
      const t = out.byTop.get(top) ?? { files: 0, bytes: 0 };
      t.files++;
      t.bytes += b;
      out.byTop.set(top, t);
    }
  }
  return out;
}

function build(dataDir: string, outDir: string, cacheDir: string): number {
  const t0 = performance.now();
  execFileSync(process.execPath, [...BUILD_NODE_ARGS], {
    cwd: repo,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, EVI_DATA_DIR: dataDir, EVI_OUT_DIR: outDir, EVI_CACHE_DIR: cacheDir, EVI_PAGES: '0', SOURCE_DATE_EPOCH: '1793491200', EVI_ACCEPT_DROP: '' },
  });
  return (performance.now() - t0) / 1000;
}

async function run(label: string, params: BenchDataParams) {
  const dir = join(root, label);
  const data = await prepareBenchData(dir, params, say);
  const out = join(dir, 'out', 'dist');
  const cache = join(dir, 'cache');
  rmSync(cache, { recursive: true, force: true });
  const cold = build(subsetDir(dir, data, data.coldMonths.length), out, cache);
  const w = walk(out);
  const inc = build(data.incDir, out, cache);
  const after = walk(out);
  return { label, params, cold, inc, w, after };
}

// EVI_BENCH_ONLY=ref24 or long60 runs one of the two.
const only = process.env.EVI_BENCH_ONLY;
const runs = [];
if (!only || only === 'ref24') runs.push(await run('ref24', REFERENCE));
if (!only || only === 'long60') runs.push(await run('long60', { ...REFERENCE, months: 60, firstMonth: '2021-11', rowsPerMonth: 120_000 }));
const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
const n = (x: number) => x.toLocaleString('en-US');
for (const r of runs) {
  console.log(`\n### ${r.params.months} months of ${n(r.params.rowsPerMonth)} rows (${n(r.params.companies)} companies)`);
  console.log(`cold build ${r.cold.toFixed(1)} s; incremental (+1 month) ${r.inc.toFixed(1)} s; ${cpus().length} cores`);
  console.log(`after the cold build: ${n(r.w.files)} files, ${mib(r.w.bytes)}; largest ${r.w.max.path} ${mib(r.w.max.bytes)}`);
  console.log(`after the incremental build (${r.params.months + 1} months): ${n(r.after.files)} files, ${mib(r.after.bytes)}; largest ${r.after.max.path} ${mib(r.after.max.bytes)}`);
  console.log('| folder | files | bytes |\n|---|---:|---:|');
  for (const [k, v] of [...r.after.byTop].sort((a, b) => b[1].files - a[1].files)) console.log(`| ${k} | ${n(v.files)} | ${mib(v.bytes)} |`);
}
if (!process.env.EVI_BENCH_DATA) rmSync(root, { recursive: true, force: true });
