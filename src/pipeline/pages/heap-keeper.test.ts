import { describe, expect, it } from 'vitest';
import { HeapKeeper } from './render-share.ts';

/** A heap that grows by `perPage` a page and falls to `live` when collected. */
function fakeHeap(start: number, perPage: number, live: number) {
  const heap = { used: start, collected: [] as number[], page: 0 };
  return {
    heap,
    keeper: (headroom: number, every: number) =>
      new HeapKeeper(
        headroom,
        every,
        () => heap.used,
        () => {
          heap.collected.push(heap.page);
          heap.used = live;
        },
      ),
    render(keeper: HeapKeeper, pages: number) {
      for (let i = 0; i < pages; i++) {
        heap.page++;
        heap.used += perPage;
        keeper.page();
      }
    },
  };
}

describe('HeapKeeper', () => {
  it('collects once the heap has grown by the headroom past the first look, then past what each collection left', () => {
    const f = fakeHeap(240, 1, 130);
    const keeper = f.keeper(100, 10);
    f.render(keeper, 1000);
    // First look at page 10 (heap 250): limit 350, passed from page 111 on, seen at the look of
    // page 120 (heap 360). Each collection leaves 130: limit 230, passed 101 pages later, seen at
    // the next look: the collections 110 pages apart.
    expect(f.heap.collected).toEqual([120, 230, 340, 450, 560, 670, 780, 890, 1000]);
    expect(keeper.collections).toBe(9);
  });

  it('looks only every `every` pages, and never collects a heap that stays within the headroom', () => {
    let looks = 0;
    let collected = 0;
    const keeper = new HeapKeeper(64, 25, () => (looks++, 100), () => collected++);
    for (let i = 0; i < 1000; i++) keeper.page();
    expect(looks).toBe(40);
    expect(collected).toBe(0);
    expect(keeper.collections).toBe(0);
  });
});
