/** Display helpers shared by the pages; pure. */

export interface JsonPreview {
  text: string;
  /** Number of array items left out. */
  omitted: number;
}

/**
 * Pretty JSON for display, with arrays longer than `maxItems` cut and marked by a
 * `// … N more` line (so the preview says it is not the whole body).
 * @example
 * previewJson({ a: [1, 2, 3, 4] }, 2).text; // '{\n  "a": [\n    1,\n    2\n    // … 2 more items\n  ]\n}'
 */
export function previewJson(value: unknown, maxItems = 3): JsonPreview {
  let omitted = 0;
  const walk = (v: unknown, pad: string): string => {
    const inner = pad + '  ';
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      const shown = v.slice(0, maxItems).map((x) => inner + walk(x, inner));
      const rest = v.length - shown.length;
      omitted += rest;
      const more = rest > 0 ? `\n${inner}// … ${rest} more item${rest === 1 ? '' : 's'}` : '';
      return `[\n${shown.join(',\n')}${more}\n${pad}]`;
    }
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      if (entries.length === 0) return '{}';
      return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${walk(x, inner)}`).join(',\n')}\n${pad}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  const text = walk(value, '');
  return { text, omitted };
}

/** `12.5`, `100`, or an en dash for a model that was not asked. */
export const score = (n: number | null): string => (n === null ? '–' : String(n));

export const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "us" -> "United States", from the meta view's country list. */
export function countryNames(countries: { code: string; name: string }[]): Map<string, string> {
  return new Map(countries.map((c) => [c.code, c.name]));
}
