import { describe, expect, it } from 'vitest';
import { ordinal, profileSummary, type SummaryInput } from './summary.ts';

const base: SummaryInput = {
  company: 'Acme Corp',
  industry: 'Banking',
  country: 'United States',
  month: '2026-10',
  visibilityScore: 58.3,
  industryRank: 10,
  totalCompaniesInIndustry: 40,
  overallRank: 246,
  totalCompaniesInCountry: 500,
  history: [
    { month: '2026-09', rank: 7, visibilityScore: 62.5 },
    { month: '2026-10', rank: 10, visibilityScore: 58.3 },
  ],
};
const at = (rank: number, prevRank: number | null): SummaryInput => ({
  ...base,
  industryRank: rank,
  history: [...(prevRank === null ? [] : [{ month: '2026-09', rank: prevRank, visibilityScore: 50 }]), { month: '2026-10', rank, visibilityScore: 58.3 }],
});

describe('profileSummary', () => {
  it('states the industry rank, the score and the overall rank, each named', () => {
    const s = profileSummary(base, 7, 12, '2026-09');
    expect(s).toContain('Acme Corp ranks 10th of 40 Banking employers in the United States in 2026-10, with a Visibility Score of 58.3');
    expect(s).toContain('named it in 7 of 12 model-and-theme combinations.');
    expect(s).toContain('Across all industries it ranks 246th of 500 in the United States.');
  });

  it('rank down: the change is the industry rank change and says from where', () => {
    const s = profileSummary(at(10, 7), 7, 12, '2026-09');
    expect(s).toContain('Its industry rank fell 3 places, from 7th in 2026-09.');
    expect(s).not.toMatch(/places? (up|down)/);
  });

  it('rank up, singular place', () => {
    expect(profileSummary(at(2, 3), 7, 12, '2026-09')).toContain('Its industry rank rose 1 place, from 3rd in 2026-09.');
    expect(profileSummary(at(1, 11), 7, 12, '2026-09')).toContain('Its industry rank rose 10 places, from 11th in 2026-09.');
  });

  it('no change', () => {
    const s = profileSummary(at(4, 4), 7, 12, '2026-09');
    expect(s).toContain('Its industry rank is unchanged from 2026-09 (4th).');
    expect(s).not.toMatch(/rose|fell/);
  });

  it('new: no earlier entry on this board while an earlier month exists', () => {
    const s = profileSummary(at(5, null), 7, 12, '2026-09');
    expect(s).toContain('It is new to the Banking ranking in the United States this month: it was not ranked in 2026-09.');
    expect(s).not.toMatch(/rose|fell|unchanged/);
  });

  it('first month of the dataset: no change sentence at all', () => {
    const s = profileSummary(at(5, null), 7, 12, null);
    expect(s).not.toMatch(/new|rose|fell|unchanged/);
  });

  it('the change is measured against the latest earlier month of the history, even across a gap', () => {
    const p: SummaryInput = { ...base, industryRank: 3, history: [{ month: '2026-06', rank: 9, visibilityScore: 1 }, { month: '2026-08', rank: 5, visibilityScore: 2 }, { month: '2026-10', rank: 3, visibilityScore: 3 }] };
    expect(profileSummary(p, 1, 2, '2026-09')).toContain('Its industry rank rose 2 places, from 5th in 2026-08.');
  });

  it('country articles', () => {
    expect(profileSummary({ ...base, country: 'France' }, 1, 2, null)).toContain('employers in France in');
    expect(profileSummary({ ...base, country: 'Netherlands' }, 1, 2, null)).toContain('in the Netherlands');
  });

  it('ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th', '112th']);
  });
});
