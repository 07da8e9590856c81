import { describe, expect, it } from 'vitest';
import { compareScore, round1 } from './score.ts';

describe('round1: 100 * num / den, half-up to one decimal', () => {
  it.each([
    [1, 16, 6.3], // 6.25
    [3, 16, 18.8], // 18.75
    [1, 3, 33.3],
    [2, 3, 66.7],
    [1, 8, 12.5],
    [0, 7, 0],
    [7, 7, 100],
    [1, 2000, 0.1], // 0.05 exactly rounds up
    [3, 2000, 0.2], // 0.15: binary floating point would give 0.1
  ])('%i/%i -> %d', (n, d, r) => expect(round1(n, d)).toBe(r));
});

describe('compareScore compares fractions exactly', () => {
  it('sees equal fractions with different denominators as equal', () => {
    expect(compareScore(1, 3, 2, 6)).toBe(0);
    expect(compareScore(1, 4, 3, 16)).toBeGreaterThan(0);
    expect(compareScore(3, 16, 1, 4)).toBeLessThan(0);
  });
});
