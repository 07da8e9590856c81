/**
 * Query and path parameters of every endpoint (service-spec §4, data-and-rules §4):
 * one zod object per endpoint, validated by the handler and read by the OpenAPI
 * generator (`z.toJSONSchema(schema, { io: 'input' })`).
 */
import { z } from 'zod';
import { DEFAULT_COUNTRY, LIMITS } from '../core/policy.ts';
import { SORTS } from '../core/schemas/responses.ts';
import { closeParameter, closeValues } from '../core/suggest.ts';
import { badRequest } from './errors.ts';
import type { ErrorExtra } from './errors.ts';
import { messages } from './messages.ts';

const SEARCH_QUERY_MAX = LIMITS.searchQuery;

/** A base-10 integer in [min, max] (data-and-rules §4: anything else is a 400). */
function integer(name: string, min: number, max: number | null, fallback: number) {
  const message = messages.badInteger(name, min, max);
  let inner = z.number({ error: message }).int({ error: message }).min(min, { error: message });
  if (max !== null) inner = inner.max(max, { error: message });
  return z.preprocess((value) => (typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : value), inner.default(fallback));
}

const country = z.string().meta({
  description: 'Country code, name or alias, case-insensitive (for example `us`, `United Kingdom`, `UK`).',
  example: 'us',
});

/**
 * A dataset month (data-and-rules §4): not of the form YYYY-MM is a 400 (saying which
 * part is wrong), well formed but not in the dataset a 404 with `validMonths`; both
 * checked against the dataset's months by the handler, which suggests the close ones.
 */
const month = z
  .string()
  .optional()
  .meta({ description: 'Dataset month YYYY-MM (see `validMonths` in the index). Default: the current month.', example: '2026-04' });

/** The `{month}` of a month-addressed path. */
export const MonthPathSchema = z.object({
  month: z.string().meta({ description: 'Dataset month YYYY-MM (see `validMonths` in the index).', example: '2026-04' }),
});

/** GET /api/v1, /health and /openapi.json take no parameters. */
export const IndexQuerySchema = z.object({}).meta({ description: 'No parameters.' });
export const HealthQuerySchema = z.object({}).meta({ description: 'No parameters.' });
export const OpenApiQuerySchema = z.object({});
export const ChangelogQuerySchema = z.object({}).meta({ description: 'No parameters.' });

/** §4.3 */
export const SearchQuerySchema = z.object({
  q: z
    .string({ error: messages.missingQuery })
    .trim()
    .min(1, { error: messages.blankQuery })
    .max(SEARCH_QUERY_MAX, { error: messages.longQuery(SEARCH_QUERY_MAX) })
    .meta({ description: 'Company name, alias or subsidiary; approximate matches are found. At most 100 characters.', example: 'kestrel' }),
  country: country.optional().meta({
    description: 'Only companies ranked in this country, each shown with that country’s ranking. Default: each company’s own default country (the United States when it has US data).',
  }),
  limit: integer('limit', LIMITS.search.min, LIMITS.search.max, LIMITS.search.default).meta({
    description: `Maximum number of results, ${LIMITS.search.min} to ${LIMITS.search.max}.`,
  }),
  month,
});

/** §4.4 (path) */
export const CompanyPathSchema = z.object({
  slug: z.string().meta({ description: 'Company slug (lowercase, hyphenated name), case-insensitive; find it through search.', example: 'kestrel-aerospace-group' }),
});

/** §4.4 */
export const CompanyQuerySchema = z.object({
  country: country.optional().meta({
    description: 'Country of the profile. Default: the United States when the company has US data that month, else its best market.',
  }),
  month,
});

/** §4.5 */
export const RankingsQuerySchema = z.object({
  industry: z
    .string()
    .optional()
    .meta({ description: 'Industry name or slug, case-insensitive. Omit for the overall leaderboard (each company once, by its best industry).', example: 'aerospace' }),
  country: country.default(DEFAULT_COUNTRY),
  month,
  limit: integer('limit', LIMITS.rankings.min, LIMITS.rankings.max, LIMITS.rankings.default).meta({
    description: `Results per page, ${LIMITS.rankings.min} to ${LIMITS.rankings.max}.`,
  }),
  page: integer('page', LIMITS.page.min, null, LIMITS.page.default).meta({ description: 'Page number from 1; a page past the last one is empty.' }),
  sort: z
    .enum(SORTS, { error: (issue) => messages.badSort(String(issue.input), SORTS, closeSorts(String(issue.input))) })
    .default('rank')
    .meta({ description: '`rank` (or `score`): rank order; `mentions`: mention count first; `name`: alphabetical; `change`: biggest rank improvers since the previous month first.' }),
});

/** §4.6 (path) */
export const LeadersPathSchema = z.object({
  industry: z.string().meta({ description: 'Industry slug or name, case-insensitive (`all` for all industries).', example: 'aerospace' }),
  country: country,
});

/** §4.6 */
export const LeadersQuerySchema = z.object({
  limit: integer('limit', LIMITS.leaders.min, LIMITS.leaders.max, LIMITS.leaders.default).meta({
    description: `Number of leaders, ${LIMITS.leaders.min} to ${LIMITS.leaders.max}.`,
  }),
  month,
});

/** §4.7 */
export const CompareQuerySchema = z.object({
  companies: z
    .string({ error: messages.compareMissing })
    .meta({ description: `${LIMITS.compare.min} to ${LIMITS.compare.max} distinct company slugs, comma-separated.`, example: 'kestrel-aerospace-group,northwind' }),
  country: country.optional().meta({ description: 'Country applied to every company. Default: each company in its own default country.' }),
  month,
});

const closeSorts = (given: string): string[] => closeValues(given, SORTS.map((sort) => [sort]));

/** The optional fields of the 400 for a parameter, from its value: the valid values and the close ones. */
const extras: Record<string, (given: string) => ErrorExtra> = {
  sort: (given) => withSuggestions({ validSorts: [...SORTS] }, closeSorts(given)),
};

/** An error body's extra fields plus `suggestions` when there are any. */
export const withSuggestions = (extra: ErrorExtra, suggestions: readonly string[]): ErrorExtra =>
  suggestions.length ? { ...extra, suggestions: [...suggestions] } : extra;

/**
 * Validates a query against one of the schemas above. Blank optional values count
 * as absent; the first problem becomes a 400 naming the parameter. A name that is a
 * typo of one of the endpoint's parameters (`industy`, `Country`, `countries`) is a 400
 * saying which one it looks like; other unknown names (`utm_source`, `_`) are ignored
 * and never change the answer.
 *
 * @example
 * const { limit, page } = parseParams(RankingsQuerySchema, c.req.query());
 */
export function parseParams<S extends z.ZodObject>(schema: S, raw: Record<string, string>): z.output<S> {
  const known = Object.keys(schema.shape);
  for (const name of Object.keys(raw)) {
    if (known.includes(name)) continue;
    // A typo of a parameter is a 400 naming it; any other unknown name is ignored.
    const meant = closeParameter(name, known);
    if (meant !== undefined) throw badRequest(messages.typoParameter(name, meant), { parameter: name, validParameters: known });
  }
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = raw[key];
    if (value === undefined) continue;
    if (key !== 'q' && value.trim() === '') continue;
    input[key] = value;
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? '');
  throw badRequest(issue?.message ?? messages.unknownParameter(name), { parameter: name, ...extras[name]?.(input[name] ?? '') });
}
