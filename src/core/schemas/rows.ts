/** CSV row shapes of data-and-rules.md §1, one zod schema per file kind. */
import { z } from 'zod';
import { MONTH_RE, SLUG_RE } from '../text.ts';

/** The longest value each free-text field may hold: generous, yet one bad row cannot blow up a response. */
export const TEXT_LIMITS = {
  answer_id: 200,
  model: 100,
  country: 100,
  industry: 200,
  theme: 200,
  question_id: 200,
  company: 300,
  name: 200,
  alias: 200,
  website: 253,
  slug: 100,
  aliases: 2000,
} as const;

/** C0 and C1 control characters and DEL (tab, line breaks and the rest): never part of a name. */
export const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;

/** A value as it appears in an error message: at most 60 characters, controls made visible. */
export function preview(value: string): string {
  const short = value.length > 60 ? `${value.slice(0, 60)}… (${value.length} characters)` : value;
  return short.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const bounded = (schema: z.ZodString, max: number) =>
  schema.max(max, `is longer than ${max} characters`).refine((s) => !CONTROL_RE.test(s), 'contains a control character');
const text = (what: string, max: number) => bounded(z.string().trim().min(1, `${what} is empty`), max);
const list = (max: number) =>
  z
    .string()
    .max(TEXT_LIMITS.aliases, `is longer than ${TEXT_LIMITS.aliases} characters`)
    .transform((s) =>
      s
        .split('|')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .refine((items) => items.every((x) => x.length <= max && !CONTROL_RE.test(x)), `each entry must have at most ${max} characters and no control character`);

export const COUNTRY_COLUMNS = ['code', 'name', 'aliases'] as const;
export const CountryRowSchema = z.object({
  code: z.string().trim().regex(/^[a-z]{2}$/, 'must be a lowercase ISO 3166-1 alpha-2 code such as "us"'),
  name: text('name', TEXT_LIMITS.name),
  aliases: list(TEXT_LIMITS.alias),
});

export const INDUSTRY_COLUMNS = ['name'] as const;
export const IndustryRowSchema = z.object({ name: text('name', TEXT_LIMITS.name) });

export const COMPANY_COLUMNS = ['slug', 'name', 'website', 'industries', 'countries', 'aliases', 'tracked_since'] as const;
export const CompanyRowSchema = z.object({
  slug: z
    .string()
    .trim()
    .max(TEXT_LIMITS.slug, `is longer than ${TEXT_LIMITS.slug} characters`)
    .refine((s) => s === '' || SLUG_RE.test(s), 'must be lowercase letters and digits joined by single hyphens'),
  name: text('name', TEXT_LIMITS.name),
  website: z
    .string()
    .trim()
    .max(TEXT_LIMITS.website, `is longer than ${TEXT_LIMITS.website} characters`)
    .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'must be a bare domain such as "example.com"'),
  industries: list(TEXT_LIMITS.industry).refine((a) => a.length > 0, 'at least one industry is required'),
  countries: list(TEXT_LIMITS.country).refine((a) => a.length > 0, 'at least one country is required'),
  aliases: list(TEXT_LIMITS.alias),
  tracked_since: z
    .string()
    .trim()
    .refine((s) => s === '' || MONTH_RE.test(s), 'must be YYYY-MM or blank'),
});

export const MENTION_COLUMNS = ['answer_id', 'collected_at', 'model', 'country', 'industry', 'theme', 'question_id', 'company'] as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** The `YYYY-MM-DD` part of a valid §1.4 `collected_at`, or null. */
export function collectedDate(s: string): string | null {
  const m = DATE_RE.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec] = m;
  const year = Number(y), month = Number(mo), day = Number(d);
  if (month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || (sec !== undefined && Number(sec) > 59))) return null;
  return `${y}-${mo}-${d}`;
}

// Tuples, not objects: PapaParse hands arrays, and every row goes through this.
export const MentionRowSchema = z.tuple([
  text('answer_id', TEXT_LIMITS.answer_id),
  z.string().trim().refine((s) => collectedDate(s) !== null, 'must be a date YYYY-MM-DD or an ISO 8601 date-time'),
  text('model', TEXT_LIMITS.model),
  text('country', TEXT_LIMITS.country),
  text('industry', TEXT_LIMITS.industry),
  text('theme', TEXT_LIMITS.theme),
  text('question_id', TEXT_LIMITS.question_id),
  bounded(z.string().trim(), TEXT_LIMITS.company),
]);

/** The limit of each mention column, in {@link MENTION_COLUMNS} order (the date has its own rule). */
export const MENTION_LIMITS = [TEXT_LIMITS.answer_id, 40, TEXT_LIMITS.model, TEXT_LIMITS.country, TEXT_LIMITS.industry, TEXT_LIMITS.theme, TEXT_LIMITS.question_id, TEXT_LIMITS.company] as const;

export type CountryRow = z.infer<typeof CountryRowSchema>;
export type IndustryRow = z.infer<typeof IndustryRowSchema>;
export type CompanyRow = z.infer<typeof CompanyRowSchema>;
export type MentionRow = z.infer<typeof MentionRowSchema>;
