import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { bufferedLines } from './log.ts';

describe('bufferedLines (the request log writer)', () => {
  it('joins the lines of one turn of the event loop into one write, in order', async () => {
    const writes: string[] = [];
    const log = bufferedLines({ write: (text: string) => writes.push(text) });
    for (let i = 0; i < 100; i++) log.write(`GET /api/v1/x?i=${i} 200 0.1ms`);
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n')).toEqual([...Array.from({ length: 100 }, (_, i) => `GET /api/v1/x?i=${i} 200 0.1ms`), '']);
    log.write('next');
    await turn();
    expect(writes).toEqual([writes[0], 'next\n']);
  });

  it('writes at once when the waiting lines reach the bound, and flush() writes what waits', () => {
    const writes: string[] = [];
    const log = bufferedLines({ write: (text: string) => writes.push(text) }, 100);
    for (let i = 0; i < 10; i++) log.write('x'.repeat(29));
    // 30 characters a line: the 4th line reaches 120 >= 100, so does the 8th.
    expect(writes.map((w) => w.length)).toEqual([120, 120]);
    log.flush();
    expect(writes.map((w) => w.length)).toEqual([120, 120, 60]);
    log.flush();
    expect(writes).toHaveLength(3);
  });
});
