import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // A system test spends much of its time waiting on other processes (builds, Chromium,
    // workerd): at least two files at a time, even on two cores.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // Unit tests leave no state behind them: a worker keeps its modules from one file to the next.
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'system', include: ['test/**/*.test.ts'] } },
    ],
  },
});
