import type { SearchDoc } from '../views/layout.ts';
import { encodeSearchIndex } from './binary.ts';
import { loadRows, serializeIndex } from './load.ts';
import type { SerializedSearchIndex } from './serialized.ts';

export type { SerializedSearchIndex, SerializedSearchIndexV1 } from './serialized.ts';

/** Plain code-unit order: the same in every runtime and locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Builds the static search index from the registry (see {@link SerializedSearchIndex}). Plain JSON and deterministic:
 * rows sorted by slug, aliases trimmed, de-duplicated and sorted, so the same
 * registry gives the same bytes whatever its order.
 * @example
 * const data = buildSearchIndex([{ slug: 'kestrel-aerospace-group', name: 'Kestrel Aerospace Group', aliases: ['Kestrel Aero'], website: 'kestrelaero.example' }]);
 * data.docs; // [['kestrel-aerospace-group', 'Kestrel Aerospace Group', 'kestrelaero.example', 'Kestrel Aero']]
 */
export function buildSearchIndex(docs: SearchDoc[]): SerializedSearchIndex {
  const rows = searchRows(docs);
  return serializeIndex(rows, loadRows(rows));
}

/** Both files of the index: the JSON (v2) and the binary form. */
export interface SearchFiles {
  json: SerializedSearchIndex;
  binary: Uint8Array;
}

/**
 * Both files of the index from one build of it: the JSON (v2) that the pages' search
 * box loads, and the binary form (`binary.ts`) that the API queries in place.
 */
export function buildSearchFiles(docs: SearchDoc[]): SearchFiles {
  const rows = searchRows(docs);
  const index = loadRows(rows);
  return { json: serializeIndex(rows, index), binary: encodeSearchIndex(index) };
}

/** The `docs` rows of the index: `[slug, name, website, ...aliases]`, sorted by slug, aliases trimmed, unique and sorted. */
export function searchRows(docs: SearchDoc[]): string[][] {
  const sorted = [...docs].sort((a, b) => compareCodeUnits(a.slug, b.slug));
  const rows: string[][] = [];
  let last: string | undefined;
  for (const d of sorted) {
    if (d.slug === last) throw new Error(`buildSearchIndex: duplicate slug "${d.slug}"`);
    last = d.slug;
    const name = d.name.trim();
    const aliases = [...new Set(d.aliases.map((a) => a.trim()))].filter((a) => a.length > 0 && a !== name).sort(compareCodeUnits);
    rows.push([d.slug, name, d.website.trim(), ...aliases]);
  }
  return rows;
}
