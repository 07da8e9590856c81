/** Display helpers shared by the pages; pure. */

export interface JsonPreview {
  text: string;
  /** Number of array items and map entries left out. */
  omitted: number;
  /** Number of texts cut at `maxText` characters (marked by a trailing …). */
  cutTexts: number;
}

/**
 * Pretty JSON for display, with arrays and maps (objects keyed by data, not by field
 * names) longer than `maxItems` cut and marked by a `// … N more` line, and texts
 * longer than `maxText` cut and ended by `…` (so the preview says it is not the whole body). With `width`,
 * an object or array that fits on one line of that many characters (indent included)
 * and has nothing cut is written on one line, as code formatters do.
 * @example
 * previewJson({ a: [1, 2, 3, 4] }, 2).text; // '{\n  "a": [\n    1,\n    2\n    // … 2 more items\n  ]\n}'
 * previewJson({ a: { b: 1 } }, 3, 40).text; // '{\n  "a": { "b": 1 }\n}'
 */
export function previewJson(value: unknown, maxItems = 3, width = 0, maxText = Infinity): JsonPreview {
  let omitted = 0;
  let cutTexts = 0;
  const leaf = (v: unknown): string => {
    if (typeof v === 'string' && v.length > maxText) {
      cutTexts++;
      return JSON.stringify(`${v.slice(0, maxText)}…`);
    }
    return JSON.stringify(v) ?? 'null';
  };
  // A map (keys that are data, such as theme names or "GET /path", not identifiers) is cut like an array.
  const isMap = (entries: [string, unknown][]): boolean => entries.some(([k]) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
  const oneLine = (v: unknown): string => {
    if (Array.isArray(v)) return v.length === 0 ? '[]' : `[${v.map(oneLine).join(', ')}]`;
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      return entries.length === 0 ? '{}' : `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${oneLine(x)}`).join(', ')} }`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  const fits = (v: object): boolean => (Array.isArray(v) ? v.length <= maxItems : !isMap(Object.entries(v)) || Object.keys(v).length <= maxItems);
  const walk = (v: unknown, pad: string, key: string): string => {
    const inner = pad + '  ';
    if (width > 0 && v !== null && typeof v === 'object' && fits(v)) {
      const line = oneLine(v);
      if (pad.length + key.length + line.length <= width && !line.includes('…')) return line;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      const shown = v.slice(0, maxItems).map((x) => inner + walk(x, inner, ''));
      const rest = v.length - shown.length;
      omitted += rest;
      const more = rest > 0 ? `\n${inner}// … ${rest} more item${rest === 1 ? '' : 's'}` : '';
      return `[\n${shown.join(',\n')}${more}\n${pad}]`;
    }
    if (v !== null && typeof v === 'object') {
      const all = Object.entries(v);
      if (all.length === 0) return '{}';
      const entries = isMap(all) ? all.slice(0, maxItems) : all;
      const rest = all.length - entries.length;
      omitted += rest;
      const more = rest > 0 ? `\n${inner}// … ${rest} more entr${rest === 1 ? 'y' : 'ies'}` : '';
      return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${walk(x, inner, `${JSON.stringify(k)}: `)}`).join(',\n')}${more}\n${pad}}`;
    }
    return leaf(v);
  };
  const text = walk(value, '', '');
  return { text, omitted, cutTexts };
}

/** `12.5`, `100`, or an en dash for a model that was not asked. */
export const score = (n: number | null): string => (n === null ? '–' : String(n));

export const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "us" -> "United States", from the meta view's country list. */
export function countryNames(countries: { code: string; name: string }[]): Map<string, string> {
  return new Map(countries.map((c) => [c.code, c.name]));
}
