/**
 * The build sorts the overall boards' `name` order by the registry's name order (an integer per
 * company); the API sorts a JSON board by the collator at request time. On every overall board
 * of the sample build, every month, the two orders agree, so both forms answer the same bytes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BinaryBoard, sortOrder } from '../src/core/views/board-rows.ts';
import type { BoardView } from '../src/core/views/layout.ts';
import { OVERALL } from '../src/core/views/layout.ts';
import { buildSite } from './lib/build-once.ts';

let dist: string;
beforeAll(async () => {
  dist = await buildSite();
}, 600_000);

describe("the overall boards' name order", () => {
  it('is the collator order of the JSON rows, on every overall board of every month', () => {
    const rankings = join(dist, 'views', 'rankings');
    let boards = 0;
    let rows = 0;
    for (const month of readdirSync(rankings)) {
      for (const country of readdirSync(join(rankings, month))) {
        const bin = join(rankings, month, country, `${OVERALL}.bin`);
        if (!existsSync(bin)) continue;
        const view = JSON.parse(readFileSync(join(rankings, month, country, `${OVERALL}.json`), 'utf8')) as BoardView;
        expect([...new BinaryBoard(readFileSync(bin)).order('name')!], `${month}/${country}`).toEqual(sortOrder(view.rows, 'name'));
        boards++;
        rows += view.rows.length;
      }
    }
    // the sample has months, countries and companies enough for the check to mean something
    expect(boards).toBeGreaterThan(20);
    expect(rows).toBeGreaterThan(10_000);
  });
});
