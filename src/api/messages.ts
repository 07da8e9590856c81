/**
 * Every text the API puts in an error body (service-spec §7, data-and-rules §4),
 * gathered in one place so wording stays consistent and reviewable.
 */
import { LIMITS } from '../core/policy.ts';

const list = (values: readonly string[]): string => values.join(', ');
/** The "did you mean" sentence of an error message, empty without suggestions. */
const meant = (suggestions: readonly string[]): string => (suggestions.length ? ` Did you mean ${list(suggestions.map((s) => `"${s}"`))}?` : '');
const { min: COMPARE_MIN, max: COMPARE_MAX } = LIMITS.compare;

export const messages = {
  notFoundPath: (path: string) => `No endpoint at ${path}. See /api/v1 for the list of endpoints.`,
  /** The not-found file of a static deployment (it cannot name the path it answers for). */
  notFoundStatic: 'No file at this path. This deployment serves static files only: see /api/v1 for the URLs it answers.',
  /** The refusal of a query-parameter form on a static host that can match query strings (Netlify). */
  queryNotAnswered: 'This deployment serves static files only and does not answer query parameters. Use the path forms listed at /api/v1.',
  methodNotAllowed: (method: string) => `Method ${method} is not allowed. This API is read-only: use GET, HEAD or OPTIONS.`,
  rateLimited: (limit: number, retryAfter: number) =>
    `Rate limit of ${limit} requests per minute exceeded. Retry in ${retryAfter} s.`,
  internal: 'The data for this request could not be read. This is transient: retry in a moment.',
  unexpected: 'Unexpected server error. Retry in a moment.',
  badTarget: 'The request target is not a valid URL path.',

  badInteger: (name: string, min: number, max: number | null) =>
    max === null
      ? `Parameter ${name} must be a base-10 integer of at least ${min}.`
      : `Parameter ${name} must be a base-10 integer from ${min} to ${max}.`,
  badSort: (given: string, valid: readonly string[], suggestions: readonly string[] = []) =>
    `Unknown sort "${given}".${meant(suggestions)} Valid values: ${list(valid)}.`,
  typoParameter: (given: string, meant: string) => `Unknown parameter "${given}"; did you mean "${meant}"? See validParameters.`,
  badMonth: (given: string, suggestions: readonly string[] = []) => {
    const m = /^\d{4}-(\d{2})$/.exec(given);
    return m
      ? `Parameter month: ${m[1]} is not a month (01 to 12); got "${given}".${meant(suggestions)}`
      : `Parameter month must have the form YYYY-MM; got "${given}".${meant(suggestions)}`;
  },
  unknownMonth: (given: string, suggestions: readonly string[] = []) => `No data for month ${given}.${meant(suggestions)} See validMonths.`,
  badCountry: (given: string, suggestions: readonly string[] = []) =>
    `Unknown country "${given}".${meant(suggestions)} Use a country code or name listed in validCountries.`,
  unknownIndustry: (given: string, suggestions: readonly string[] = []) =>
    `Unknown industry "${given}".${meant(suggestions)} Use an industry name or slug listed in validIndustries.`,
  noBoard: (industry: string, country: string, month: string) =>
    `No ${industry === 'All industries' ? 'leaderboard' : `${industry} leaderboard`} for ${country} in ${month}.`,
  missingQuery: 'Parameter q is required: a company name to search for.',
  blankQuery: 'Parameter q must not be blank.',
  longQuery: (max: number) => `Parameter q must be at most ${max} characters long.`,
  unknownParameter: (name: string) => `Invalid parameter ${name}.`,

  unknownCompany: (slug: string, suggestions: readonly string[] = []) =>
    `No company with slug "${slug}".${meant(suggestions)} Find slugs through /api/v1/search?q=name.`,
  companyNoData: (company: string, month: string | null = null) => `${company} has no data in ${month ?? 'the current month'}.`,
  companyNotInCountry: (company: string, country: string, countries: readonly string[], month: string | null = null) =>
    `${company} has no data for ${country} ${month ? `in ${month}` : 'this month'}. Its countries: ${list(countries)}.`,

  compareMissing: `Parameter companies is required: ${COMPARE_MIN} to ${COMPARE_MAX} comma-separated company slugs.`,
  compareCount: (count: number) => `Parameter companies must name ${COMPARE_MIN} to ${COMPARE_MAX} distinct company slugs; got ${count}.`,
  compareUnknown: (unknown: readonly string[]) =>
    `Unknown compan${unknown.length === 1 ? 'y' : 'ies'}: ${list(unknown)}. Find slugs through /api/v1/search?q=name.`,

  openapiMissing: 'The OpenAPI document is not available in this build.',
} as const;
