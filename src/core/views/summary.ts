/**
 * The profile's summary sentences (data-and-rules §4). Every number names the rank it
 * is about: the industry rank and its change come from the profile's history (the
 * board of its best industry), the overall rank is stated for this month only, since
 * the profile carries no overall-rank history.
 */
import type { CompanyProfile } from '../schemas/responses.ts';

export type SummaryInput = Pick<
  CompanyProfile,
  'company' | 'industry' | 'country' | 'month' | 'visibilityScore' | 'industryRank' | 'totalCompaniesInIndustry' | 'overallRank' | 'totalCompaniesInCountry' | 'history'
>;

export const ordinal = (n: number): string => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
};

// "in the United States", "in the Netherlands", but "in France".
export const inCountry = (country: string): string =>
  `in ${/^(United |Netherlands$|Philippines$|Czech Republic$)/.test(country) ? 'the ' : ''}${country}`;

const places = (n: number) => `${n} place${n === 1 ? '' : 's'}`;

/**
 * @param hits, k  mentions out of model-and-theme combinations behind the score
 * @param previousMonth  the dataset month before `p.month`, or null when this is the first
 */
export function profileSummary(p: SummaryInput, hits: number, k: number, previousMonth: string | null): string {
  const where = `${p.industry} employers ${inCountry(p.country)}`;
  const first = `${p.company} ranks ${ordinal(p.industryRank)} of ${p.totalCompaniesInIndustry} ${where} in ${p.month}, with a Visibility Score of ${p.visibilityScore}: AI assistants named it in ${hits} of ${k} model-and-theme combinations.`;
  const overall = ` Across all industries it ranks ${ordinal(p.overallRank)} of ${p.totalCompaniesInCountry} ${inCountry(p.country)}.`;
  const hist = p.history.filter((h) => h.month < p.month);
  const prev = hist.length ? hist[hist.length - 1]! : null;
  let moved = '';
  if (prev) {
    const d = prev.rank - p.industryRank;
    moved =
      d === 0
        ? ` Its industry rank is unchanged from ${prev.month} (${ordinal(prev.rank)}).`
        : ` Its industry rank ${d > 0 ? 'rose' : 'fell'} ${places(Math.abs(d))}, from ${ordinal(prev.rank)} in ${prev.month}.`;
  } else if (previousMonth) {
    moved = ` It is new to the ${p.industry} ranking ${inCountry(p.country)} this month: it was not ranked in ${previousMonth}.`;
  }
  return `${first}${moved}${overall}`;
}
