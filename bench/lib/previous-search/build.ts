import type { SearchDoc } from '../../../src/core/views/layout.ts';

/**
 * The static file (`views/search-index.json`): one row per company, sorted by
 * slug, `[slug, name, website, ...aliases]`. Only registry text is shipped; the
 * lookup tables are rebuilt by `loadSearchIndex`, which keeps the file small.
 */
export interface SerializedSearchIndex {
  v: 1;
  docs: string[][];
}

/** Plain code-unit order: the same in every runtime and locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Builds the static search index from the registry. Plain JSON and deterministic:
 * rows sorted by slug, aliases trimmed, de-duplicated and sorted, so the same
 * registry gives the same bytes whatever its order.
 * @example
 * const data = buildSearchIndex([{ slug: 'kestrel-aerospace-group', name: 'Kestrel Aerospace Group', aliases: ['Kestrel Aero'], website: 'kestrelaero.example' }]);
 * JSON.stringify(data); // '{"v":1,"docs":[["kestrel-aerospace-group","Kestrel Aerospace Group","kestrelaero.example","Kestrel Aero"]]}'
 */
export function buildSearchIndex(docs: SearchDoc[]): SerializedSearchIndex {
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
  return { v: 1, docs: rows };
}
