/**
 * The build's own bundle kept in node_modules/.cache (src/pipeline/workers/bundle-file.mjs) is checked
 * against the digest its name carries before it is used: a truncated bundle is made again,
 * instead of every build failing until it is deleted by hand. (Kept in a folder of the
 * test's own here: the project's is shared with builds that may be running.)
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, bundleOf } from '../src/pipeline/workers/bundle-file.mjs';

describe("the build's kept bundle", () => {
  it('truncated, is made again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evi-bundle-'));
    try {
      const make = () => bundleOf(join(ROOT, 'scripts', 'build.ts'), dir, 'bundle', join(ROOT, 'src', 'pipeline', 'workers', 'worker-pool.ts'));
      const bundle = make();
      expect(bundle).not.toBeNull();
      const whole = readFileSync(bundle!);
      expect(whole.byteLength).toBeGreaterThan(100_000);
      truncateSync(bundle!, Math.floor(whole.byteLength / 2));
      const again = make();
      expect(again).toBe(bundle);
      expect(readFileSync(again!).equals(whole)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
