/**
 * The bench:build data set: the reference preset's parameters generated for one month more
 * than the cold build reads, so that the incremental step can add a real next month.
 *
 *   ROOT/gen/   writeDataset output (registry + mentions/ for all months)
 *   ROOT/cold/  registry + the first `months` month files (hard links, or copies)
 *   ROOT/inc/   registry + all `months + 1` month files
 *   ROOT/bench-data.json  parameters, rows and generation time; a matching file means "reuse"
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monthList, writeDataset } from '../../scripts/lib/mentions-gen.ts';

export interface BenchDataParams {
  companies: number;
  /** Months the cold build reads; one more is generated for the incremental step. */
  months: number;
  firstMonth: string;
  rowsPerMonth: number;
  seed: number;
}

/** The reference preset of scripts/generate-data.ts. */
export const REFERENCE: BenchDataParams = { companies: 10_000, months: 24, firstMonth: '2024-11', rowsPerMonth: 1_200_000, seed: 20241101 };

export interface BenchData {
  root: string;
  coldDir: string;
  incDir: string;
  coldMonths: string[];
  nextMonth: string;
  /** Rows of the generated files: all months, and the next month alone. */
  rows: number;
  /** Compressed bytes of the cold month files. */
  coldBytes: number;
  nextBytes: number;
  generationSeconds: number;
  /** True when an earlier run's files were reused (generationSeconds is then that run's figure). */
  reused: boolean;
}

interface Marker {
  params: BenchDataParams;
  rows: number;
  bytes: number;
  seconds: number;
  generatedAt: string;
}

function link(from: string, to: string): void {
  rmSync(to, { force: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

function assemble(gen: string, dir: string, names: string[]): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'mentions'), { recursive: true });
  for (const f of ['companies.csv', 'countries.csv', 'industries.csv']) link(join(gen, f), join(dir, f));
  for (const n of names) link(join(gen, 'mentions', n), join(dir, 'mentions', n));
}

export async function prepareBenchData(root: string, params: BenchDataParams, log: (l: string) => void): Promise<BenchData> {
  const gen = join(root, 'gen');
  const markerPath = join(root, 'bench-data.json');
  const all = monthList(params.firstMonth, params.months + 1);
  const names = all.map((m) => `${m}.csv.gz`);
  let marker: Marker | null = null;
  if (existsSync(markerPath)) {
    const m = JSON.parse(readFileSync(markerPath, 'utf8')) as Marker;
    const complete = names.every((n) => existsSync(join(gen, 'mentions', n)));
    if (JSON.stringify(m.params) === JSON.stringify(params) && complete) marker = m;
    else log(`  ${markerPath} is for other parameters or incomplete: generating again`);
  }
  let reused = true;
  if (!marker) {
    reused = false;
    rmSync(markerPath, { force: true });
    log(
      `Generating ${params.companies.toLocaleString('en-US')} companies, ${all.length} months from ${params.firstMonth} (${params.months} for the cold build + 1 for the incremental one), ~${params.rowsPerMonth.toLocaleString('en-US')} rows/month, seed ${params.seed} -> ${gen}`,
    );
    const t0 = performance.now();
    const res = await writeDataset({
      out: gen,
      companies: params.companies,
      months: all.length,
      firstMonth: params.firstMonth,
      rowsPerMonth: params.rowsPerMonth,
      seed: params.seed,
      gzip: true,
      onProgress: (msg) => log(`  ${msg}`),
    });
    marker = { params, rows: res.rows, bytes: res.bytes, seconds: (performance.now() - t0) / 1000, generatedAt: new Date().toISOString() };
    writeFileSync(markerPath, JSON.stringify(marker, null, 2) + '\n');
  } else log(`Reusing the data set in ${root} (generated ${marker.generatedAt} in ${marker.seconds.toFixed(0)} s)`);

  const coldDir = join(root, 'cold');
  const incDir = join(root, 'inc');
  assemble(gen, coldDir, names.slice(0, -1));
  assemble(gen, incDir, names);
  const size = (n: string) => statSync(join(gen, 'mentions', n)).size;
  return {
    root,
    coldDir,
    incDir,
    coldMonths: all.slice(0, -1),
    nextMonth: all[all.length - 1]!,
    rows: marker.rows,
    coldBytes: names.slice(0, -1).reduce((s, n) => s + size(n), 0),
    nextBytes: size(names[names.length - 1]!),
    generationSeconds: marker.seconds,
    reused,
  };
}

/** ROOT/firstN/: the registry and the first `n` cold months. */
export function subsetDir(root: string, data: BenchData, n: number): string {
  const dir = join(root, `first${n}`);
  assemble(join(root, 'gen'), dir, data.coldMonths.slice(0, n).map((m) => `${m}.csv.gz`));
  return dir;
}
