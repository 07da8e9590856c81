/**
 * The release ledger's digests (src/pipeline/release/ledger.ts `monthRecord`): written as text
 * directly from the slugs' JSON and the integers, they must equal the digests of the rows
 * built and stringified (`monthRecordByStringify`, the first way), for every month of the
 * sample data, and for slugs that JSON escapes.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadData } from '../src/pipeline/read/load-data.ts';
import { monthRecord, monthRecordByStringify } from '../src/pipeline/release/ledger.ts';
import { scoreMonths } from '../src/pipeline/score/score-months.ts';
import { universes, type MonthResult } from '../src/core/score.ts';

const root = resolve(import.meta.dirname, '..');

describe('the ledger digests of a month', () => {
  it('equal those of the rows stringified, escaped slugs included', async () => {
    const data = await loadData({ dataDir: join(root, 'data'), cacheDir: null, root, workers: 1, log: () => {} });
    const results: MonthResult[] = [];
    for await (const s of scoreMonths(data, universes(data.registry), null, () => {}, 1)) results.push(s.result);
    expect(results.length).toBeGreaterThan(3);
    const reg = data.registry;
    const records = results.map((r) => monthRecord(reg, r));
    expect(records).toEqual(results.map((r) => monthRecordByStringify(reg, r)));
    expect(records.every((r) => r.leaderboards > 0 && r.rankedCompanies > 0)).toBe(true);
    // slugs JSON escapes (quote, backslash, control and line-separator characters, non-ASCII)
    const odd = { ...reg, companies: reg.companies.map((c, i) => (i % 3 ? c : { ...c, slug: `${c.slug}"\\\n\u2028é` })) };
    const escaped = results.map((r) => monthRecord(odd, r));
    expect(escaped).toEqual(results.map((r) => monthRecordByStringify(odd, r)));
    expect(escaped.map((r) => r.digest)).not.toEqual(records.map((r) => r.digest));
  });
});
