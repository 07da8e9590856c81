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
const Rank = z.number().int().min(1);
const Count = z.number().int().min(0);
const Url = z.string().url();
const Slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/).meta({ description: 'Lowercase, hyphenated company name' });

export const MonthSchema = Month;
export const DateSchema = DateStr;

/** §2.2, short form: carried by every data body. */
export const MethodologyShortSchema = z
  .object({
    version: z.string(),
    url: Url,
    models: z.array(z.string()),
  })
  .meta({ id: 'MethodologyShort' });

/** §2.2, long form: carried by the index. */
export const MethodologySchema = MethodologyShortSchema.extend({
  description: z.string(),
}).meta({ id: 'Methodology' });

/** §2.1 */
export const IndexResponseSchema = z
  .object({
    name: z.string(),
    apiVersion: z.literal('v1'),
    datasetVersion: Month,
    month: Month,
    lastUpdated: DateStr,
    description: z.string(),
    links: z.object({
      self: Url,
      health: Url,
      // Absent only on a deployment without the function (`deployment.queryParameters` false).
      search: Url.optional(),
      company: Url,
      rankings: Url,
      leaders: Url,
      compare: Url.optional(),
      openapi: Url,
      changelog: Url.optional(),
      feed: Url.optional(),
      downloads: Url.optional(),
      documentation: Url.optional(),
    }),
    methodology: MethodologySchema,
    dataset: z.object({
      totalCompanies: Count,
      industries: z.array(z.string()),
      countries: z.array(z.string()),
      months: z.array(Month),
    }),
    rateLimit: z.string().optional(),
    license: z.object({ name: z.string(), url: Url }).optional(),
    citation: z.string().optional(),
    documentation: Url.optional(),
    llmsTxt: Url.optional(),
    openapi: Url.optional(),
    endpoints: z.record(z.string(), z.string()).optional(),
    deployment: z
      .object({
        target: z.enum(DEPLOY_TARGETS),
        queryParameters: z.boolean(),
        note: z.string(),
      })
      .optional()
      .meta({ description: 'Present where this deployment serves static files only: which request forms it answers. Absent: every form of every endpoint is answered.' }),
  })
  .meta({ id: 'DatasetIndex' });

/** §2.3 */
export const HealthResponseSchema = z
  .object({
    status: z.literal('ok'),
    apiVersion: z.literal('v1'),
    datasetVersion: Month,
    month: Month,
    lastUpdated: DateStr,
    companies: Count,
    industries: Count,
    /** Leaderboards of the current month (country x industry, overall boards left out). */
    leaderboards: Count.optional(),
    /** Companies ranked in at least one leaderboard of the current month. */
    rankedCompanies: Count.optional(),
    /** Present when the current month was published over the publish gate's objection: the operator's reason. */
    acceptedDrop: z.string().optional(),
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
  .meta({ id: 'Evidence' });

/** §2.4 */
export const SearchResultSchema = z
  .object({
    company: z.string(),
    slug: Slug,
    website: z.string(),
    industry: z.string(),
    industries: z.array(z.string()),
    country: z.string(),
    latestRanking: z.object({
      rank: Rank,
      industryRank: Rank,
      totalCompaniesInIndustry: Count,
      visibilityScore: Score,
      month: Month,
    }),
    profileUrl: Url,
    apiUrl: Url,
    matchedOn: z.enum(['name', 'alias', 'domain', 'prefix', 'fuzzy']).meta({
      description: 'What the query matched: a whole name, alias or domain (words in any order, words such as "jobs at" or "careers" around it ignored), the start of a name, or a close spelling',
    }),
    confidence: z.number().min(0).max(1).meta({
      description: '1 for the exact name, 0.99 an exact alias, about 0.95 a name without its legal suffix or with words around it, 0.97 x for words in another order, 0.7-0.9 a prefix, below for close spellings',
    }),
  })
  .meta({ id: 'SearchResult' });

export const SearchResponseSchema = z
  .object({
    query: z.string(),
    month: Month,
    lastUpdated: DateStr,
    methodology: MethodologyShortSchema,
    results: z.array(SearchResultSchema),
    /** With `country`: a company outside that country that matches the query better than every result. */
    betterMatchElsewhere: z
      .object({ company: z.string(), slug: Slug, country: z.string(), matchedOn: z.string(), confidence: z.number().min(0).max(1), apiUrl: Url })
      .optional(),
    permalink: Url.optional().meta({ description: 'Always present in API answers. The permanent, immutable URL of this answer: /api/v1/months/{month}/… with the resolved parameters (the Link rel=canonical header names it too)' }),
  })
  .meta({ id: 'SearchResponse' });

const ModelScore = Score.nullable().meta({ description: 'null when the model was not asked in this industry and country' });

/** §2.5 */
export const CompanyProfileSchema = z
  .object({
    company: z.string(),
    slug: Slug,
    website: z.string(),
    industry: z.string(),
    country: z.string(),
    month: Month,
    visibilityScore: Score,
    overallRank: Rank,
    totalCompaniesInCountry: Count,
    industryRank: Rank,
    totalCompaniesInIndustry: Count,
    mentionCount: Count,
    evidence: EvidenceSchema,
    modelScores: z.object({ chatgpt: ModelScore, googleAi: ModelScore, perplexity: ModelScore }),
    themes: z.record(z.string(), z.object({ rank: Rank, score: Score })),
    otherIndustries: z.array(z.object({ industry: z.string(), industryRank: Rank, visibilityScore: Score })),
    history: z.array(z.object({ month: Month, rank: Rank, visibilityScore: Score })),
    countries: z.array(z.string()).meta({ description: 'Every country (display name) where the company has data this month' }),
    summary: z.string(),
    lastUpdated: DateStr,
    profileUrl: Url,
    apiUrl: Url,
    methodology: MethodologyShortSchema,
    permalink: Url.optional().meta({ description: 'The permanent URL of this profile (present on /company answers; not inside compare, whose own permalink covers the set)' }),
  })
  .meta({ id: 'CompanyProfile' });

/** §2.6 */
export const LeaderboardEntrySchema = z
  .object({
    rank: Rank,
    company: z.string(),
    slug: Slug,
    industry: z.string(),
    visibilityScore: Score,
    mentionCount: Count,
    evidence: EvidenceSchema,
    previousRank: Rank.nullable(),
    rankChange: z.number().int().nullable(),
    profileUrl: Url,
  })
  .meta({ id: 'LeaderboardEntry' });

export const SORTS = ['rank', 'score', 'mentions', 'name', 'change'] as const;

/** §4.5 */
export const RankingsResponseSchema = z
  .object({
    industry: z.string(),
    country: z.string(),
    month: Month,
    previousMonth: Month.nullable(),
    lastUpdated: DateStr,
    sort: z.enum(SORTS),
    page: z.number().int().min(1),
    limit: z.number().int().min(1).max(100),
    totalCompanies: Count,
    totalPages: Count,
    methodology: MethodologyShortSchema,
    rankings: z.array(LeaderboardEntrySchema),
    permalink: Url.optional().meta({ description: 'Always present in API answers. The permanent, immutable URL of this answer: /api/v1/months/{month}/… with the resolved parameters (the Link rel=canonical header names it too)' }),
  })
  .meta({ id: 'Rankings' });

/** §2.7 */
export const LeaderEntrySchema = z
  .object({ rank: Rank, company: z.string(), score: Score, slug: Slug })
  .meta({ id: 'LeaderEntry' });

/** §4.6 */
export const LeadersResponseSchema = z
  .object({
    industry: z.string(),
    country: z.string(),
    month: Month,
    lastUpdated: DateStr,
    totalCompanies: Count,
    methodology: MethodologyShortSchema,
    topCompanies: z.array(LeaderEntrySchema),
    permalink: Url.optional().meta({ description: 'Always present in API answers. The permanent, immutable URL of this answer: /api/v1/months/{month}/… with the resolved parameters (the Link rel=canonical header names it too)' }),
  })
  .meta({ id: 'Leaders' });

/** §4.7 */
export const CompareResponseSchema = z
  .object({
    month: Month,
    lastUpdated: DateStr,
    methodology: MethodologyShortSchema,
    companies: z.array(CompanyProfileSchema).min(2).max(5),
    permalink: Url.optional().meta({ description: 'Always present in API answers. The permanent, immutable URL of this answer: /api/v1/months/{month}/… with the resolved parameters (the Link rel=canonical header names it too)' }),
  })
  .meta({ id: 'Compare' });

export const ERROR_CODES = ['bad_request', 'not_found', 'method_not_allowed', 'rate_limited', 'internal'] as const;

/** §7, with the extra fields of data-and-rules.md §4. */
export const ErrorResponseSchema = z
  .object({
    error: z.enum(ERROR_CODES),
    message: z.string(),
    parameter: z.string().optional(),
    validIndustries: z.array(z.string()).optional(),
    validCountries: z.array(z.string()).optional(),
    validMonths: z.array(Month).optional(),
    validSorts: z.array(z.string()).optional(),
    validParameters: z.array(z.string()).optional(),
    unknown: z.array(z.string()).optional(),
    /** Up to 5 slugs of companies close to an unknown slug. */
    suggestions: z.array(z.string()).max(5).optional(),
    countries: z.array(z.string()).optional(),
    retryAfter: z.number().int().min(0).optional(),
  })
  .meta({ id: 'Error' });

/** The releases of the dataset and the corrections to published months (release ledger). */
export const ChangelogResponseSchema = z
  .object({
    month: Month,
    lastUpdated: DateStr,
    feed: Url,
    releases: z.array(
      z.object({
        month: Month,
        /** Date of the build that first published the month. */
        published: DateStr,
        methodologyVersion: z.string(),
        leaderboards: Count,
        rankedCompanies: Count,
        /** Companies ranked this month and not the month before (none for the first month), slug order. */
        companiesAdded: z.array(z.string()),
        companiesRemoved: z.array(z.string()),
        corrections: z.array(z.object({ date: DateStr, reason: z.string(), changedLeaderboards: z.array(z.string()) })),
      }),
    ),
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
