/**
 * The public response shapes of service-spec.md §2 and §4, with the open cases
 * of data-and-rules.md §4. Single source of truth: the handler's tests parse
 * every success body with these, and the OpenAPI document is generated from them.
 */
import { z } from 'zod';
import { DEPLOY_TARGETS } from '../policy.ts';

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/).meta({ description: 'Dataset month, YYYY-MM', example: '2026-04' });
const DateStr = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ description: 'Date, YYYY-MM-DD', example: '2026-04-30' });
const Score = z.number().min(0).max(100).meta({ description: 'Score from 0 to 100, rounded half-up to one decimal' });
const Rank = z.number().int().min(1).meta({ description: 'Rank from 1 (first); no two companies share a rank' });
const Count = z.number().int().min(0);
const Url = z.string().url();
const Slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/).meta({ description: 'Lowercase, hyphenated company name' });

export const MonthSchema = Month;
export const DateSchema = DateStr;

/** §2.2, short form: carried by every data body. */
export const MethodologyShortSchema = z
  .object({
    version: z.string().describe('Methodology version; a change of method gets a new version'),
    url: Url.describe('Where the methodology is explained (the documentation page)'),
    models: z.array(z.string()).describe('Display names of the AI models whose answers are scored'),
  })
  .meta({ id: 'MethodologyShort', description: 'The methodology behind the numbers, in short' });

/** §2.2, long form: carried by the index. */
export const MethodologySchema = MethodologyShortSchema.extend({
  description: z.string().describe('The method in a few sentences'),
}).meta({ id: 'Methodology', description: 'The methodology behind the numbers, with its description' });

/** §2.1 */
export const IndexResponseSchema = z
  .object({
    name: z.string().describe('Name of the index'),
    apiVersion: z.literal('v1').describe('API version; breaking changes ship under a new prefix'),
    datasetVersion: Month.describe('The current dataset month (same as month)'),
    month: Month.describe('The current dataset month'),
    lastUpdated: DateStr.describe('Date of the current data'),
    description: z.string().describe('What the index measures, in one paragraph'),
    links: z
      .object({
        self: Url.describe('This index'),
        health: Url.describe('Health check'),
        // Absent only on a deployment without the function (`deployment.queryParameters` false).
        search: Url.optional().describe('A ready-to-run company search'),
        company: Url.describe('A ready-to-run company profile'),
        rankings: Url.describe('A ready-to-run leaderboard'),
        leaders: Url.describe('A ready-to-run top list of one industry and country'),
        compare: Url.optional().describe('A ready-to-run comparison'),
        openapi: Url.describe('The OpenAPI 3.1 document'),
        changelog: Url.optional().describe('Releases and corrections'),
        feed: Url.optional().describe('Atom feed of releases and corrections'),
        downloads: Url.optional().describe('Manifest of the bulk downloads'),
        documentation: Url.optional().describe('The documentation page'),
      })
      .describe('Example links, one per endpoint'),
    methodology: MethodologySchema,
    dataset: z
      .object({
        totalCompanies: Count.describe('Companies in the registry'),
        industries: z.array(z.string()).describe('Valid industry names'),
        countries: z.array(z.string()).describe('Valid country names'),
        months: z.array(Month).describe('Months with data, oldest first'),
      })
      .describe('What the dataset covers'),
    rateLimit: z.string().optional().describe('The rate limit, in words'),
    license: z.object({ name: z.string().describe('License name'), url: Url.describe('License text') }).optional().describe('License of the data'),
    citation: z.string().optional().describe('How to cite the dataset'),
    documentation: Url.optional().describe('The documentation page'),
    llmsTxt: Url.optional().describe('Overview for language models (llms.txt)'),
    openapi: Url.optional().describe('The OpenAPI 3.1 document'),
    endpoints: z.record(z.string(), z.string()).optional().describe('Each endpoint (method and path) with one line on what it answers'),
    deployment: z
      .object({
        target: z.enum(DEPLOY_TARGETS).describe('The deployment the build targets'),
        queryParameters: z.boolean().describe('Whether query parameters are answered'),
        note: z.string().describe('What this deployment answers, in words'),
      })
      .optional()
      .meta({ description: 'Present where this deployment serves static files only: which request forms it answers. Absent: every form of every endpoint is answered.' }),
  })
  .meta({ id: 'DatasetIndex' });

/** §2.3 */
export const HealthResponseSchema = z
  .object({
    status: z.literal('ok').describe('Always ok when the service answers'),
    apiVersion: z.literal('v1').describe('API version'),
    datasetVersion: Month.describe('The current dataset month (same as month)'),
    month: Month.describe('The current dataset month'),
    lastUpdated: DateStr.describe('Date of the current data'),
    companies: Count.describe('Companies in the registry'),
    industries: Count.describe('Industries in the dataset'),
    leaderboards: Count.optional().describe('Leaderboards of the current month (country x industry, overall boards left out)'),
    rankedCompanies: Count.optional().describe('Companies ranked in at least one leaderboard of the current month'),
    acceptedDrop: z.string().optional().describe("Present when the current month was published over the publish gate's objection: the operator's reason"),
  })
  .meta({ id: 'Health' });

/**
 * What a Visibility Score is made of (methodology): the score is 100 x combinationsNamed /
 * combinations, so a reader can tell 100 from 2 of 2 and 100 from 24 of 24.
 */
export const EvidenceSchema = z
  .object({
    combinationsNamed: Count.meta({ description: '(scored model, theme) combinations in which an answer named the company' }),
    combinations: Count.meta({ description: 'combinations asked in this industry and country that month (K)' }),
    scoredAnswers: Count.meta({ description: 'answers of the scored models in this industry and country that month' }),
  })
  .meta({ id: 'Evidence', description: 'What the Visibility Score is made of: score = 100 x combinationsNamed / combinations' });

/** §2.4 */
export const SearchResultSchema = z
  .object({
    company: z.string().describe('Company name'),
    slug: Slug,
    website: z.string().describe('Company website (host name)'),
    industry: z.string().describe('Industry of the ranking shown (the best one in that country)'),
    industries: z.array(z.string()).describe('Every industry of the company'),
    country: z.string().describe('Country of the ranking shown'),
    latestRanking: z
      .object({
        rank: Rank.describe('Rank on the overall leaderboard of the country'),
        industryRank: Rank.describe('Rank in the industry'),
        totalCompaniesInIndustry: Count.describe('Companies ranked in the industry'),
        visibilityScore: Score,
        month: Month,
      })
      .describe('Ranking in the current month'),
    profileUrl: Url.describe('The profile page'),
    apiUrl: Url.describe('The profile in the API'),
    matchedOn: z.enum(['name', 'alias', 'domain', 'prefix', 'fuzzy', 'words', 'acronym']).meta({
      description:
        'What the query matched: a whole name, alias or domain (words in any order, common abbreviations such as "Intl" or "Svcs" read as their full words, words such as "jobs at" or "careers" around it ignored), the start of a name, a close spelling, every word of the query found in a longer name or alias ("words"), or the initials of the name ("acronym")',
    }),
    confidence: z.number().min(0).max(1).meta({
      description:
        '1 for the exact name, 0.99 an exact alias, about 0.95 a name without its legal suffix or with words around it, 0.97 x for words in another order, at most 0.9 for every word found in a longer name (shared among the companies holding them all), 0.7-0.9 a prefix, below for close spellings, at most 0.4 for initials',
    }),
  })
  .meta({ id: 'SearchResult', description: 'One company found' });

export const SearchResponseSchema = z
  .object({
    query: z.string().describe('The query as received'),
    month: Month,
    lastUpdated: DateStr.describe('Date of the data'),
    methodology: MethodologyShortSchema,
    results: z.array(SearchResultSchema).describe('Matches, best first'),
    betterMatchElsewhere: z
      .object({
        company: z.string().describe('Company name'),
        slug: Slug,
        country: z.string().describe('A country where it has data'),
        matchedOn: z.string().describe('What matched, as in results'),
        confidence: z.number().min(0).max(1).describe('How sure the match is, 0 to 1'),
        apiUrl: Url.describe('Its profile in the API'),
      })
      .optional()
      .describe('With country: a company outside that country that matches the query better than every result'),
    permalink: Url.optional().meta({ description: 'Always present in API answers. The permanent, immutable URL of this answer: /api/v1/months/{month}/… with the resolved parameters (the Link rel=canonical header names it too)' }),
  })
  .meta({ id: 'SearchResponse' });

const ModelScore = Score.nullable().meta({ description: 'null when the model was not asked in this industry and country' });

/** §2.5 */
export const CompanyProfileSchema = z
  .object({
    company: z.string().describe('Company name'),
    slug: Slug,
    website: z.string().describe('Company website (host name)'),
    industry: z.string().describe('The industry of this profile: the company\'s best one in the country'),
    country: z.string().describe('Country of this profile'),
    month: Month,
    visibilityScore: Score.describe('Visibility Score in the industry and country'),
    overallRank: Rank.describe('Rank on the overall leaderboard of the country (all industries)'),
    totalCompaniesInCountry: Count.describe('Companies on the overall leaderboard of the country'),
    industryRank: Rank.describe('Rank in the industry of the country'),
    totalCompaniesInIndustry: Count.describe('Companies ranked in the industry of the country'),
    mentionCount: Count.describe('Distinct answers naming the company'),
    evidence: EvidenceSchema,
    modelScores: z
      .object({ chatgpt: ModelScore, googleAi: ModelScore, perplexity: ModelScore })
      .describe('Score per scored model: the share of themes asked of it in which it named the company'),
    themes: z
      .record(z.string(), z.object({ rank: Rank.describe('Rank in the industry on this theme'), score: Score }))
      .describe('Per candidate-experience theme, keyed by theme name'),
    otherIndustries: z
      .array(z.object({ industry: z.string().describe('Industry name'), industryRank: Rank.describe('Rank in that industry'), visibilityScore: Score }))
      .describe('The company\'s other industries in the country'),
    history: z
      .array(z.object({ month: Month, rank: Rank.describe('Rank in the industry that month'), visibilityScore: Score }))
      .describe('The months with data in this industry and country, oldest first'),
    countries: z.array(z.string()).meta({ description: 'Every country (display name) where the company has data this month' }),
    summary: z.string().describe('One paragraph in words: score, ranks and their changes'),
    lastUpdated: DateStr.describe('Date of the data'),
    profileUrl: Url.describe('The profile page'),
    apiUrl: Url.describe('This profile in the API'),
    methodology: MethodologyShortSchema,
    permalink: Url.optional().meta({ description: 'The permanent URL of this profile (present on /company answers; not inside compare, whose own permalink covers the set)' }),
  })
  .meta({ id: 'CompanyProfile' });

/** §2.6 */
export const LeaderboardEntrySchema = z
  .object({
    rank: Rank,
    company: z.string().describe('Company name'),
    slug: Slug,
    industry: z.string().describe('Industry of the entry (on an overall board: the company\'s best)'),
    visibilityScore: Score,
    mentionCount: Count.describe('Distinct answers naming the company'),
    evidence: EvidenceSchema,
    previousRank: Rank.nullable().describe('Rank the month before; null when it was not ranked'),
    rankChange: z.number().int().nullable().describe('previousRank minus rank: positive is a move up; null when new'),
    profileUrl: Url.describe('The profile page'),
  })
  .meta({ id: 'LeaderboardEntry', description: 'One company on a leaderboard' });

export const SORTS = ['rank', 'score', 'mentions', 'name', 'change'] as const;

/** §4.5 */
export const RankingsResponseSchema = z
  .object({
    industry: z.string().describe('Industry name, or All industries for the overall board'),
    country: z.string().describe('Country name'),
    month: Month,
    previousMonth: Month.nullable().describe('The month rank changes compare with; null for the first month'),
    lastUpdated: DateStr.describe('Date of the data'),
    sort: z.enum(SORTS).describe('Order of the entries'),
    page: z.number().int().min(1).describe('This page, from 1'),
    limit: z.number().int().min(1).max(100).describe('Entries per page'),
    totalCompanies: Count.describe('Companies on the whole leaderboard'),
    totalPages: Count.describe('Pages at this limit'),
    methodology: MethodologyShortSchema,
    rankings: z.array(LeaderboardEntrySchema).describe('The entries of this page'),
    permalink: Url.optional().meta({ description: 'Always present in API answers. The permanent, immutable URL of this answer: /api/v1/months/{month}/… with the resolved parameters (the Link rel=canonical header names it too)' }),
  })
  .meta({ id: 'Rankings' });

/** §2.7 */
export const LeaderEntrySchema = z
  .object({ rank: Rank, company: z.string().describe('Company name'), score: Score.describe('Visibility Score'), slug: Slug })
  .meta({ id: 'LeaderEntry', description: 'One company of a top list' });

/** §4.6 */
export const LeadersResponseSchema = z
  .object({
    industry: z.string().describe('Industry name'),
    country: z.string().describe('Country name'),
    month: Month,
    lastUpdated: DateStr.describe('Date of the data'),
    totalCompanies: Count.describe('Companies ranked in the industry'),
    methodology: MethodologyShortSchema,
    topCompanies: z.array(LeaderEntrySchema).describe('The first companies, by rank'),
    permalink: Url.optional().meta({ description: 'Always present in API answers. The permanent, immutable URL of this answer: /api/v1/months/{month}/… with the resolved parameters (the Link rel=canonical header names it too)' }),
  })
  .meta({ id: 'Leaders' });

/** §4.7 */
export const CompareResponseSchema = z
  .object({
    month: Month,
    lastUpdated: DateStr.describe('Date of the data'),
    methodology: MethodologyShortSchema,
    companies: z.array(CompanyProfileSchema).min(2).max(5).describe('One profile per company asked, in the order asked'),
    permalink: Url.optional().meta({ description: 'Always present in API answers. The permanent, immutable URL of this answer: /api/v1/months/{month}/… with the resolved parameters (the Link rel=canonical header names it too)' }),
  })
  .meta({ id: 'Compare' });

export const ERROR_CODES = ['bad_request', 'not_found', 'method_not_allowed', 'rate_limited', 'internal'] as const;

/** §7, with the extra fields of data-and-rules.md §4. */
export const ErrorResponseSchema = z
  .object({
    error: z.enum(ERROR_CODES).describe('Error code'),
    message: z.string().describe('What went wrong, in one sentence'),
    parameter: z.string().optional().describe('The parameter at fault'),
    validIndustries: z.array(z.string()).optional().describe('Valid industry names and slugs'),
    validCountries: z.array(z.string()).optional().describe('Valid country names and codes'),
    validMonths: z.array(Month).optional().describe('Months with data'),
    validSorts: z.array(z.string()).optional().describe('Valid sort orders'),
    validParameters: z.array(z.string()).optional().describe('Parameters the endpoint takes'),
    unknown: z.array(z.string()).optional().describe('The unknown items of a list (compare)'),
    suggestions: z
      .array(z.string())
      .max(5)
      .optional()
      .describe('Did you mean: up to 5 valid values close to the one given, closest first (company slugs for an unknown slug; industries, countries, months or sort orders for a value not in the list)'),
    countries: z.array(z.string()).optional().describe('Countries where the company has data'),
    retryAfter: z.number().int().min(0).optional().describe('Seconds to wait (429)'),
  })
  .meta({ id: 'Error' });

/** The releases of the dataset and the corrections to published months (release ledger). */
export const ChangelogResponseSchema = z
  .object({
    month: Month.describe('The current dataset month'),
    lastUpdated: DateStr.describe('Date of the current data'),
    feed: Url.describe('The same as an Atom feed'),
    releases: z
      .array(
        z.object({
          month: Month,
          published: DateStr.describe('Date of the build that first published the month'),
          methodologyVersion: z.string().describe('Methodology version of the month'),
          leaderboards: Count.describe('Leaderboards of the month (country x industry)'),
          rankedCompanies: Count.describe('Companies ranked in at least one leaderboard'),
          companiesAdded: z.array(z.string()).describe('Slugs ranked this month and not the month before (none for the first month)'),
          companiesRemoved: z.array(z.string()).describe('Slugs ranked the month before and not this month'),
          corrections: z
            .array(
              z.object({
                date: DateStr.describe('Date of the correction'),
                reason: z.string().describe('Why the published month changed'),
                changedLeaderboards: z.array(z.string()).describe('The leaderboards that changed'),
              }),
            )
            .describe('Recorded changes to the month after its publication'),
        }),
      )
      .describe('Every published month, newest first'),
  })
  .meta({ id: 'Changelog' });

export type ChangelogResponse = z.infer<typeof ChangelogResponseSchema>;
export type IndexResponse = z.infer<typeof IndexResponseSchema>;
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
export type SearchResult = z.infer<typeof SearchResultSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
export type CompanyProfile = z.infer<typeof CompanyProfileSchema>;
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;
export type RankingsResponse = z.infer<typeof RankingsResponseSchema>;
export type LeaderEntry = z.infer<typeof LeaderEntrySchema>;
export type LeadersResponse = z.infer<typeof LeadersResponseSchema>;
export type CompareResponse = z.infer<typeof CompareResponseSchema>;
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
export type MethodologyShort = z.infer<typeof MethodologyShortSchema>;
export type Methodology = z.infer<typeof MethodologySchema>;
export type Sort = (typeof SORTS)[number];
