/**
 * The JSON forms of the search index, shared by the build (`build.ts`) and the
 * loader (`load.ts`) without either importing the other.
 */

/** The first form of the file: registry text only, folded and sorted at every load. Still loadable. */
export interface SerializedSearchIndexV1 {
  v: 1;
  docs: string[][];
}

/**
 * The static file (`views/search-index.json`), plain JSON. `docs`: one row per
 * company, sorted by slug, `[slug, name, website, ...aliases]` (the pages read
 * names from it). The rest is the index itself, precomputed at build time so
 * that loading needs no folding and no sorting (a fresh Worker instance must
 * answer its first search within 10 ms of CPU at 10,000 companies):
 * - `keyCounts`: per company, `'0'` + its number of keys (name, aliases, slug, website, duplicates dropped);
 * - `keys`: per key, `'0'` + the position of its text in the row (kind follows: 0 slug, 1 name, 2 website, 3+ alias);
 * - `compact` / `full`: per key, the folded form without blanks, without / with the legal suffix (`full` is `""` when equal);
 * - `formKey` / `formExact`: every lookup form in code-unit order, as its key and its kind
 *   (`'1'` the whole key, `'0'` suffix dropped); the form's text is that key's `full` or `compact`.
 * The trigram lists are rebuilt at load from `compact`/`full` (a few ms; shipping them would double the gzip size).
 */
export interface SerializedSearchIndex {
  v: 2;
  docs: string[][];
  keys: string;
  keyCounts: string;
  compact: string[];
  full: string[];
  formKey: number[];
  formExact: string;
}
