import { readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Tests of the engine's internals (`npm run test:perf`): alternative paths through the build
 * (worker or thread, cache or none, one encoding or another) giving the same bytes, and how
 * the work is streamed. What a user sees of the same paths is held by `npm test`.
 */
const INTERNALS = [
  'src/pipeline/read/aggregate-file.test.ts',
  'src/pipeline/read/read-month.test.ts',
  'src/pipeline/workers/file-queue.test.ts',
  'src/pipeline/write/profiles-gzip.test.ts',
  'test/build-months.test.ts',
  'test/ledger-record.test.ts',
  'test/load-data.test.ts',
  'test/page-workers-astro.test.ts',
  'test/profile-records.test.ts',
  'test/score-months.test.ts',
  'test/search-encodings.test.ts',
];

/** A system test file that reads the shared test build (test/lib/build-once.ts). */
const readsSharedBuild = (spec: TestSpecification) => /\/lib\/(build-once|dist)\.ts'/.test(readFileSync(spec.moduleId, 'utf8'));

/**
 * The system files that run longest, longest first. The order is fixed, whatever an earlier
 * run left in vitest's cache (a fresh clone has none): the long files start early and the
 * short ones fill the end of the run. Other files follow, larger first.
 */
const LONGEST = [
  'pages-browser',
  'packed',
  'edge-previews',
  'newcomer-browser',
  'browser',
  'search-quality',
  'months',
  'page-workers',
  'worker',
  'build-output',
  'nginx',
].map((name) => `test/${name}.test.ts`);

const rank = (spec: TestSpecification) => {
  const i = LONGEST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return i < 0 ? LONGEST.length : i;
};
const longestFirst = (specs: TestSpecification[]) =>
  specs
    .map((spec) => ({ spec, rank: rank(spec), size: statSync(spec.moduleId).size }))
    .sort((a, b) => a.rank - b.rank || b.size - a.size)
    .map(({ spec }) => spec);

/**
 * The first file that reads the shared build starts it; the system files that need no shared
 * build run beside it, before the others that wait for it. The unit tests come last, small
 * files that fill the end of the run.
 */
class SharedBuildFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const system = longestFirst(files.filter((s) => s.project.name === 'system'));
    const [first, ...waiting] = system.filter(readsSharedBuild);
    const beside = system.filter((s) => !readsSharedBuild(s));
    const others = await super.sort(files.filter((s) => s.project.name !== 'system'));
    return [...(first ? [first] : []), ...beside, ...waiting, ...others];
  }
}

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // A system test spends much of its time waiting on other processes (builds, Chromium,
    // workerd): at least two files at a time, even on two cores.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: SharedBuildFirst },
    projects: [
      // Unit tests leave no state behind them: a worker keeps its modules from one file to the next.
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'], exclude: INTERNALS, isolate: false } },
      // So do the system files (each closes what it starts and restores what it changes): a
      // worker loads the project's modules once instead of once per file.
      { extends: true, test: { name: 'system', include: ['test/**/*.test.ts'], exclude: INTERNALS, isolate: false } },
      { extends: true, test: { name: 'internals', include: INTERNALS } },
    ],
  },
});
