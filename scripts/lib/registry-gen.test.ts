import { describe, expect, it } from 'vitest';
import { COUNTRIES, INDUSTRIES, foldName, generateRegistry, slugify } from './registry-gen.ts';

const MONTHS = ['2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10'];
const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

describe('reference lists', () => {
  it('has the 32 industries and 23 countries of service-spec §2.1', () => {
    expect(INDUSTRIES).toHaveLength(32);
    expect(INDUSTRIES).toContain('Manufacturing & Industrial');
    expect(INDUSTRIES).toContain('FMCG');
    expect(COUNTRIES.map((c) => c.name)).toEqual([
      'Australia', 'Brazil', 'Canada', 'China', 'Denmark', 'France', 'Germany', 'India', 'Ireland', 'Italy',
      'Japan', 'Mexico', 'Netherlands', 'Norway', 'Saudi Arabia', 'Singapore', 'South Korea', 'Spain', 'Sweden',
      'Switzerland', 'United Arab Emirates', 'United Kingdom', 'United States',
    ]);
    expect(COUNTRIES.find((c) => c.code === 'us')?.aliases).toEqual(expect.arrayContaining(['USA', 'US', 'America']));
    const owner = new Map<string, string>();
    for (const c of COUNTRIES) {
      for (const key of [c.code, c.name, ...c.aliases].map((s) => s.toLowerCase())) {
        expect(owner.get(key) ?? c.code, key).toBe(c.code);
        owner.set(key, c.code);
      }
    }
  });
});

describe('slugify', () => {
  it('follows data-and-rules §1.2/§1.3', () => {
    expect(slugify('Société Générale')).toBe('societe-generale');
    expect(slugify('Manufacturing & Industrial')).toBe('manufacturing-industrial');
    expect(slugify('Oil & Gas')).toBe('oil-gas');
    expect(slugify('FMCG')).toBe('fmcg');
    expect(slugify('Northwind Traders, Inc.')).toBe('northwind-traders-inc');
    expect(slugify('Bjørn & Co')).toBe('bjorn-co');
  });
});

describe('generateRegistry', () => {
  const registry = generateRegistry({ companies: 3000, seed: 11, months: MONTHS });

  it('is deterministic per seed', () => {
    expect(generateRegistry({ companies: 3000, seed: 11, months: MONTHS })).toEqual(registry);
    expect(generateRegistry({ companies: 50, seed: 12 })).not.toEqual(generateRegistry({ companies: 50, seed: 11 }));
  });

  it('gives unique, well-formed, derived slugs and unique websites', () => {
    expect(registry).toHaveLength(3000);
    const bad = registry.filter(
      (c) => !SLUG_RE.test(c.slug) || c.slug !== slugify(c.name) || !/^[a-z0-9-]+\.(example|test)$/.test(c.website),
    );
    expect(bad).toEqual([]);
    expect(new Set(registry.map((c) => c.slug)).size).toBe(registry.length);
    expect(new Set(registry.map((c) => c.website)).size).toBe(registry.length);
  });

  it('keeps names, aliases and subsidiaries unique across the registry after folding', () => {
    const owner = new Map<string, string>();
    const bad: string[] = [];
    for (const c of registry) {
      for (const n of [c.name, ...c.aliases, ...c.subsidiaries]) {
        const key = foldName(n);
        if (owner.has(key)) bad.push(`${n} of ${c.slug} also belongs to ${owner.get(key)}`);
        owner.set(key, c.slug);
        if (/[|\n\r"]/.test(n) || n !== n.trim()) bad.push(`malformed: ${JSON.stringify(n)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('uses valid industries and countries', () => {
    const codes = new Set(COUNTRIES.map((c) => c.code));
    const bad = registry.filter(
      (c) =>
        c.industries.length < 1 ||
        c.industries.length > 3 ||
        new Set(c.industries).size !== c.industries.length ||
        !c.industries.every((i) => INDUSTRIES.includes(i)) ||
        c.countries.length < 1 ||
        c.countries.length > 8 ||
        new Set(c.countries).size !== c.countries.length ||
        !c.countries.every((code) => codes.has(code)),
    );
    expect(bad).toEqual([]);
    for (const i of INDUSTRIES) expect(registry.some((c) => c.industries.includes(i))).toBe(true);
  });

  it('mixes the awkward cases the build must handle', () => {
    const share = (pred: (c: (typeof registry)[number]) => boolean): number => registry.filter(pred).length / registry.length;
    const withoutUs = share((c) => !c.countries.includes('us'));
    expect(withoutUs).toBeGreaterThan(0.08);
    expect(withoutUs).toBeLessThan(0.25);
    expect(share((c) => c.trackedSince !== null)).toBeGreaterThan(0.02);
    for (const c of registry) {
      if (c.trackedSince) {
        expect(MONTHS).toContain(c.trackedSince);
        expect(c.trackedSince).not.toBe(MONTHS[0]);
      }
    }
    expect(share((c) => c.name !== c.name.normalize('NFKD').replace(/\p{M}/gu, '') || /[øæß]/i.test(c.name))).toBeGreaterThan(0.01);
    expect(share((c) => c.name.includes(','))).toBeGreaterThan(0.01);
    expect(share((c) => c.name.includes('&'))).toBeGreaterThan(0.01);
    expect(share((c) => c.aliases.length > 0)).toBeGreaterThan(0.5);
    expect(share((c) => c.subsidiaries.length > 0)).toBeGreaterThan(0.1);
    for (const suffix of ['Inc.', 'Ltd', 'LLC', 'GmbH', 'AG', 'SA', 'Group', 'Holdings', '& Co']) {
      expect(registry.some((c) => c.name.endsWith(` ${suffix}`))).toBe(true);
    }
  });

  it('makes more companies than three-syllable names allow, each name and slug unique', () => {
    const big = generateRegistry({ companies: 60_000, seed: 5 });
    expect(big).toHaveLength(60_000);
    expect(new Set(big.map((c) => c.slug)).size).toBe(60_000);
    expect(new Set(big.map((c) => foldName(c.name))).size).toBe(60_000);
  });

  it('leaves trackedSince unset without months', () => {
    expect(generateRegistry({ companies: 200, seed: 3 }).every((c) => c.trackedSince === null)).toBe(true);
  });
});
