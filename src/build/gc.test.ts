import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProbe } from '../../test/lib/node-probe.ts';

/**
 * V8's flags are the process's: the probe runs in a process of its own (a small old
 * generation, so that V8 collects it often), and counts the full collections and incremental
 * markings V8 reports (perf_hooks' `gc` entries, by their start) while a heap is churned
 * before, inside and after `withoutIncrementalMarking`, and after a `work` that threw.
 */
const PROBE = (gcModule: string) => `
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { withoutIncrementalMarking } from ${JSON.stringify(gcModule)};
const kinds = [];
const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) kinds.push([e.detail.kind, e.startTime]); });
observer.observe({ entryTypes: ['gc'] });
const kept = [];
const tick = () => new Promise((resolve) => setImmediate(resolve));
async function churn(rounds) {
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < 300000; i++) {
      kept.push({ a: i, b: String(i) });
      if (kept.length > 200000) kept.splice(0, 100000);
    }
    await tick();
  }
}
async function phase(work) {
  globalThis.gc();
  await tick();
  kinds.length = 0;
  const from = performance.now();
  await work();
  const to = performance.now();
  await tick();
  const count = (kind) => kinds.filter(([k, t]) => k === kind && t >= from && t <= to).length;
  return { incremental: count(constants.NODE_PERFORMANCE_GC_INCREMENTAL), major: count(constants.NODE_PERFORMANCE_GC_MAJOR) };
}
const out = {};
out.before = await phase(() => churn(20));
out.inside = await phase(() => withoutIncrementalMarking(() => churn(20)));
out.thrown = await withoutIncrementalMarking(async () => { throw new Error('x'); }).then(() => false, (e) => e.message === 'x');
out.after = await phase(() => churn(20));
observer.disconnect();
console.log(JSON.stringify(out));
`;

type Counts = { incremental: number; major: number };

describe('withoutIncrementalMarking', () => {
  it('turns V8 incremental marking off while the work runs, and back on after it, also when it throws', () => {
    const source = PROBE(pathToFileURL(join(import.meta.dirname, 'gc.ts')).href);
    const out = JSON.parse(runProbe(source, ['--expose-gc', '--max-old-space-size=48'])) as { before: Counts; inside: Counts; after: Counts; thrown: boolean };
    expect(out.before.incremental).toBeGreaterThan(0);
    expect(out.inside.major).toBeGreaterThan(0);
    expect(out.inside.incremental).toBe(0);
    expect(out.thrown).toBe(true);
    expect(out.after.incremental).toBeGreaterThan(0);
  });
});
