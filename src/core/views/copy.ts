/**
 * The sentences the views carry (data-and-rules §3): a profile's summary, the service
 * description and the methodology text. Pure text from numbers; no registry, no results.
 */
import type { CompanyProfile } from '../schemas/responses.ts';
import { MODEL_NAMES } from '../policy.ts';

const ordinal = (n: number) => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
};

// "in the United States", "in the Netherlands", but "in France".
const inCountry = (country: string) => `in ${/^(United |Netherlands$|Philippines$|Czech Republic$)/.test(country) ? 'the ' : ''}${country}`;

/**
 * The profile's summary sentences (data-and-rules §3 "summary"): every number says which
 * rank it is (industry rank, overall rank), and the change is the industry rank's.
 * @param firstMonth the dataset's first month: a company absent from the previous month
 *   is only "new" after it.
 */
export function summary(p: Omit<CompanyProfile, 'summary' | 'methodology'>, hits: number, k: number, firstMonth: string): string {
  return summaryAfter(p, p.history.length > 1 ? p.history[p.history.length - 2]! : null, hits, k, firstMonth);
}

/**
 * {@link summary} of a profile whose history is given by its entry before this month's
 * (`prev`, null when this month's is its only entry): all the summary reads of it.
 */
export function summaryAfter(p: Omit<CompanyProfile, 'summary' | 'methodology' | 'history'>, prev: { month: string; rank: number } | null, hits: number, k: number, firstMonth: string): string {
  const first = `${p.company} ranks ${ordinal(p.industryRank)} of ${p.totalCompaniesInIndustry} ${p.industry} employers ${inCountry(p.country)} in ${p.month}, with a Visibility Score of ${p.visibilityScore}: AI assistants named it in ${hits} of ${k} model-and-theme combinations.`;
  let moved = '';
  if (prev) {
    const d = Math.abs(prev.rank - p.industryRank);
    moved =
      prev.rank === p.industryRank
        ? ` Its industry rank is unchanged since ${prev.month}.`
        : ` Its industry rank ${prev.rank > p.industryRank ? 'rose' : 'fell'} from ${ordinal(prev.rank)} in ${prev.month}, ${d} place${d === 1 ? '' : 's'} ${prev.rank > p.industryRank ? 'up' : 'down'}.`;
  } else if (p.month !== firstMonth) moved = ` It is new to this industry's leaderboard ${inCountry(p.country)} in ${p.month}.`;
  return `${first}${moved} Across all industries its overall rank ${inCountry(p.country)} is ${ordinal(p.overallRank)} of ${p.totalCompaniesInCountry}.`;
}

export const DESCRIPTION =
  'A free, public, read-only JSON API ranking companies by how visible they are as employers in the answers of AI assistants. ' +
  'Each month, candidate-style questions are put to AI assistants for every industry and country; a company\'s Visibility Score is the share of (AI model x candidate-experience theme) combinations in which it was named.';

export function methodologyDescription(themes: string[], research: string[]): string {
  return (
    `The Visibility Score (0-100) of a company in one industry and one country is 100 x the share of combinations of (AI model x candidate-experience theme) in which AI-generated answers to candidate-style questions named the company. ` +
    `Scored models: ${MODEL_NAMES.join(', ')}. ` +
    (research.length ? `Answers of research models (${research.join(', ')}) are collected but never scored. ` : '') +
    (themes.length ? `Themes in the data: ${themes.join(', ')}. ` : '') +
    `Ranks: by score, then mention count (distinct answers naming the company), then company name, then slug; every registry company of the industry and country is ranked, score 0 included. ` +
    `The overall ranking of a country places each company once, by its best industry entry. Rankings are rebuilt monthly; scores are rounded half-up to one decimal, ranks use exact fractions. ` +
    `Every leaderboard entry and profile shows the evidence behind its score: combinationsNamed of combinations (the score is their ratio), and the scoredAnswers of its industry and country that month, so a 100 made of 2 of 2 is told apart from one made of 24 of 24.`
  );
}
