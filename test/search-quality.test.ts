/**
 * Quality floor of the company search on the committed sample registry
 * (data/companies.csv) and on generated employer names (test/lib/search-names.ts:
 * descriptors, industry words, legal forms, abbreviations): the labelled query set of
 * test/lib/search-queries.ts must keep top-1 >= 97% on every kind and top-5 >= 99%
 * overall, and every exact name and alias finds its company first. A regression
 * guard; bench:search measures the same at 1k and 20k.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateNamedRegistry, INDUSTRY_WORDS } from './lib/search-names.ts';
import { QUERY_KINDS, WORD_KINDS, generateQueries, readRegistry, type LabelledQuery } from './lib/search-queries.ts';
import { buildSearchFiles, decodeSearchIndex, findCompanies, type SearchIndex } from '../src/core/search/index.ts';

const registry = readRegistry(resolve(import.meta.dirname, '../data/companies.csv'));
// the binary index, as the API queries it (the pages' JSON form answers the same: test/search-encodings.test.ts)
const index = decodeSearchIndex(buildSearchFiles(registry).binary);
const first = (q: string) => findCompanies(index, q)[0]?.slug;

/** Top-1 and top-5 of the labelled queries on `index`, per kind; the misses printed. */
function score(index: SearchIndex, queries: readonly LabelledQuery[], label: string): { byKind: Map<string, [number, number]>; top1: number; top5: number } {
  let top1 = 0;
  let top5 = 0;
  const byKind = new Map<string, [number, number]>();
  const failures: string[] = [];
  for (const q of queries) {
    const slugs = findCompanies(index, q.query, { limit: 5 }).map((h) => h.slug);
    const k = byKind.get(q.kind) ?? [0, 0];
    byKind.set(q.kind, [k[0] + (slugs[0] === q.expected ? 1 : 0), k[1] + 1]);
    if (slugs[0] === q.expected) top1++;
    else failures.push(`${q.kind}: ${JSON.stringify(q.query)} -> ${slugs.slice(0, 3).join(', ')} (want ${q.expected})`);
    if (slugs.includes(q.expected)) top5++;
  }
  if (failures.length > 0) console.info(`search-quality (${label}): ${failures.length}/${queries.length} not first:\n  ${failures.join('\n  ')}`);
  return { byKind, top1: top1 / queries.length, top5: top5 / queries.length };
}

describe('search quality on data/companies.csv', () => {
  it('reads the registry', () => {
    expect(registry.length).toBeGreaterThan(100);
    expect(new Set(registry.map((c) => c.slug)).size).toBe(registry.length);
  });

  it('finds every company first by its exact name, lowercased name and each alias', () => {
    const misses: string[] = [];
    for (const c of registry) {
      for (const q of [c.name, c.name.toLowerCase(), ...c.aliases]) if (first(q) !== c.slug) misses.push(`${q} -> ${first(q)} (want ${c.slug})`);
    }
    expect(misses).toEqual([]);
  });

  it('keeps top-1 >= 97% on every query kind and top-5 >= 99% on the labelled query set', () => {
    const queries = generateQueries(registry, { seed: 7 });
    const kinds = new Set(queries.map((q) => q.kind));
    expect([...kinds].sort()).toEqual(QUERY_KINDS.filter((k) => k !== 'subsidiary').sort());
    const { byKind, top1, top5 } = score(index, queries, 'data/companies.csv');
    expect(queries.length).toBeGreaterThan(3000);
    for (const [kind, [hit, all]] of byKind) expect(hit / all, kind).toBeGreaterThanOrEqual(0.97);
    expect(top1).toBeGreaterThanOrEqual(0.97);
    expect(top5).toBeGreaterThanOrEqual(0.99);
  });
});

describe('search quality on generated employer names (a word left out, abbreviations, acronyms)', () => {
  const named = generateNamedRegistry({ companies: 1000, seed: 1 });
  const namedIndex = decodeSearchIndex(buildSearchFiles(named).binary);

  it('finds every company first by its exact name and each alias, abbreviated or not', () => {
    const misses: string[] = [];
    for (const c of named) {
      for (const q of [c.name, ...c.aliases]) {
        const got = findCompanies(namedIndex, q)[0]?.slug;
        if (got !== c.slug) misses.push(`${q} -> ${got} (want ${c.slug})`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('keeps top-1 >= 97% on every query kind, the word-level kinds with a few hundred queries each', () => {
    const queries = generateQueries(named, { seed: 7 });
    const { byKind, top1, top5 } = score(namedIndex, queries, 'generated names');
    for (const kind of WORD_KINDS) expect(byKind.get(kind)?.[1] ?? 0, kind).toBeGreaterThan(250);
    for (const [kind, [hit, all]] of byKind) expect(hit / all, kind).toBeGreaterThanOrEqual(0.97);
    expect(top1).toBeGreaterThanOrEqual(0.97);
    expect(top5).toBeGreaterThanOrEqual(0.99);
  });

  it('says how a word-level hit matched, less sure when several companies hold every word', () => {
    const on = (q: string) => findCompanies(namedIndex, q, { limit: 5 });
    const queries = generateQueries(named, { seed: 7, perKind: 40 });
    const leftOut = queries.filter((q) => q.kind === 'word-left-out');
    // a name holding every word, or (the last words left out) the start of the name
    for (const q of leftOut) expect([on(q.query)[0]?.slug, on(q.query)[0]?.matchedOn], q.query).toEqual([q.expected, expect.stringMatching(/^(words|prefix)$/)]);
    expect(leftOut.filter((q) => on(q.query)[0]?.matchedOn === 'words').length).toBeGreaterThan(leftOut.length / 2);
    for (const q of queries.filter((q) => q.kind === 'acronym')) {
      const [hit] = on(q.query);
      expect(hit, q.query).toMatchObject({ slug: q.expected, matchedOn: 'acronym' });
      expect(hit!.confidence).toBeLessThanOrEqual(0.4);
    }
    // a distinctive word and an industry word that several companies hold: each is found, none is sure
    const holders = new Map<string, string[]>();
    for (const c of named) {
      const words = c.name.replace(/,/g, '').split(' ');
      const industry = words.find((w) => INDUSTRY_WORDS.includes(w));
      if (words[0] === 'Saint' || !industry) continue;
      const q = `${words[0]} ${industry}`;
      holders.set(q, [...(holders.get(q) ?? []), c.slug]);
    }
    const [q, slugs] = [...holders].find(([q, slugs]) => slugs.length >= 2 && !named.some((c) => c.name.startsWith(q)))!;
    const hits = on(q).slice(0, slugs.length);
    expect(hits.map((h) => h.slug).sort(), q).toEqual([...slugs].sort());
    for (const h of hits) expect(h, q).toMatchObject({ matchedOn: 'words' });
    for (const h of hits) expect(h.confidence, q).toBeLessThanOrEqual(0.9 / slugs.length);
    const alone = leftOut.map((q) => on(q.query)[0]!);
    expect(alone.filter((h) => h.confidence >= 0.89).length).toBeGreaterThan(leftOut.length / 2);
    expect(leftOut.length).toBeGreaterThan(20);
  });
});

describe('binary search index', () => {
  it('refuses bytes that are not the index, or a truncated one', () => {
    const { binary } = buildSearchFiles(registry.slice(0, 50));
    expect(() => decodeSearchIndex(new TextEncoder().encode('{"v":2}'))).toThrow(/not a EVIS file/);
    expect(() => decodeSearchIndex(binary.subarray(0, binary.byteLength - 64))).toThrow(/out of bounds/);
    const other = binary.slice();
    other[4] = 9;
    expect(() => decodeSearchIndex(other)).toThrow(/format version 9/);
  });
});
