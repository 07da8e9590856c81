import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs `source` (an ES module in TypeScript, which may import the project's modules by file
 * URL) in a Node process of its own, with `flags` before tsx's loader, and answers what it
 * printed. For what only a fresh process shows: V8's flags are the process's, and its
 * compiled code and collections start from nothing.
 */
export function runProbe(source: string, flags: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'evi-probe-'));
  try {
    const file = join(dir, 'probe.mts');
    writeFileSync(file, source);
    return execFileSync(process.execPath, [...flags, '--import', 'tsx', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
