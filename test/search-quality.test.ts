/**
 * Quality floor of the company search on the committed sample registry
 * (data/companies.csv) and on generated employer names (test/lib/search-names.ts:
 * descriptors, industry words, legal forms, abbreviations): the labelled query set of
 * test/lib/search-queries.ts must keep top-1 >= 97% on every kind and top-5 >= 99%
 * overall, and every exact name and alias finds its company first. A regression
 * guard; bench:search measures the same at 1k and 20k.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { generateNamedRegistry, INDUSTRY_WORDS } from './lib/search-names.ts';
import { QUERY_KINDS, WORD_KINDS, generateQueries, type LabelledQuery, type RegistryCompany } from './lib/search-queries.ts';
import { generateRegistry, slugify } from '../scripts/lib/registry-gen.ts';
import { buildSearchFiles, buildSearchIndex, decodeSearchIndex, loadSearchIndex, findCompanies, type SearchIndex } from '../src/core/search/index.ts';
import { initialsOf } from '../src/core/search/words.ts';

const rows = Papa.parse<Record<string, string>>(readFileSync(resolve(import.meta.dirname, '../data/companies.csv'), 'utf8'), {
  header: true,
  skipEmptyLines: true,
}).data;
const registry: RegistryCompany[] = rows.map((r) => ({
  slug: r.slug?.trim() || slugify(r.name ?? ''),
  name: (r.name ?? '').trim(),
  website: (r.website ?? '').trim(),
  aliases: (r.aliases ?? '')
    .split('|')
    .map((a) => a.trim())
    .filter((a) => a.length > 0),
}));
const index = loadSearchIndex(JSON.parse(JSON.stringify(buildSearchIndex(registry))));
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

/**
 * The API queries the binary index (views/search-index.bin) in place; the pages load the
 * JSON (v2). Both must give the same answers, hit for hit, on every labelled query.
 */
describe('binary search index', () => {
  const generated = generateRegistry({ companies: 1000, seed: 1 }).map((c) => ({
    slug: c.slug,
    name: c.name,
    website: c.website,
    aliases: [...c.aliases, ...c.subsidiaries],
  }));
  it.each([
    ['data/companies.csv, 200 queries per kind', registry, 200],
    ['a generated registry of 1,000 companies (subsidiaries, accents), 200 queries per kind', generated, 200],
  ] as const)('answers every labelled query exactly like the v2 (JSON) engine: %s', (_, companies, perKind) => {
    const files = buildSearchFiles(companies);
    const json = loadSearchIndex(JSON.parse(JSON.stringify(files.json)));
    // read from an unaligned copy too, as a file read into a shared buffer may be
    const shifted = new Uint8Array(files.binary.byteLength + 1);
    shifted.set(files.binary, 1);
    const binary = decodeSearchIndex(files.binary);
    const unaligned = decodeSearchIndex(shifted.subarray(1));
    const queries = [
      ...generateQueries(companies, { seed: 7, perKind }).map((q) => q.query),
      ...companies.flatMap((c) => [c.name, c.slug, ...c.aliases]),
      'kestrel',
      'jobs at',
      'a',
      '',
    ];
    const odd = (slug: string) => slug.length % 2 === 1;
    let compared = 0;
    for (const [i, q] of queries.entries()) {
      const want = findCompanies(json, q, { limit: 20 });
      expect(findCompanies(binary, q, { limit: 20 }), q).toEqual(want);
      if (i % 4 === 0) expect(findCompanies(binary, q, { limit: 5, filter: odd }), q).toEqual(findCompanies(json, q, { limit: 5, filter: odd }));
      if (i % 16 === 0) expect(findCompanies(unaligned, q, { limit: 20 }), q).toEqual(want);
      compared++;
    }
    expect(compared).toBeGreaterThan(2500);
    expect(files.binary.byteLength).toBeGreaterThan(1000);
  });

  it.each([
    ['data/companies.csv', registry],
    ['1,000 generated employer names', generateNamedRegistry({ companies: 1000, seed: 1 })],
  ] as const)("answers every name's initials exactly like the v2 (JSON) engine (the table built with the file): %s", (_, companies) => {
    const files = buildSearchFiles(companies);
    const json = loadSearchIndex(JSON.parse(JSON.stringify(files.json)));
    const binary = decodeSearchIndex(files.binary);
    let acronyms = 0;
    for (const c of companies) {
      const initials = initialsOf(c.name);
      for (const q of [initials, initials.toUpperCase().split('').join('.')]) {
        const want = findCompanies(json, q, { limit: 20 });
        expect(findCompanies(binary, q, { limit: 20 }), q).toEqual(want);
        if (want[0]?.matchedOn === 'acronym') acronyms++;
      }
    }
    expect(acronyms).toBeGreaterThan(companies.length / 10);
  });

  it('refuses bytes that are not the index, or a truncated one', () => {
    const { binary } = buildSearchFiles(registry.slice(0, 50));
    expect(() => decodeSearchIndex(new TextEncoder().encode('{"v":2}'))).toThrow(/not a EVIS file/);
    expect(() => decodeSearchIndex(binary.subarray(0, binary.byteLength - 64))).toThrow(/out of bounds/);
    const other = binary.slice();
    other[4] = 9;
    expect(() => decodeSearchIndex(other)).toThrow(/format version 9/);
  });
});
