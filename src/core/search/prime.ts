/**
 * Runs the search code once over a tiny index: exact, prefix, typo, reordered, host
 * and words-around queries, with and without a filter, the binary index and
 * rankings read back. For a runtime's startup (a Worker's global scope, limited
 * separately as startup time rather than per request): V8 compiles functions
 * on their first call, so a fresh instance's first real search would otherwise pay
 * the compilation of the whole query path. Pure and synchronous; returns the
 * number of hits it saw, so that nothing is optimised away.
 */
import { decodeSearchIndex } from './binary.ts';
import { buildSearchFiles } from './build.ts';
import { searchCompanies } from './query.ts';
import { BinarySearchRankings, encodeSearchRankings } from './rankings.ts';

export function primeSearch(): number {
  const { binary } = buildSearchFiles([
    { slug: 'kestrel-aerospace-group', name: 'Kestrel Aerospace Group', aliases: ['Kestrel Aero'], website: 'kestrelaero.example' },
    { slug: 'quill-works', name: 'Quill Works, Inc.', aliases: ['Quillworks'], website: 'careers.quillworks.example' },
    { slug: 'societe-generale', name: 'Société Générale', aliases: ['SocGen'], website: 'sg.example' },
  ]);
  const index = decodeSearchIndex(binary);
  const ranking = { industry: 'Aerospace', rank: 1, industryRank: 1, totalCompaniesInIndustry: 2, visibilityScore: 50 };
  const rankings = new BinarySearchRankings(
    encodeSearchRankings({
      month: '2000-01',
      companies: { 'quill-works': { company: 'Quill Works, Inc.', website: 'quillworks.example', industries: ['Aerospace'], defaultCountry: 'us', rankings: { us: ranking } } },
    }),
  );
  const filter = (slug: string) => rankings.ranked(slug, null) || rankings.ranked(slug, 'us');
  let hits = 0;
  for (const q of ['Kestrel Aerospace Group', 'kestrel aero', 'kestrl aerospce', 'works quill', 'jobs at quill works', 'https://careers.quillworks.example/jobs', 'Societe Generale SA', 'soc', 'zzzz']) {
    for (const hit of searchCompanies(index, q, { limit: 5 })) hits += hit.slug.length;
    for (const hit of searchCompanies(index, q, { limit: 1, filter })) hits += rankings.company(hit.slug)?.company.length ?? 0;
  }
  return hits;
}
