/**
 * The previous search engine, kept for bench:search's side-by-side figures: its own index
 * form, loader and query path; the primitives it shares unchanged with the current engine
 * (edit distance, trigrams, folding, the index rows) come from src/core/search.
 */
import { searchRows, type SerializedSearchIndexV1 } from '../../../src/core/search/build.ts';
import type { SearchDoc } from '../../../src/core/views/layout.ts';

/** The previous engine's file: registry text only (the current engine still loads it as v1). */
export type SerializedSearchIndex = SerializedSearchIndexV1;

/**
 * Builds the static search index from the registry. Plain JSON and deterministic:
 * rows sorted by slug, aliases trimmed, de-duplicated and sorted, so the same
 * registry gives the same bytes whatever its order.
 * @example
 * const data = buildSearchIndex([{ slug: 'kestrel-aerospace-group', name: 'Kestrel Aerospace Group', aliases: ['Kestrel Aero'], website: 'kestrelaero.example' }]);
 * JSON.stringify(data); // '{"v":1,"docs":[["kestrel-aerospace-group","Kestrel Aerospace Group","kestrelaero.example","Kestrel Aero"]]}'
 */
export function buildSearchIndex(docs: SearchDoc[]): SerializedSearchIndex {
  return { v: 1, docs: searchRows(docs) };
}
