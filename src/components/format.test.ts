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

  it('writes what fits in the width on one line, and never a cut array', () => {
    const { text } = previewJson({ evidence: { named: 3, asked: 4 }, list: [1, 2, 3], long: { text: 'x'.repeat(40) } }, 2, 40);
    expect(text).toBe(`{\n  "evidence": { "named": 3, "asked": 4 },\n  "list": [\n    1,\n    2\n    // … 1 more item\n  ],\n  "long": {\n    "text": "${'x'.repeat(40)}"\n  }\n}`);
  });

  it('cuts maps (keys that are data) like arrays, and long texts, and says so', () => {
    const { text, omitted, cutTexts } = previewJson({ themes: { 'Work-Life Balance': 1, Culture: 2, Leadership: 3 }, summary: 'abcdefgh' }, 2, 0, 5);
    expect(omitted).toBe(1);
    expect(cutTexts).toBe(1);
    expect(text).toBe('{\n  "themes": {\n    "Work-Life Balance": 1,\n    "Culture": 2\n    // … 1 more entry\n  },\n  "summary": "abcde…"\n}');
  });
});
