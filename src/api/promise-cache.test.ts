import { describe, expect, it } from 'vitest';
import { PromiseCache } from './promise-cache.ts';

describe('PromiseCache', () => {
  it('shares one promise between concurrent requests and keeps its value', async () => {
    const cache = new PromiseCache<string>(100);
    let made = 0;
    const make = async () => `v${++made}`;
    const [a, b] = await Promise.all([cache.get('k', make, () => 10), cache.get('k', make, () => 10)]);
    expect([a, b]).toEqual(['v1', 'v1']);
    expect(await cache.get('k', make, () => 10)).toBe('v1');
    expect(made).toBe(1);
  });

  it('evicts the least recently used values past its bytes, and keeps nothing too large or weighing 0', async () => {
    const cache = new PromiseCache<string>(100);
    const put = async (k: string, w: number) => {
      await cache.get(k, async () => k, () => w);
      await null;
    };
    await put('a', 60);
    await put('b', 30);
    await put('c', 20);
    let made = 0;
    expect(await cache.get('a', async () => `a${++made}`, () => 60)).toBe('a1');
    await put('huge', 101);
    await put('zero', 0);
    expect(await cache.get('huge', async () => 'again', () => 1)).toBe('again');
    expect(await cache.get('zero', async () => 'again', () => 1)).toBe('again');
  });

  it('drops a rejected promise so that the next request tries again', async () => {
    const cache = new PromiseCache<string>(100);
    await expect(cache.get('k', () => Promise.reject(new Error('down')), () => 1)).rejects.toThrow('down');
    await null;
    expect(await cache.get('k', async () => 'up', () => 1)).toBe('up');
  });

  it('keeps nothing with no bytes', async () => {
    const cache = new PromiseCache<string>(0);
    let made = 0;
    await cache.get('k', async () => `v${++made}`, () => 1);
    expect(await cache.get('k', async () => `v${++made}`, () => 1)).toBe('v2');
    expect(cache.size).toBe(0);
  });
});
