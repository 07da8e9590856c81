import { parseArgs } from 'node:util';
import { writeDataset } from './lib/mentions-gen.ts';

interface Preset {
  companies: number;
  months: number;
  firstMonth: string;
  rows: number;
  seed: number;
}

// Both presets end in 2026-10 so that sample and reference share the current month.
const PRESETS: Record<string, Preset> = {
  sample: { companies: 640, months: 8, firstMonth: '2026-03', rows: 60_000, seed: 20260301 },
  reference: { companies: 10_000, months: 24, firstMonth: '2024-11', rows: 1_200_000, seed: 20241101 },
};

const USAGE = `Usage: npx tsx scripts/generate-data.ts [--preset sample|reference] [--out DIR]
  [--companies N] [--months N] [--rows N] [--seed N] [--first-month YYYY-MM] [--plain]`;

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new Error(`--${name} must be a positive integer, got "${value}"`);
  }
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      preset: { type: 'string', default: 'sample' },
      out: { type: 'string', default: 'data' },
      companies: { type: 'string' },
      months: { type: 'string' },
      rows: { type: 'string' },
      seed: { type: 'string' },
      'first-month': { type: 'string' },
      plain: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const preset = PRESETS[values.preset];
  if (!preset) throw new Error(`unknown preset "${values.preset}" (valid: ${Object.keys(PRESETS).join(', ')})`);
  const firstMonth = values['first-month'] ?? preset.firstMonth;
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(firstMonth)) throw new Error(`--first-month must be YYYY-MM, got "${firstMonth}"`);

  const opts = {
    out: values.out,
    companies: positiveInt('companies', values.companies, preset.companies),
    months: positiveInt('months', values.months, preset.months),
    rowsPerMonth: positiveInt('rows', values.rows, preset.rows),
    seed: positiveInt('seed', values.seed, preset.seed),
    firstMonth,
    gzip: !values.plain,
  };
  console.error(
    `generating ${opts.companies} companies, ${opts.months} months from ${opts.firstMonth}, ~${opts.rowsPerMonth} rows/month, seed ${opts.seed} -> ${opts.out}`,
  );
  const started = performance.now();
  const result = await writeDataset({ ...opts, onProgress: (msg) => console.error(`  ${msg}`) });
  const secs = (performance.now() - started) / 1000;
  console.error(
    `done: ${result.rows.toLocaleString('en-US')} rows, ${result.files.length} files, ${(result.bytes / 1048576).toFixed(2)} MB in ${secs.toFixed(1)} s`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  console.error(USAGE);
  process.exit(1);
});
