/**
 * Runs the search code once over a tiny index: exact, prefix, typo, reordered, host,
 * words-around, abbreviation, word-level and acronym queries, with and without a filter, the binary index and
 * rankings read back. For a runtime's startup (a Worker's global scope, limited
 * separately as startup time rather than per request): V8 compiles functions
 * on their first call, so a fresh instance's first real search would otherwise pay
 * the compilation of the whole query path. Pure and synchronous; returns the
 * number of hits it saw, so that nothing is optimised away.
 */
import { decodeSearchIndex } from './binary.ts';
import { buildSearchFiles } from './build.ts';
import { findCompanies } from './query.ts';
import { BinarySearchRankings, encodeSearchRankings, type SearchRankingsEntry } from './rankings.ts';

/** Syllables and words of the synthetic companies: names of the lengths and letters of real ones. */
const SYLLABLES = ['kes', 'tor', 'vale', 'quin', 'mar', 'del', 'sor', 'ven', 'lum', 'bra', 'cor', 'fin', 'yor', 'ist', 'ala', 'nor'];
const WORDS = ['Financial', 'Aerospace', 'Group', 'Works', 'Holdings', 'Systems', 'Partners', 'Labs', 'AG', 'Inc.'];
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * `rounds`: how many times the queries run over a synthetic index of 256 companies.
 * V8 compiles a function to optimised code only once it has run often enough; one round
 * leaves the query path interpreted, so that a fresh instance's first real search ran
 * slower than a warm one. The default is what `npm run bench:worker` shows enough for that.
 */
export function primeSearch(rounds = PRIME_ROUNDS): number {
  const docs = [
    { slug: 'kestrel-aerospace-group', name: 'Kestrel Aerospace Group', aliases: ['Kestrel Aero'], website: 'kestrelaero.example' },
    { slug: 'quill-works', name: 'Quill Works, Inc.', aliases: ['Quillworks'], website: 'careers.quillworks.example' },
    { slug: 'societe-generale', name: 'Société Générale', aliases: ['SocGen'], website: 'sg.example' },
  ];
  for (let i = 0; i < SYLLABLES.length; i++) {
    for (let j = 0; j < SYLLABLES.length; j++) {
      const stem = cap(SYLLABLES[i]! + SYLLABLES[j]!);
      const word = WORDS[(i * 7 + j) % WORDS.length]!;
      docs.push({ slug: `${stem}-${word}`.toLowerCase().replace(/[^a-z0-9]+/g, '-'), name: `${stem} ${word}`, aliases: [], website: `${stem.toLowerCase()}.example` });
    }
  }
  const { binary } = buildSearchFiles(docs);
  const index = decodeSearchIndex(binary);
  const ranking = { industry: 'Aerospace', rank: 1, industryRank: 1, totalCompaniesInIndustry: 2, visibilityScore: 50 };
  const companies: Record<string, SearchRankingsEntry> = {};
  docs.forEach((d, i) => {
    if (i % 3 !== 1) companies[d.slug] = { company: d.name, website: d.website, industries: ['Aerospace'], defaultCountry: 'us', rankings: i % 2 ? { us: ranking } : { us: ranking, gb: ranking } };
  });
  const rankings = new BinarySearchRankings(encodeSearchRankings({ month: '2000-01', companies }));
  const filters = [(slug: string) => rankings.ranked(slug, null), (slug: string) => rankings.ranked(slug, 'gb')];
  const queries = ['Kestrel Aerospace Group', 'kestrel aero', 'kestrl aerospce', 'works quill', 'jobs at quill works', 'https://careers.quillworks.example/jobs', 'Societe Generale SA', 'soc', 'zzzz', 'kestrel labs', 'Quill Wrks Sys', 'KA', 'k.s.g.'];
  for (let i = 0; i < 24; i++) {
    const name = docs[3 + ((i * 37) % (docs.length - 3))]!.name;
    queries.push(name, name.toLowerCase().slice(0, 8), name.replace(/[aeiou]/, ''), name.split(' ').reverse().join(' '));
  }
  let hits = 0;
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      for (const hit of findCompanies(index, q, { limit: 5 })) hits += hit.slug.length;
      for (const hit of findCompanies(index, q, { limit: 1, filter: filters[round & 1] })) hits += rankings.company(hit.slug)?.company.length ?? 0;
    }
  }
  return hits;
}

const PRIME_ROUNDS = 4;
