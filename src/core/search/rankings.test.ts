import { describe, expect, it } from 'vitest';
import type { SearchRankingsView } from '../views/layout.ts';
import { BinarySearchRankings, JsonSearchRankings, encodeSearchRankings } from './rankings.ts';
import { partEnds } from './sections.ts';

const ranking = (industry: string, rank: number, score: number) => ({ industry, rank, industryRank: rank, totalCompaniesInIndustry: 40, visibilityScore: score });

const view: SearchRankingsView = {
  month: '2026-10',
  companies: {
    'kestrel-aerospace-group': {
      company: 'Kestrel Aerospace Group',
      website: 'kestrelaero.example',
      industries: ['Aerospace'],
      defaultCountry: 'us',
      rankings: { us: ranking('Aerospace', 3, 41.5), gb: ranking('Aerospace', 9, 12.25) },
    },
    'société-générale': { company: 'Société Générale', website: 'sg.example', industries: ['Banking'], defaultCountry: 'fr', rankings: { fr: ranking('Banking', 1, 88) } },
    // a default country without a ranking there: not returned unfiltered
    'orbital-works': { company: 'Orbital Works', website: 'orbital.example', industries: ['Space'], defaultCountry: 'de', rankings: { gb: ranking('Space', 2, 7) } },
    'dormant-co': { company: 'Dormant Co', website: 'dormant.example', industries: ['Retail'], defaultCountry: null, rankings: {} },
  },
};

describe('search rankings in binary form', () => {
  const json = new JsonSearchRankings(view);
  const binary = new BinarySearchRankings(encodeSearchRankings(view));
  const slugs = [...Object.keys(view.companies), 'unknown', 'a', 'zzz', '', 'constructor'];
  const countries = ['us', 'gb', 'fr', 'de', 'xx', null];

  it('answers every company and country like the JSON view', () => {
    expect(binary.month).toBe('2026-10');
    for (const slug of slugs) {
      expect(binary.company(slug), slug).toEqual(json.company(slug));
      for (const country of countries) expect(binary.ranked(slug, country), `${slug} ${country}`).toBe(json.ranked(slug, country));
    }
    expect(binary.ranked('kestrel-aerospace-group', 'gb')).toBe(true);
    expect(binary.ranked('orbital-works', null)).toBe(false);
    expect(binary.ranked('orbital-works', 'gb')).toBe(true);
    expect(binary.ranked('dormant-co', null)).toBe(false);
    expect(binary.company('constructor')).toBeUndefined();
    expect(binary.bytes).toBeGreaterThan(100);
  });

  it('is deterministic and refuses other bytes', () => {
    const reordered: SearchRankingsView = { month: view.month, companies: Object.fromEntries(Object.entries(view.companies).reverse()) };
    expect(encodeSearchRankings(reordered)).toEqual(encodeSearchRankings(view));
    expect(() => new BinarySearchRankings(new TextEncoder().encode(JSON.stringify(view)))).toThrow(/not a EVSR file/);
    const bytes = encodeSearchRankings(view);
    expect(() => new BinarySearchRankings(bytes.subarray(0, bytes.byteLength - 8))).toThrow(/out of bounds/);
  });

  it('reads the parts a file is cut into like the whole file', () => {
    const bytes = encodeSearchRankings(view);
    const whole = new BinarySearchRankings(bytes);
    for (const ends of [partEnds(bytes, 64), [5, 97, bytes.byteLength]]) {
      const parts = new BinarySearchRankings(ends.map((end, n) => bytes.slice(n === 0 ? 0 : ends[n - 1], end)));
      for (const slug of Object.keys(view.companies)) {
        expect(parts.company(slug)).toEqual(whole.company(slug));
        expect(parts.ranked(slug, 'gb')).toBe(whole.ranked(slug, 'gb'));
      }
    }
  });

  it('read from small parts, reads only the parts of the entries asked for, and answers the same', async () => {
    const bytes = encodeSearchRankings(view);
    const ends = partEnds(bytes, 1 << 20, 16);
    const read: number[] = [];
    const parts = { ends, read: async (n: number) => (read.push(n), bytes.slice(n === 0 ? 0 : ends[n - 1], ends[n])) };
    const whole = new BinarySearchRankings(bytes);
    const lazy = await BinarySearchRankings.open(parts);
    const head = read.length;
    expect(ends.length - head).toBeGreaterThan(3);
    for (const slug of slugs) for (const country of countries) expect(lazy.ranked(slug, country)).toBe(whole.ranked(slug, country));
    expect(read.length).toBe(head);
    await lazy.prepare(['orbital-works']);
    expect(read.length - head).toBeLessThan(ends.length - head);
    expect(lazy.company('orbital-works')).toEqual(whole.company('orbital-works'));
    await lazy.prepare(slugs);
    for (const slug of slugs) expect(lazy.company(slug)).toEqual(whole.company(slug));
  });

  it('reads an empty month', () => {
    const empty = new BinarySearchRankings(encodeSearchRankings({ month: '2026-09', companies: {} }));
    expect(empty.company('kestrel-aerospace-group')).toBeUndefined();
    expect(empty.ranked('kestrel-aerospace-group', null)).toBe(false);
  });
});
