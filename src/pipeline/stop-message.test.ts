import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopMessage } from './stop-message.ts';

describe('stopMessage', () => {
  it('a system error is one line naming the cause and the path; the stack only with the debug setting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evi-stop-'));
    let err: unknown;
    try {
      // a real system error from the file system: writing under a file as if it were a folder
      writeFileSync(join(dir, 'f'), '');
      writeFileSync(join(dir, 'f', 'g'), '');
    } catch (e) {
      err = e;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const line = stopMessage(err, false);
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(/^Build failed; the output folder was not touched: ENOTDIR: not a directory, open '.*f\/g' \(EVI_DEBUG=1 prints the stack trace\)$/);
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(stopMessage(full, false)).toBe('Build failed; the output folder was not touched: the disk is full (ENOSPC: no space left on device, write) (EVI_DEBUG=1 prints the stack trace)');
    expect(stopMessage(full, true)).toMatch(/\n\s+at /);
    expect(stopMessage(new Error('Error: Error: boom'), false)).not.toContain('Error:');
  });
});
