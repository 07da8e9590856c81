import { describe, expect, it } from 'vitest';
import { Spare } from './spare.ts';

describe('Spare', () => {
  it('keeps what is put back only while keeping, and hands it out once', () => {
    const spare = new Spare<Buffer>();
    const a = Buffer.alloc(8);
    spare.put(a);
    expect(spare.take()).toBeNull();
    spare.keep(true);
    spare.put(a);
    expect(spare.take()).toBe(a);
    expect(spare.take()).toBeNull();
    spare.put(a);
    spare.keep(false);
    expect(spare.take()).toBeNull();
  });
});
