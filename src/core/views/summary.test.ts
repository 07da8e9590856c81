/** The profile summary (data-and-rules §3): one test per sentence form; every number names its rank. */
import { describe, expect, it } from 'vitest';
import type { CompanyProfile } from '../schemas/responses.ts';
import { summary } from './build-views.ts';

type Base = Omit<CompanyProfile, 'summary' | 'methodology'>;
const profile = (history: { month: string; rank: number }[], over: Partial<Base> = {}): Base =>
  ({
    company: 'Quill Works',
    industry: 'Retail',
    country: 'United States',
    month: '2026-10',
    visibilityScore: 62.5,
    industryRank: 7,
    totalCompaniesInIndustry: 40,
    overallRank: 246,
    totalCompaniesInCountry: 500,
    history: history.map((h) => ({ ...h, visibilityScore: 50 })),
    ...over,
  }) as Base;

describe('summary', () => {
  const opening = 'Quill Works ranks 7th of 40 Retail employers in the United States in 2026-10, with a Visibility Score of 62.5: AI assistants named it in 5 of 8 model-and-theme combinations.';
  const overall = ' Across all industries its overall rank in the United States is 246th of 500.';

  it('industry rank up: says it rose, from which rank, by how many places', () => {
    expect(summary(profile([{ month: '2026-09', rank: 10 }, { month: '2026-10', rank: 7 }]), 5, 8, '2026-03')).toBe(`${opening} Its industry rank rose from 10th in 2026-09, 3 places up.${overall}`);
  });

  it('industry rank down, by one place', () => {
    expect(summary(profile([{ month: '2026-09', rank: 6 }, { month: '2026-10', rank: 7 }]), 5, 8, '2026-03')).toBe(`${opening} Its industry rank fell from 6th in 2026-09, 1 place down.${overall}`);
  });

  it('industry rank unchanged', () => {
    expect(summary(profile([{ month: '2026-09', rank: 7 }, { month: '2026-10', rank: 7 }]), 5, 8, '2026-03')).toBe(`${opening} Its industry rank is unchanged since 2026-09.${overall}`);
  });

  it('new to the leaderboard, and nothing said in the dataset’s first month', () => {
    expect(summary(profile([{ month: '2026-10', rank: 7 }]), 5, 8, '2026-03')).toBe(`${opening} It is new to this industry's leaderboard in the United States in 2026-10.${overall}`);
    expect(summary(profile([{ month: '2026-10', rank: 7 }]), 5, 8, '2026-10')).toBe(`${opening}${overall}`);
  });

  it('names the country with "the" where English needs it, and ordinals 11th-13th', () => {
    expect(summary(profile([{ month: '2026-10', rank: 12 }], { country: 'France', industryRank: 12, overallRank: 113 }), 1, 2, '2026-10')).toBe(
      'Quill Works ranks 12th of 40 Retail employers in France in 2026-10, with a Visibility Score of 62.5: AI assistants named it in 1 of 2 model-and-theme combinations. Across all industries its overall rank in France is 113th of 500.',
    );
  });
});
