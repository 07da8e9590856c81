/**
 * The registry rules of docs/spec/data-and-rules.md §1.1–§1.3 and §1.5, on hand-made tables.
 * Expected values are worked out by hand from the rule, in the comments, never by calling the code.
 */
import { describe, expect, it } from 'vitest';
import { IssueList } from './data-error.ts';
import { buildLookups, buildRegistry, type Registry } from './registry.ts';
import { COMPANY_COLUMNS, COUNTRY_COLUMNS, INDUSTRY_COLUMNS } from './schemas/rows.ts';
import { foldKey, foldName } from './text.ts';

/** A table as the CSV reader hands it: header on line 1, one record per line from line 2 ('|' lists as in the files). */
function table(file: string, header: readonly string[], lines: string[][]) {
  return {
    file,
    header: [...header],
    rows: lines.map((cells, i) => ({ line: i + 2, record: Object.fromEntries(header.map((h, j) => [h, cells[j] ?? ''])) })),
  };
}

const COUNTRIES = [
  ['us', 'United States', 'USA|US|America'],
  ['gb', 'United Kingdom', 'UK|Great Britain'],
  ['ae', 'United Arab Emirates', 'UAE'],
];
const INDUSTRIES = [['Aerospace'], ['Manufacturing & Industrial'], ['Oil & Gas'], ['FMCG']];

function build(companies: string[][], countries = COUNTRIES, industries = INDUSTRIES): { reg: Registry; issues: IssueList } {
  const issues = new IssueList();
  const reg = buildRegistry(
    {
      countries: table('countries.csv', COUNTRY_COLUMNS, countries),
      industries: table('industries.csv', INDUSTRY_COLUMNS, industries),
      companies: table('companies.csv', COMPANY_COLUMNS, companies),
    },
    issues,
  );
  return { reg, issues };
}

// slug,name,website,industries,countries,aliases,tracked_since
const KESTREL = ['', 'Kestrel Aerospace Group', 'kestrelaero.example', 'Aerospace', 'us|gb', 'Kestrel Aero|KAG|Kestrel Defense Systems', ''];
const NORTHWIND = ['northwind', 'Northwind Traders, Inc.', 'northwind.example', 'FMCG', 'us', 'Northwind', '2026-03'];

describe('§1.1 a country parameter matches code, name or alias, case-insensitively, blanks ignored', () => {
  const { reg, issues } = build([KESTREL]);
  it.each([
    ['us', 'us'],
    ['  US ', 'us'], // code, other case, surrounding blanks
    ['united states', 'us'], // name, folded
    ['America', 'us'], // alias
    ['great britain', 'gb'], // alias with an inner blank
    ['uae', 'ae'],
  ])('%j -> %s', (given, code) => {
    expect(issues.items).toEqual([]);
    expect(reg.countryByKey.get(foldKey(given))?.code).toBe(code);
  });
  it('names nothing else', () => {
    expect(reg.countryByKey.get(foldKey('Atlantis'))).toBeUndefined();
    expect(reg.countryByKey.get(foldKey('U S A'))).toBeUndefined(); // inner blanks are not ignored for countries
  });
  it('keeps the display name and aliases of countries.csv', () => {
    expect(reg.countries.map((c) => [c.code, c.name, c.aliases])).toEqual([
      ['us', 'United States', ['USA', 'US', 'America']],
      ['gb', 'United Kingdom', ['UK', 'Great Britain']],
      ['ae', 'United Arab Emirates', ['UAE']],
    ]);
  });
});

describe('§1.2 the industry slug: lowercase, & dropped, non-alphanumeric runs become one -, no edge -', () => {
  const { reg } = build([KESTREL]);
  it('derives manufacturing-industrial, oil-gas, fmcg', () => {
    // "Manufacturing & Industrial" -> "manufacturing  industrial" (& dropped) -> one "-" for the run of two blanks.
    expect(reg.industries.map((i) => [i.name, i.slug])).toEqual([
      ['Aerospace', 'aerospace'],
      ['Manufacturing & Industrial', 'manufacturing-industrial'],
      ['Oil & Gas', 'oil-gas'],
      ['FMCG', 'fmcg'],
    ]);
  });
  it('an industry parameter matches name or slug, case-insensitively', () => {
    for (const given of ['Oil & Gas', 'oil & gas', 'OIL-GAS', 'oil-gas']) expect(reg.industryByKey.get(foldKey(given))?.name).toBe('Oil & Gas');
    expect(reg.industryByKey.get(foldKey('oil gas'))).toBeUndefined();
  });
});

describe('§1.3 the company registry', () => {
  it('derives a blank slug from the name with diacritics removed, and keeps a given one', () => {
    const { reg, issues } = build([
      ['', 'Société Générale', 'sg.example', 'FMCG', 'gb', '', ''],
      KESTREL,
      NORTHWIND,
    ]);
    expect(issues.items).toEqual([]);
    // Société Générale -> societe-generale (§1.3's own example); Kestrel Aerospace Group -> kestrel-aerospace-group.
    // The registry is kept in slug order: kestrel-… < northwind < societe-….
    expect(reg.companies.map((c) => c.slug)).toEqual(['kestrel-aerospace-group', 'northwind', 'societe-generale']);
    expect(reg.companies.map((c) => c.idx)).toEqual([0, 1, 2]);
    expect(reg.companyBySlug.get('northwind')?.name).toBe('Northwind Traders, Inc.');
  });

  it('reads the | lists and tracked_since (blank -> none)', () => {
    const { reg } = build([KESTREL, NORTHWIND]);
    const k = reg.companyBySlug.get('kestrel-aerospace-group')!;
    expect([k.industries, k.countries, k.aliases, k.trackedSince]).toEqual([['Aerospace'], ['us', 'gb'], ['Kestrel Aero', 'KAG', 'Kestrel Defense Systems'], null]);
    expect(reg.companyBySlug.get('northwind')!.trackedSince).toBe('2026-03');
  });

  it('resolves industries by slug and countries by name or alias to their canonical form', () => {
    // "oil-gas" is the slug of "Oil & Gas"; "UK" an alias of gb; "United States" the name of us.
    const { reg, issues } = build([['', 'Petrel', 'petrel.example', 'oil-gas|aerospace', 'UK|United States', '', '']]);
    expect(issues.items).toEqual([]);
    expect(reg.companies[0]!.industries).toEqual(['Oil & Gas', 'Aerospace']);
    expect(reg.companies[0]!.countries).toEqual(['gb', 'us']);
  });
});

describe('§1.4 a company name resolves after trimming, folding case, collapsing blanks and removing diacritics', () => {
  const { reg } = build([KESTREL, NORTHWIND, ['', 'Société Générale', 'sg.example', 'FMCG', 'gb', 'SocGen', '']]);
  it.each([
    ['Kestrel Aerospace Group', 'kestrel-aerospace-group'], // canonical name
    ['  kestrel   AERO ', 'kestrel-aerospace-group'], // alias, trimmed, case folded, inner blanks collapsed
    ['kag', 'kestrel-aerospace-group'], // alias
    ['Kestrel Defense Systems', 'kestrel-aerospace-group'], // subsidiary
    ['northwind traders, inc.', 'northwind'],
    ['Societe Generale', 'societe-generale'], // diacritics removed on the answer's side
    ['SOCIÉTÉ GÉNÉRALE', 'societe-generale'],
    ['socgen', 'societe-generale'],
  ])('%j -> %s', (named, slug) => expect(reg.companyByName.get(foldName(named))?.slug).toBe(slug));
  it('a near miss resolves to nothing', () => {
    for (const named of ['Kestrel', 'Kestrel Aerospace', 'Northwind Traders', 'Orbital Works']) expect(reg.companyByName.get(foldName(named))).toBeUndefined();
  });
});

describe('§3 name order: Intl.Collator en, base sensitivity, numeric, then slug', () => {
  it('orders case-insensitively, numbers by value, an accented letter as its base letter', () => {
    const { reg, issues } = build([
      ['', 'beta', 'b.example', 'FMCG', 'us', '', ''],
      ['', 'Alpha', 'a.example', 'FMCG', 'us', '', ''],
      ['', 'Unit 10', 'u10.example', 'FMCG', 'us', '', ''],
      ['', 'Unit 9', 'u9.example', 'FMCG', 'us', '', ''],
      ['', 'Edge', 'ed.example', 'FMCG', 'us', '', ''],
      ['', 'Éclair', 'ec.example', 'FMCG', 'us', '', ''],
      ['', 'Eagle', 'ea.example', 'FMCG', 'us', '', ''],
    ]);
    expect(issues.items).toEqual([]);
    // Alpha < beta (case ignored) < Eagle < Éclair (É read as E) < Edge < Unit 9 < Unit 10 (numeric, not "1" < "9").
    const byName = reg.companies.slice().sort((a, b) => a.nameOrder - b.nameOrder).map((c) => c.name);
    expect(byName).toEqual(['Alpha', 'beta', 'Eagle', 'Éclair', 'Edge', 'Unit 9', 'Unit 10']);
  });

  it('two names that differ only by accents are one name (they would resolve alike, §1.4)', () => {
    const { issues } = build([
      ['zz-eclair', 'Éclair', 'e1.example', 'FMCG', 'us', '', ''],
      ['aa-eclair', 'Eclair', 'e2.example', 'FMCG', 'us', '', ''],
    ]);
    expect(issues.items.map((i) => [i.line, i.columnName])).toEqual([[3, 'name']]);
  });
});

describe('§1.5 bad registry rows stop the build with file, line, column and the nearest valid value', () => {
  const located = (issues: IssueList) => issues.items.map((i) => [i.file, i.line, i.column, i.columnName]);

  it('an unknown industry or country names the column and suggests the nearest value', () => {
    const { reg, issues } = build([['', 'Kestrel', 'k.example', 'Aerospac', 'us|gx', '', '']]);
    // Line 2 is the first record; industries is column 4, countries column 5.
    expect(located(issues)).toEqual([
      ['companies.csv', 2, 4, 'industries'],
      ['companies.csv', 2, 5, 'countries'],
    ]);
    expect(issues.items[0]!.message).toContain('"Aerospace"');
    expect(reg.companies).toEqual([]);
  });

  it('a duplicate slug, given or derived, is an error on the second row', () => {
    const { issues } = build([KESTREL, ['kestrel-aerospace-group', 'Kestrel Two', 'k2.example', 'Aerospace', 'us', '', '']]);
    expect(located(issues)).toEqual([['companies.csv', 3, 1, 'slug']]);
    expect(issues.items[0]!.message).toContain('line 2');
  });

  it('a duplicate name is an error, case-insensitively', () => {
    const { issues } = build([KESTREL, ['kag2', 'KESTREL AEROSPACE GROUP', 'k2.example', 'Aerospace', 'us', '', '']]);
    expect(located(issues)).toEqual([['companies.csv', 3, 2, 'name']]);
  });

  it('an alias with two owners is an error', () => {
    const { issues } = build([KESTREL, ['', 'Kestrel Air', 'ka.example', 'Aerospace', 'us', 'kag', '']]);
    // "kag" folds to the same key as Kestrel Aerospace Group's alias "KAG" (row 2).
    expect(located(issues)).toEqual([['companies.csv', 3, 6, 'aliases']]);
    expect(issues.items[0]!.message).toContain('Kestrel Aerospace Group');
  });

  it('a malformed tracked_since, slug or website is an error in its column', () => {
    const { issues } = build([
      ['', 'A', 'a.example', 'FMCG', 'us', '', '2026-13'],
      ['Bad_Slug', 'B', 'b.example', 'FMCG', 'us', '', ''],
      ['', 'C', 'https://c.example/', 'FMCG', 'us', '', ''],
      ['', 'D', 'd.example', '', 'us', '', ''],
    ]);
    expect(located(issues)).toEqual([
      ['companies.csv', 2, 7, 'tracked_since'],
      ['companies.csv', 3, 1, 'slug'],
      ['companies.csv', 4, 3, 'website'],
      ['companies.csv', 5, 4, 'industries'],
    ]);
  });

  it('a country name or alias that already names another country is an error', () => {
    const { issues } = build([KESTREL], [...COUNTRIES, ['um', 'Minor Outlying Islands', 'US']]);
    // "US" is an alias of us (line 2); the fourth country (line 5) claims it again.
    expect(located(issues)).toEqual([['countries.csv', 5, 3, 'aliases']]);
  });
});

describe('the countries and industries on their own (buildLookups, what a build resolves the month files through before companies.csv is read)', () => {
  it('are the registry’s, and the registry built on them has the same problems in the same order', () => {
    const files = (companies: string[][], countries: string[][]) => ({
      countries: table('countries.csv', COUNTRY_COLUMNS, countries),
      industries: table('industries.csv', INDUSTRY_COLUMNS, [...INDUSTRIES, ['oil-gas']]),
      companies: table('companies.csv', COMPANY_COLUMNS, companies),
    });
    // A country alias claimed twice (countries.csv line 5), "oil-gas" naming Oil & Gas again
    // (industries.csv line 6: its name and its slug are both Oil & Gas's slug, two problems),
    // an unknown industry (companies.csv line 2).
    const countries = [...COUNTRIES, ['um', 'Minor Outlying Islands', 'US']];
    const companies = [['', 'Kestrel Aero', 'kestrel.example', 'Aerospce', 'us', '', '']];
    const whole = new IssueList();
    const reg = buildRegistry(files(companies, countries), whole);
    const split = new IssueList();
    const lookups = buildLookups(files(companies, countries), split);
    expect(split.items.map((i) => [i.file, i.line])).toEqual([
      ['countries.csv', 5],
      ['industries.csv', 6],
      ['industries.csv', 6],
    ]);
    const again = buildRegistry(files(companies, countries), split, lookups);
    expect(split.items).toEqual(whole.items);
    expect(split.items.map((i) => [i.file, i.line])).toEqual([
      ['countries.csv', 5],
      ['industries.csv', 6],
      ['industries.csv', 6],
      ['companies.csv', 2],
    ]);
    expect(again).toEqual(reg);
    expect(again.countries).toBe(lookups.countries);
    expect(again.industryByKey).toBe(lookups.industryByKey);
  });
});
