import { describe, expect, it } from 'vitest';
import { checkRelease, type MonthFacts } from './gate.ts';

const facts = (month: string, scoredRows: number): MonthFacts => ({ month, scoredRows, leaderboards: 10, rankedCompanies: 10, countries: ['us'], industries: ['retail'] });

describe('the publish gate', () => {
  it('prints a share just below the threshold with the precision that shows it is below', () => {
    const [finding] = checkRelease(facts('2026-10', 2000), facts('2026-11', 997));
    expect(finding!.message).toBe('scored rows: 2,000 in 2026-10 -> 997 in 2026-11 (49.9%, below 50%)');
    expect(checkRelease(facts('2026-10', 2000), facts('2026-11', 600))[0]!.message).toContain('(30%, below 50%)');
  });
});
