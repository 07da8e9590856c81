import { describe, expect, it } from 'vitest';
import type { SearchDoc } from '../views/layout.ts';
import { addGrams, newGramSet } from './grams.ts';
import { partEnds } from './sections.ts';
import type { Strings } from './strings.ts';
import { betterOutside, buildSearchFiles, buildSearchIndex, decodeSearchIndex, findCompanies, loadSearchIndex, searchCompanies, type SearchIndex } from './index.ts';

const DOCS: SearchDoc[] = [
  { slug: 'kestrel-aerospace-group', name: 'Kestrel Aerospace Group', aliases: ['Kestrel Aero', 'KAG', 'Kestrel Defense Systems'], website: 'kestrelaero.example' },
  { slug: 'kestrel-aero-parts', name: 'Kestrel Aero Parts', aliases: [], website: 'kestrelparts.example' },
  { slug: 'northwind', name: 'Northwind Traders, Inc.', aliases: ['Northwind'], website: 'northwind.example' },
  { slug: 'societe-generale', name: 'Société Générale', aliases: ['SocGen'], website: 'societegenerale.example' },
  { slug: 'procter-gamble', name: 'Procter & Gamble', aliases: ['P&G'], website: 'pg.example' },
  { slug: 'orbital-works', name: 'Orbital Works', aliases: ['Orbital'], website: 'orbitalworks.example' },
  { slug: 'orbitalia', name: 'Orbitalia Holdings', aliases: [], website: 'orbitalia.example' },
];

const index = loadSearchIndex(buildSearchIndex(DOCS));
const listOf = (s: Strings): string[] => Array.from({ length: s.length }, (_, i) => s.get(i));
const top = (q: string, idx: SearchIndex = index) => searchCompanies(idx, q)[0]?.slug;

describe('searchCompanies', () => {
  it.each([
    ['Kestrel Aerospace Group', 'kestrel-aerospace-group'],
    ['kestrel aerospace group', 'kestrel-aerospace-group'],
    ['Kestrel Aerospace', 'kestrel-aerospace-group'],
    ['KestrelAero', 'kestrel-aerospace-group'],
    ['kestrel defense systems', 'kestrel-aerospace-group'],
    ['Kestrel Aerospce Group', 'kestrel-aerospace-group'],
    ['Kestrel Aerospace Grop', 'kestrel-aerospace-group'],
    ['kag', 'kestrel-aerospace-group'],
    ['kestrel-aerospace-group', 'kestrel-aerospace-group'],
    ['kestrelaero.example', 'kestrel-aerospace-group'],
    ['https://www.kestrelaero.example/careers', 'kestrel-aerospace-group'],
    ['kestrelaero', 'kestrel-aerospace-group'],
    ['Northwind Traders', 'northwind'],
    ['northwind traders ltd', 'northwind'],
    ['Societe Generale', 'societe-generale'],
    ['SOCIÉTÉ GÉNÉRALE S.A.', 'societe-generale'],
    ['Procter and Gamble', 'procter-gamble'],
    ['P & G', 'procter-gamble'],
    ['Proctor & Gamble', 'procter-gamble'],
    ['Orbital', 'orbital-works'],
    ['Orbita', 'orbital-works'],
  ])('%j finds %s first', (query, slug) => {
    expect(top(query)).toBe(slug);
  });

  it('ranks an exact alias first, above a longer name it prefixes', () => {
    const hits = searchCompanies(index, 'Kestrel Aero');
    expect(hits.map((h) => h.slug)).toEqual(['kestrel-aerospace-group', 'kestrel-aero-parts']);
    expect(hits[0]).toEqual({ slug: 'kestrel-aerospace-group', score: 0.99, matched: 'Kestrel Aero', matchedOn: 'alias', confidence: 0.99 });
    expect(hits[1]!.score).toBeLessThan(0.99);
  });

  it('scores an exact name 1 and reports what matched', () => {
    expect(searchCompanies(index, 'orbital works', { limit: 1 })).toEqual([{ slug: 'orbital-works', score: 1, matched: 'Orbital Works', matchedOn: 'name', confidence: 1 }]);
    expect(searchCompanies(index, 'northwind traders')[0]).toMatchObject({ slug: 'northwind', matched: 'Northwind Traders, Inc.' });
  });

  it('returns scores in descending order and nothing for blank or junk queries', () => {
    const scores = searchCompanies(index, 'kestrel', { limit: 20 }).map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(searchCompanies(index, '')).toEqual([]);
    expect(searchCompanies(index, '   ')).toEqual([]);
    expect(searchCompanies(index, '?!&-')).toEqual(searchCompanies(index, 'and'));
    expect(searchCompanies(index, 'qqqqqqqq')).toEqual([]);
    expect(searchCompanies(index, 'x'.repeat(5000)).length).toBeLessThanOrEqual(5);
  });

  it('exact name or alias always ranks first, even against many near names', () => {
    const docs: SearchDoc[] = [{ slug: 'nova', name: 'Nova', aliases: ['Nova Labs Intl'], website: 'nova.example' }];
    for (let i = 0; i < 40; i++) docs.push({ slug: `nova-${i}`, name: `Nova ${i} Labs`, aliases: [`Nova Lab ${i}`], website: `nova${i}.example` });
    const idx = loadSearchIndex(buildSearchIndex(docs));
    expect(top('nova', idx)).toBe('nova');
    expect(top('NOVA LABS INTL', idx)).toBe('nova');
    expect(top('Nova Lab 7', idx)).toBe('nova-7');
  });

  it('breaks ties deterministically: name before alias, then slug order', () => {
    const docs: SearchDoc[] = [
      { slug: 'cafe-nord-b', name: 'Café Nord', aliases: [], website: 'b.example' },
      { slug: 'cafe-nord-a', name: 'Cafe Nord', aliases: [], website: 'a.example' },
      { slug: 'cafe-nord-c', name: 'Nord Coffee', aliases: ['CAFE NORD'], website: 'c.example' },
    ];
    const idx = loadSearchIndex(buildSearchIndex(docs));
    const hits = searchCompanies(idx, 'cafe nord');
    expect(hits.map((h) => [h.slug, h.score])).toEqual([
      ['cafe-nord-a', 1],
      ['cafe-nord-b', 1],
      ['cafe-nord-c', 0.99],
    ]);
    const reversed = loadSearchIndex(buildSearchIndex([...docs].reverse()));
    expect(searchCompanies(reversed, 'cafe nord')).toEqual(hits);
    expect(searchCompanies(reversed, 'cafe nrd', { limit: 20 })).toEqual(searchCompanies(idx, 'cafe nrd', { limit: 20 }));
  });

  it.each([
    ['Works Orbital', 'orbital-works'],
    ['traders northwind', 'northwind'],
    ['Generale Societe', 'societe-generale'],
    ['aero kestrel', 'kestrel-aerospace-group'],
    ['Gamble & Procter', 'procter-gamble'],
    ['jobs at Orbital Works', 'orbital-works'],
    ['Orbital Works careers', 'orbital-works'],
    ['orbital works reviews', 'orbital-works'],
    ['The Orbital Works', 'orbital-works'],
    ['careers at works orbital', 'orbital-works'],
    ['jobs at kestrelaero.example', 'kestrel-aerospace-group'],
    ['careers.kestrelaero.example/jobs', 'kestrel-aerospace-group'],
    ['https://jobs.northwind.example/open-roles', 'northwind'],
    ['ProcterAndGamble', 'procter-gamble'],
    ['jobs at Orbitl Works', 'orbital-works'],
  ])('%j (reordered, words around the name, careers URL) finds %s first', (query, slug) => {
    expect(top(query)).toBe(slug);
  });

  it('says what matched and how sure it is', () => {
    const on = (q: string) => searchCompanies(index, q)[0]!;
    expect(on('Orbital Works')).toMatchObject({ matchedOn: 'name', confidence: 1 });
    expect(on('kestrel-aerospace-group')).toMatchObject({ matchedOn: 'name' });
    expect(on('SocGen')).toMatchObject({ matchedOn: 'alias', matched: 'SocGen' });
    expect(on('pg.example')).toMatchObject({ matchedOn: 'domain', matched: 'pg.example' });
    expect(on('Kestrel Aeros')).toMatchObject({ slug: 'kestrel-aerospace-group', matchedOn: 'prefix' });
    expect(on('Orbittal Wroks')).toMatchObject({ slug: 'orbital-works', matchedOn: 'fuzzy' });
    expect(on('Works Orbital')).toMatchObject({ matchedOn: 'name', score: 0.94 });
    for (const q of ['kestrel', 'orbit', 'northwnd', 'Works Orbital', 'jobs at nothing']) {
      for (const h of searchCompanies(index, q, { limit: 20 })) {
        expect(h.confidence).toBeGreaterThanOrEqual(0);
        expect(h.confidence).toBeLessThanOrEqual(h.score);
      }
    }
    // `Kestrel` prefixes two companies about equally: less sure than an exact name
    expect(on('kestrel').confidence).toBeLessThan(on('kestrel').score);
  });

  it('betterOutside names a better match the filter dropped, and nothing when the filtered best is as good', () => {
    const notOrbital = (slug: string) => slug !== 'orbital-works';
    const hits = searchCompanies(index, 'orbital works', { filter: notOrbital });
    expect(hits.map((h) => h.slug)).not.toContain('orbital-works');
    expect(betterOutside(index, 'orbital works', hits)).toMatchObject({ slug: 'orbital-works', score: 1, matchedOn: 'name' });
    const all = searchCompanies(index, 'orbital works');
    expect(betterOutside(index, 'orbital works', all)).toBeUndefined();
    expect(betterOutside(index, 'qqqqqqqq', [])).toBeUndefined();
  });

  describe('limit and filter', () => {
    const docs: SearchDoc[] = [];
    for (let i = 0; i < 300; i++) {
      const n = String(i).padStart(3, '0');
      docs.push({ slug: `orbital-works-${n}`, name: `Orbital Works ${n}`, aliases: [], website: `ow${n}.example` });
    }
    const idx = loadSearchIndex(buildSearchIndex(docs));

    it('defaults to 5, caps at 20, floors at 1', () => {
      expect(searchCompanies(idx, 'orbital works')).toHaveLength(5);
      expect(searchCompanies(idx, 'orbital works', { limit: 12 })).toHaveLength(12);
      expect(searchCompanies(idx, 'orbital works', { limit: 100 })).toHaveLength(20);
      expect(searchCompanies(idx, 'orbital works', { limit: 0 })).toHaveLength(1);
    });

    it('filters before the limit: a filtered query still fills the limit', () => {
      const accept = (slug: string) => slug.endsWith('7');
      for (const q of ['orbital works', 'orbital', 'orbitl works']) {
        const hits = searchCompanies(idx, q, { limit: 20, filter: accept });
        expect(hits, q).toHaveLength(20);
        expect(hits.every((h) => accept(h.slug)), q).toBe(true);
      }
    });

    it('filters before the fuzzy short list: a company beyond it is still found', () => {
      const only = 'orbital-works-297';
      expect(searchCompanies(idx, 'orbitl wroks 297', { filter: (s) => s === only })).toMatchObject([{ slug: only }]);
      expect(searchCompanies(idx, 'orbitl wroks', { filter: (s) => s === only })).toMatchObject([{ slug: only }]);
    });

    it('calls the filter at most once per company and query', () => {
      const seen = new Map<string, number>();
      searchCompanies(idx, 'orbital works 1', { limit: 20, filter: (s) => (seen.set(s, (seen.get(s) ?? 0) + 1), true) });
      expect(Math.max(...seen.values())).toBe(1);
    });
  });
});

describe('buildSearchIndex / loadSearchIndex', () => {
  it('is plain JSON, sorted by slug, aliases trimmed, de-duplicated and sorted', () => {
    const data = buildSearchIndex([
      { slug: 'b', name: ' Beta ', aliases: ['Zed', ' Alpha ', 'Zed', '', 'Beta'], website: 'b.example' },
      { slug: 'a', name: 'Alpha Co', aliases: [], website: 'a.example' },
    ]);
    expect(data.v).toBe(2);
    expect(data.docs).toEqual([['a', 'Alpha Co', 'a.example'], ['b', 'Beta', 'b.example', 'Alpha', 'Zed']]);
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it('gives the same bytes for the same registry in any order', () => {
    const a = JSON.stringify(buildSearchIndex(DOCS));
    const b = JSON.stringify(buildSearchIndex([...DOCS].reverse().map((d) => ({ ...d, aliases: [...d.aliases].reverse() }))));
    expect(b).toBe(a);
  });

  it('round-trips through JSON text with identical answers', () => {
    const parsed = loadSearchIndex(JSON.parse(JSON.stringify(buildSearchIndex(DOCS))));
    for (const q of ['kestrel', 'Kestrel Aero', 'northwnd', 'kestrelaero.example', 'soc gen', 'orbit']) {
      expect(searchCompanies(parsed, q, { limit: 20 })).toEqual(searchCompanies(index, q, { limit: 20 }));
    }
  });

  it('rejects duplicate slugs and data that is not an index', () => {
    expect(() => buildSearchIndex([DOCS[0]!, DOCS[0]!])).toThrow(/duplicate slug/);
    expect(() => loadSearchIndex({ v: 2, docs: [] } as never)).toThrow(/not a v1 or v2/);
    expect(() => loadSearchIndex({ v: 3, docs: [] } as never)).toThrow(/not a v1 or v2/);
    expect(() => loadSearchIndex(null as never)).toThrow(/not a v1 or v2/);
  });

  it('v2 (precomputed forms) answers exactly like v1 (registry text folded at load)', () => {
    const v2 = buildSearchIndex(DOCS);
    const v1 = loadSearchIndex({ v: 1, docs: v2.docs });
    const fast = loadSearchIndex(JSON.parse(JSON.stringify(v2)));
    expect(listOf(fast.forms)).toEqual(listOf(v1.forms));
    expect(listOf(fast.forms).length).toBeGreaterThan(DOCS.length);
    for (const q of ['kestrel', 'Kestrel Aero', 'northwnd', 'kestrelaero.example', 'soc gen', 'orbit', 'works orbital', 'jobs at P&G', 'kag']) {
      expect(searchCompanies(fast, q, { limit: 20 }), q).toEqual(searchCompanies(v1, q, { limit: 20 }));
    }
  });

  it('refuses a v2 file whose parts do not fit together', () => {
    const v2 = buildSearchIndex(DOCS);
    expect(() => loadSearchIndex({ ...v2, keyCounts: v2.keyCounts.slice(1) })).toThrow(/not a v1 or v2/);
    expect(() => loadSearchIndex({ ...v2, keyCounts: '9'.repeat(v2.docs.length) })).toThrow(/key counts/);
  });

  it('fills the trigram lists with the buckets the query path hashes (addGrams)', () => {
    const idx = loadSearchIndex(buildSearchIndex(DOCS));
    const expected = new Map<number, number[]>();
    const grams: number[] = [];
    for (let d = 0; d < idx.slugs.length; d++) {
      newGramSet(grams);
      for (let k = idx.keyStart[d]!; k < idx.keyStart[d + 1]!; k++) {
        addGrams(idx.keyCompact.get(k), grams);
        addGrams(idx.keyFull.get(k), grams);
      }
      for (const h of grams) expected.set(h, [...(expected.get(h) ?? []), d]);
    }
    // each list: its count, then each company's gap from the previous one (from -1), LEB128
    const actual = new Map<number, number[]>();
    for (let h = 0; h + 1 < idx.gramStart.length; h++) {
      const values: number[] = [];
      for (let at = idx.gramStart[h]!; at < idx.gramStart[h + 1]!; ) {
        let n = 0;
        for (let shift = 0, more = true; more; shift += 7) {
          const b = idx.gramBytes[at++]!;
          n |= (b & 0x7f) << shift;
          more = b >= 0x80;
        }
        values.push(n);
      }
      if (values.length === 0) continue;
      const docs = values.slice(1).map((gap, i, gaps) => gaps.slice(0, i + 1).reduce((a, b) => a + b, -1));
      expect(docs.length).toBe(values[0]);
      actual.set(h, docs);
    }
    expect(actual).toEqual(expected);
    expect(actual.size).toBeGreaterThan(50);
  });

  it('binary form: the same answers with code units past Latin-1 (two-byte pool) and within it (one-byte pool)', () => {
    const wide = [...DOCS, { slug: 'tokyo-omega', name: 'Ωmega 東京 Łódź', aliases: ['Омега'], website: 'omega.example' }];
    for (const docs of [DOCS, wide]) {
      const files = buildSearchFiles(docs);
      const json = loadSearchIndex(JSON.parse(JSON.stringify(files.json)));
      const binary = decodeSearchIndex(files.binary);
      expect(listOf(binary.keyCompact)).toEqual(listOf(json.keyCompact));
      expect(listOf(binary.keyFull)).toEqual(listOf(json.keyFull));
      expect(listOf(binary.forms)).toEqual(listOf(json.forms));
      for (const q of ['kestrel', 'Ωmega', '東京', 'омега', 'lodz', 'works orbital', 'soc gen']) {
        expect(findCompanies(binary, q, { limit: 20 }), q).toEqual(findCompanies(json, q, { limit: 20 }));
      }
    }
    expect(findCompanies(decodeSearchIndex(buildSearchFiles(wide).binary), 'Омега')[0]?.slug).toBe('tokyo-omega');
  });

  it('binary form: the same answers read from the parts a file is cut into, between sections or anywhere', () => {
    const bytes = buildSearchFiles(DOCS).binary;
    const whole = decodeSearchIndex(bytes);
    const cut = (ends: number[]) => ends.map((end, n) => bytes.slice(n === 0 ? 0 : ends[n - 1], end));
    const third = Math.floor(bytes.byteLength / 3);
    for (const parts of [cut(partEnds(bytes, 256)), cut([third, 2 * third + 1, bytes.byteLength]), cut([bytes.byteLength])]) {
      const index = decodeSearchIndex(parts);
      for (const q of ['kestrel', 'works orbital', 'soc gen', 'kestral aero']) expect(findCompanies(index, q, { limit: 20 }), q).toEqual(findCompanies(whole, q, { limit: 20 }));
    }
  });

  it('loads an empty registry', () => {
    expect(findCompanies(loadSearchIndex(buildSearchIndex([])), 'kestrel')).toEqual([]);
    expect(findCompanies(decodeSearchIndex(buildSearchFiles([]).binary), 'kestrel')).toEqual([]);
  });
});
