/**
 * A company shard's bytes (src/build/month-files.ts, joinedBytes): the entries' texts
 * written straight into one buffer must be the bytes of `{` + the texts joined by commas
 * + `}` encoded as UTF-8, whatever the texts hold (multi-byte characters, lone surrogates).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinedBytes } from '../src/build/month-files.ts';

describe('a shard written straight into one buffer', () => {
  it('is the UTF-8 of the texts joined by commas inside braces', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constantFrom('', 'é', '\u2028', '\ud800', '😀', '"a":{"b":[1,2]}'));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 40 }), (texts) => {
        expect(joinedBytes(texts).equals(Buffer.from(`{${texts.join(',')}}`))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
