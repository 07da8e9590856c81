/** CSV row shapes of data-and-rules.md §1, one zod schema per file kind. */
import { z } from 'zod';
import { MONTH_RE, SLUG_RE } from '../text.ts';

const text = (what: string) => z.string().trim().min(1, `${what} is empty`);
const list = z.string().transform((s) =>
  s
    .split('|')
    .map((x) => x.trim())
    .filter(Boolean),
);

export const COUNTRY_COLUMNS = ['code', 'name', 'aliases'] as const;
export const CountryRowSchema = z.object({
  code: z.string().trim().regex(/^[a-z]{2}$/, 'must be a lowercase ISO 3166-1 alpha-2 code such as "us"'),
  name: text('name'),
  aliases: list,
});

export const INDUSTRY_COLUMNS = ['name'] as const;
export const IndustryRowSchema = z.object({ name: text('name') });

export const COMPANY_COLUMNS = ['slug', 'name', 'website', 'industries', 'countries', 'aliases', 'tracked_since'] as const;
export const CompanyRowSchema = z.object({
  slug: z
    .string()
    .trim()
    .refine((s) => s === '' || SLUG_RE.test(s), 'must be lowercase letters and digits joined by single hyphens'),
  name: text('name'),
  website: z
    .string()
    .trim()
    .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'must be a bare domain such as "example.com"'),
  industries: list.refine((a) => a.length > 0, 'at least one industry is required'),
  countries: list.refine((a) => a.length > 0, 'at least one country is required'),
  aliases: list,
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

// Tuples, not objects: 1.2M rows a month go through this, and PapaParse hands arrays.
export const MentionRowSchema = z.tuple([
  text('answer_id'),
  z.string().trim().refine((s) => collectedDate(s) !== null, 'must be a date YYYY-MM-DD or an ISO 8601 date-time'),
  text('model'),
  text('country'),
  text('industry'),
  text('theme'),
  text('question_id'),
  z.string().trim(),
]);

export type CountryRow = z.infer<typeof CountryRowSchema>;
export type IndustryRow = z.infer<typeof IndustryRowSchema>;
export type CompanyRow = z.infer<typeof CompanyRowSchema>;
export type MentionRow = z.infer<typeof MentionRowSchema>;
