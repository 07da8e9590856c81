import { describe, expect, it } from 'vitest';
import { Lru } from './lru.ts';

describe('Lru', () => {
  it('evicts the least recently used entry', () => {
    const lru = new Lru<string>(2);
    lru.set('a', '1');
    lru.set('b', '2');
    expect(lru.get('a')).toBe('1');
    lru.set('c', '3');
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('1');
    expect(lru.get('c')).toBe('3');
  });
  it('bounds the total weight, and reweighs entries whose size is known later', () => {
    const lru = new Lru<string>(100);
    lru.set('a', 'x', 60);
    lru.set('b', 'y', 30);
    expect(lru.weight).toBe(90);
    lru.set('c', 'z', 20);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.weight).toBe(50);
    expect(lru.get('b')).toBe('y');
    lru.reweigh('b', 'y', 90);
    expect(lru.get('c')).toBeUndefined();
    expect(lru.weight).toBe(90);
    lru.reweigh('b', 'other', 1);
    expect(lru.weight).toBe(90);
    lru.set('huge', 'h', 101);
    expect(lru.get('huge')).toBeUndefined();
    lru.deleteIf('b', 'y');
    expect(lru.size).toBe(0);
    expect(new Lru<string>(0).size).toBe(0);
  });
});
