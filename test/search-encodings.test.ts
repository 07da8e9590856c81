/**
 * The search index's two encodings: the API queries the binary index
 * (views/search-index.bin) in place; the pages' search box loads the JSON (v2). Both must
 * give the same answers, hit for hit, on every labelled query. The quality bar itself is
 * test/search-quality.test.ts, on the binary index.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateNamedRegistry } from './lib/search-names.ts';
import { generateQueries, readRegistry } from './lib/search-queries.ts';
import { generateRegistry } from '../scripts/lib/registry-gen.ts';
import { buildSearchFiles, decodeSearchIndex, loadSearchIndex, findCompanies } from '../src/core/search/index.ts';
import { initialsOf } from '../src/core/search/words.ts';

const registry = readRegistry(resolve(import.meta.dirname, '../data/companies.csv'));

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

});
