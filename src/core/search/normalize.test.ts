import { describe, expect, it } from 'vitest';
import { domainLabel, fold, foldWords, hostOf, stripLegal } from './normalize.ts';

describe('fold', () => {
  it.each([
    ['Société Générale', 'societe generale'],
    ['  KESTREL   Aero  ', 'kestrel aero'],
    ['Procter & Gamble', 'procter and gamble'],
    ['Procter&Gamble', 'procter and gamble'],
    ["McDonald's", 'mcdonalds'],
    ['McDonald’s Corp.', 'mcdonalds corp'],
    ['Northwind Traders, Inc.', 'northwind traders inc'],
    ['Coca-Cola', 'coca cola'],
    ['J.P. Morgan', 'jp morgan'],
    ['J P Morgan', 'jp morgan'],
    ['Acme S.A.', 'acme sa'],
    ['Nestlé Øresund Straße Æon', 'nestle oresund strasse aeon'],
    ['Ｋｅｓｔｒｅｌ', 'kestrel'],
    ['Zürich\tRe\n', 'zurich re'],
    ['3M', '3m'],
    ['A 1 B', 'a 1 b'],
    ['Вимм-Билль-Данн', 'вимм билль данн'],
    ['', ''],
    [' -- ', ''],
  ])('%j -> %j', (input, expected) => {
    expect(fold(input)).toBe(expected);
  });

  it('takes the ASCII fast path and the Unicode path to the same words', () => {
    expect(foldWords('Késtrel & Aero, Inc.')).toEqual(foldWords('Kestrel & Aero, Inc.'));
    expect(foldWords('Kestrel & Aero, Inc.')).toEqual(['kestrel', 'and', 'aero', 'inc']);
    expect(foldWords("Kestrel & Aéro's, Inc.")).toEqual(['kestrel', 'and', 'aeros', 'inc']);
  });
});

describe('stripLegal', () => {
  const strip = (s: string) => stripLegal(foldWords(s)).join(' ');
  it.each([
    ['Kestrel Aerospace Group', 'kestrel aerospace'],
    ['Northwind Traders, Inc.', 'northwind traders'],
    ['Umbra Ltd', 'umbra'],
    ['Umbra LLC', 'umbra'],
    ['Umbra GmbH', 'umbra'],
    ['Umbra AG', 'umbra'],
    ['Umbra S.A.', 'umbra'],
    ['Umbra Holdings Inc.', 'umbra'],
    ['Lumellux & Co', 'lumellux'],
    ['The Walt Disney Company', 'walt disney'],
    ['Group', 'group'],
    ['Inc Magazine', 'inc magazine'],
  ])('%j -> %j', (input, expected) => {
    expect(strip(input)).toBe(expected);
  });

  it('returns the list itself when nothing goes', () => {
    const words = ['kestrel', 'aero'];
    expect(stripLegal(words)).toBe(words);
  });
});

describe('hostOf and domainLabel', () => {
  it.each([
    ['https://www.kestrelaero.example/jobs?x=1', 'kestrelaero.example'],
    ['www.kestrelaero.example', 'kestrelaero.example'],
    ['kestrelaero.example', 'kestrelaero.example'],
    ['http://kestrelaero.example:8080', 'kestrelaero.example'],
    ['Kestrel Aero Inc.', 'Kestrel Aero Inc.'],
    ['Kestrel', 'Kestrel'],
  ])('%j -> %j', (input, expected) => {
    expect(hostOf(input)).toBe(expected);
  });

  it('takes the first label of the host', () => {
    expect(domainLabel('www.kestrelaero.example')).toBe('kestrelaero');
    expect(domainLabel('kestrel-aero.co.uk')).toBe('kestrel-aero');
    expect(domainLabel('localhost')).toBe('localhost');
  });
});

describe('stripNoise / splitHosts', () => {
  it('drops words around a name from both ends only, never emptying the query', async () => {
    const { stripNoise } = await import('./normalize.ts');
    expect(stripNoise(['jobs', 'at', 'quill', 'works'])).toEqual(['quill', 'works']);
    expect(stripNoise(['quill', 'works', 'careers'])).toEqual(['quill', 'works']);
    expect(stripNoise(['bank', 'of', 'america', 'reviews'])).toEqual(['bank', 'of', 'america']);
    expect(stripNoise(['careers'])).toEqual(['careers']);
  });

  it('pulls hosts out of a query and keeps the other words', async () => {
    const { splitHosts } = await import('./normalize.ts');
    expect(splitHosts('jobs at https://careers.quillworks.example/jobs')).toEqual({ hosts: ['careers.quillworks.example'], rest: 'jobs at' });
    expect(splitHosts('Kestrel S.A.')).toEqual({ hosts: [], rest: 'Kestrel S.A.' });
    expect(splitHosts('quill works')).toEqual({ hosts: [], rest: 'quill works' });
  });
});
