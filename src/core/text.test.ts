import { describe, expect, it } from 'vitest';
import { compareNames, foldName, slugify } from './text.ts';

describe('slugify (data-and-rules §1.2, §1.3)', () => {
  it.each([
    ['Manufacturing & Industrial', 'manufacturing-industrial'],
    ['Oil & Gas', 'oil-gas'],
    ['FMCG', 'fmcg'],
    ['Société Générale', 'societe-generale'],
    ['Northwind Traders, Inc.', 'northwind-traders-inc'],
    ['  Ørsted -- Nørd  ', 'orsted-nord'],
    ['Straße 9', 'strasse-9'],
  ])('%s -> %s', (name, slug) => expect(slugify(name)).toBe(slug));
});

describe('foldName (§1.4 resolution key)', () => {
  it('trims, folds case, collapses inner blanks and removes diacritics', () => {
    expect(foldName('  KESTREL   Aéro\t')).toBe('kestrel aero');
    expect(foldName('Société Générale')).toBe(foldName('societe generale'));
  });
  it('keeps punctuation, which tells names apart', () => {
    expect(foldName('A.B. Labs')).not.toBe(foldName('AB Labs'));
  });
});

describe('compareNames (§3 collator)', () => {
  it('orders numbers by value and ignores case and accents', () => {
    expect(['Zeta 10', 'zeta 9', 'Alpha'].sort(compareNames)).toEqual(['Alpha', 'zeta 9', 'Zeta 10']);
    expect(compareNames('Éclair', 'eclair')).toBe(0);
  });
});
