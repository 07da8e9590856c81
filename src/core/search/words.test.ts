import { describe, expect, it } from 'vitest';
import { SearchResultSchema } from '../schemas/responses.ts';
import type { SearchDoc } from '../views/layout.ts';
import { otherForms, respellings, sameWord } from './abbreviations.ts';
import { buildSearchFiles, decodeSearchIndex, findCompanies, loadSearchIndex, searchCompanies } from './index.ts';
import { foldWords } from './normalize.ts';
import { MATCHED_ON } from './query.ts';
import { initialsOf, mayHold, wordSieve, wordsHeld } from './words.ts';

const DOCS: SearchDoc[] = [
  { slug: 'prescott-pacific-pharmaceuticals', name: 'Prescott Pacific Pharmaceuticals PLC', aliases: [], website: 'prescott.example' },
  { slug: 'pryor-pharmaceuticals', name: 'Pryor Pharmaceuticals PLC', aliases: [], website: 'pryor.example' },
  { slug: 'birchwood-general-retail', name: 'Birchwood General Retail', aliases: [], website: 'bgr.example' },
  { slug: 'birchwood-media', name: 'Birchwood Media', aliases: [], website: 'birchwoodmedia.example' },
  { slug: 'dexter-international-energy', name: 'Dexter International Energy', aliases: [], website: 'dexter.example' },
  { slug: 'dunmore-energy', name: 'Dunmore Energy', aliases: [], website: 'dunmore.example' },
  { slug: 'stanmore-first-sys', name: 'Stanmore First Sys', aliases: [], website: 'stanmore.example' },
  { slug: 'keating-services', name: 'Keating Services PLC', aliases: [], website: 'keating.example' },
  { slug: 'wexford-manufacturing', name: 'Wexford Manufacturing S.A.', aliases: [], website: 'wexford.example' },
  { slug: 'jasper-national-motors', name: 'Jasper National Motors Inc.', aliases: [], website: 'jaspermotors.example' },
  { slug: 'acme-intl', name: 'Acme Intl', aliases: [], website: 'acmeintl.example' },
  { slug: 'acme-international', name: 'Acme International', aliases: [], website: 'acme.example' },
  { slug: 'oakley-atlantic-foods', name: 'Oakley Atlantic Foods', aliases: [], website: 'oaf.example' },
  { slug: 'oakley-pacific-foods', name: 'Oakley Pacific Foods', aliases: [], website: 'oakleypacific.example' },
  { slug: 'saint-albans-energy', name: 'Saint Albans Energy', aliases: [], website: 'albans.example' },
];
const files = buildSearchFiles(DOCS);
/** The binary form, as the API queries it. */
const index = decodeSearchIndex(files.binary);
const first = (q: string) => findCompanies(index, q)[0];

describe('every word found beats a near string', () => {
  it.each([
    ['Prescott Pharmaceuticals', 'prescott-pacific-pharmaceuticals'],
    ['Birchwood Retail', 'birchwood-general-retail'],
    ['Dexter Energy', 'dexter-international-energy'],
    ['dexter energy careers', 'dexter-international-energy'],
    ['Prescot Pharmaceuticals', 'prescott-pacific-pharmaceuticals'],
  ])('%j finds %s, which holds every word, first', (q, slug) => {
    expect(first(q)).toMatchObject({ slug, matchedOn: 'words' });
  });

  it('is sure of a words match held by one company, less so when several hold every word', () => {
    expect(first('Prescott Pharmaceuticals')!.confidence).toBe(0.9);
    const both = findCompanies(index, 'Oakley Foods').slice(0, 2);
    expect(both.map((h) => h.slug).sort()).toEqual(['oakley-atlantic-foods', 'oakley-pacific-foods']);
    for (const h of both) expect(h).toMatchObject({ matchedOn: 'words', confidence: 0.45 });
  });

  it('keeps an exact name first', () => {
    expect(first('Birchwood Media')).toMatchObject({ slug: 'birchwood-media', matchedOn: 'name', score: 1 });
    expect(first('Acme Intl')).toMatchObject({ slug: 'acme-intl', score: 1 });
    expect(first('Acme International')).toMatchObject({ slug: 'acme-international', score: 1 });
  });
});

describe('abbreviations read both ways', () => {
  it.each([
    ['Keating Svcs PLC', 'keating-services'],
    ['Keating Svcs', 'keating-services'],
    ['Stanmore First Systems', 'stanmore-first-sys'],
    ['Wexford Mfg S.A.', 'wexford-manufacturing'],
    ['Jasper Natl Motors', 'jasper-national-motors'],
    ["Dexter Int'l Energy", 'dexter-international-energy'],
    ['St. Albans Energy', 'saint-albans-energy'],
    ['Prescott Pacific Pharma', 'prescott-pacific-pharmaceuticals'],
  ])('%j finds %s as its name', (q, slug) => {
    expect(first(q)).toMatchObject({ slug, matchedOn: 'name' });
  });

  it('has one table, read both ways', () => {
    expect(otherForms('svcs')).toEqual(['services']);
    expect(otherForms('international')).toEqual(['intl']);
    expect(otherForms(foldWords("Int'l")[0]!)).toEqual(['international']);
    expect(otherForms('kestrel')).toEqual([]);
    expect(sameWord('tech', 'technologies') && sameWord('technology', 'tech') && !sameWord('technology', 'technologies')).toBe(true);
    expect(respellings(['keating', 'svcs', 'plc'])).toEqual([['keating', 'services', 'plc']]);
    expect(respellings(['keating'])).toEqual([]);
  });
});

describe('acronyms as a fallback', () => {
  it('answers the one company with those initials, at a low confidence', () => {
    expect(first('JNM')).toMatchObject({ slug: 'jasper-national-motors', matchedOn: 'acronym' });
    expect(searchCompanies(loadSearchIndex(files.json), 'JNM')[0]).toMatchObject({ slug: 'jasper-national-motors', matched: 'Jasper National Motors Inc.' });
    expect(first('j.n.m.')!.slug).toBe('jasper-national-motors');
    expect(first('JNM')!.confidence).toBeLessThanOrEqual(0.4);
    // initials of two companies (Oakley Atlantic / Pacific Foods: oaf, opf; Acme Intl, Acme International: ai)
    expect(findCompanies(index, 'ai').some((h) => h.matchedOn === 'acronym')).toBe(false);
    // a name that starts with the letters is a better answer than initials
    expect(first('dex')).toMatchObject({ slug: 'dexter-international-energy', matchedOn: 'prefix' });
  });

  it('respects the filter', () => {
    expect(findCompanies(index, 'JNM', { filter: (s) => s !== 'jasper-national-motors' }).some((h) => h.matchedOn === 'acronym')).toBe(false);
  });
});

describe('word helpers', () => {
  it('wordsHeld tells words found as typed or abbreviated (2), within typos (1), or missing (0)', () => {
    const held = new Uint8Array(4);
    const lists = ['Prescott Pacific Pharmaceuticals PLC', 'Pryor Pharmaceuticals', 'Prescott Pacific Pharma', 'Prescot Pacific Pharmaceuticals'].map(foldWords);
    wordsHeld(['prescott', 'pharmaceuticals'], lists, held);
    expect([...held]).toEqual([2, 0, 2, 1]);
  });

  it('mayHold never rules out a name that holds the words', () => {
    const sieve = wordSieve(['prescot', 'svcs']);
    expect(mayHold(sieve, 'prescottpacificservices')).toBe(true);
    expect(mayHold(sieve, 'pryorservices')).toBe(false);
  });

  it('initialsOf leaves out legal form, the and &', () => {
    expect(initialsOf('Jasper National Motors Inc.')).toBe('jnm');
    expect(initialsOf('The Keating & Wexford Group')).toBe('kw');
    expect(initialsOf('Keating and Wexford PLC')).toBe('kw');
  });
});

describe('matchedOn', () => {
  it('lists in the API schema every value the engine answers', () => {
    expect([...SearchResultSchema.shape.matchedOn.options].sort()).toEqual([...MATCHED_ON].sort());
  });
});
