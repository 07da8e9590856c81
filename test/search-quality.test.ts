/**
 * Quality floor of the company search on the committed sample registry
 * (data/companies.csv): the labelled query set of test/lib/search-queries.ts must
 * keep top-1 >= 97% on every kind and top-5 >= 99% overall, and every exact name and alias finds its
 * company first. A regression guard; bench:search measures the same at 1k and 20k.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { QUERY_KINDS, generateQueries, type RegistryCompany } from './lib/search-queries.ts';
import { slugify } from '../scripts/lib/registry-gen.ts';
import { buildSearchIndex, loadSearchIndex, searchCompanies } from '../src/core/search/index.ts';

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
const first = (q: string) => searchCompanies(index, q)[0]?.slug;

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
    let top1 = 0;
    let top5 = 0;
    const byKind = new Map<string, [number, number]>();
    const failures: string[] = [];
    for (const q of queries) {
      const slugs = searchCompanies(index, q.query, { limit: 5 }).map((h) => h.slug);
      const k = byKind.get(q.kind) ?? [0, 0];
      byKind.set(q.kind, [k[0] + (slugs[0] === q.expected ? 1 : 0), k[1] + 1]);
      if (slugs[0] === q.expected) top1++;
      else failures.push(`${q.kind}: ${JSON.stringify(q.query)} -> ${slugs.slice(0, 3).join(', ')} (want ${q.expected})`);
      if (slugs.includes(q.expected)) top5++;
    }
    if (failures.length > 0) console.info(`search-quality: ${failures.length}/${queries.length} not first:\n  ${failures.join('\n  ')}`);
    expect(queries.length).toBeGreaterThan(3000);
    for (const [kind, [hit, all]] of byKind) expect(hit / all, kind).toBeGreaterThanOrEqual(0.97);
    expect(top1 / queries.length).toBeGreaterThanOrEqual(0.97);
    expect(top5 / queries.length).toBeGreaterThanOrEqual(0.99);
  });
});
