import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileQueue } from './file-queue.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('FileQueue.written', () => {
  it('resolves once every file handed over before the call is on disk, files handed over later still queued', async () => {
    dir = mkdtempSync(join(tmpdir(), 'evi-queue-'));
    const queue = new FileQueue();
    try {
      const file = (i: number) => join(dir, `${i}.txt`);
      // Batches of 256: this mark falls inside the fourth.
      for (let i = 0; i < 1000; i++) queue.write(file(i), Buffer.from(`file ${i}`));
      const first = queue.written();
      for (let i = 1000; i < 5000; i++) queue.write(file(i), Buffer.from(`file ${i}`));
      const second = queue.written();
      await first;
      for (let i = 0; i < 1000; i++) expect(readFileSync(file(i), 'utf8')).toBe(`file ${i}`);
      await second;
      for (let i = 1000; i < 5000; i++) expect(existsSync(file(i))).toBe(true);
      // Nothing handed over: at once.
      await queue.written();
    } finally {
      await queue.close();
    }
  });

  it('rejects with the write that failed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'evi-queue-'));
    const queue = new FileQueue();
    try {
      queue.write(join(dir, 'no-such-folder', 'a.txt'), Buffer.from('a'));
      await expect(queue.written()).rejects.toThrow(/writing the output: .*ENOENT/s);
    } finally {
      await queue.close();
    }
  });
});
