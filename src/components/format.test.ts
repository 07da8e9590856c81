import { describe, expect, it } from 'vitest';
import { previewJson } from './format.ts';

describe('previewJson', () => {
  it('cuts long arrays and says how much was left out', () => {
    const { text, omitted } = previewJson({ a: [1, 2, 3, 4, 5], b: { c: [] }, d: 'x' }, 2);
    expect(omitted).toBe(3);
    expect(text).toBe('{\n  "a": [\n    1,\n    2\n    // … 3 more items\n  ],\n  "b": {\n    "c": []\n  },\n  "d": "x"\n}');
  });

  it('is plain pretty JSON when nothing is cut', () => {
    const value = { x: [1, { y: null }], z: true };
    const { text, omitted } = previewJson(value);
    expect(omitted).toBe(0);
    expect(text).toBe(JSON.stringify(value, null, 2));
  });
});
