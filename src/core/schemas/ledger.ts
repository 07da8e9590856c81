/**
 * The release ledger's shapes (`data/releases.json`, `data/corrections.json`): what each
 * published month recorded, and the corrections accepted since. The rules that use them are
 * the build's (src/pipeline/release/ledger.ts).
 */
import { z } from 'zod';
import { MONTH_RE } from '../text.ts';

const Month = z.string().regex(MONTH_RE, 'must be YYYY-MM');
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

export const CorrectionSchema = z.object({
  month: Month,
  date: Day,
  reason: z.string().trim().min(10, 'say what was wrong and what changed (10 characters or more)'),
  /** The month's new digest, as the stopped build printed it: the correction accepts exactly that change. */
  digest: z.string().regex(/^[0-9a-f]{16,64}$/, 'must be the digest the build printed'),
});
export const CorrectionsSchema = z.array(CorrectionSchema);
export type Correction = z.infer<typeof CorrectionSchema>;

export const LedgerEntrySchema = z.object({
  month: Month,
  /** The date of the build that first published the month (its `lastUpdated`). */
  published: Day,
  methodologyVersion: z.string(),
  /** Digest of the whole month: of its board digests in key order. */
  digest: z.string(),
  leaderboards: z.number().int().nonnegative(),
  rankedCompanies: z.number().int().nonnegative(),
  /** Board key (`country/industry`) -> digest of that board. */
  boards: z.record(z.string(), z.string()),
  /** Corrections applied since the month was first published, oldest first. */
  corrections: z.array(CorrectionSchema.extend({ previousDigest: z.string(), changedBoards: z.array(z.string()), changedFiles: z.array(z.string()).optional() })).default([]),
  /**
   * A past month's published files: each folder -> digest of its files' names and contents.
   * Absent for the newest month (provisional); the next build records it without stopping.
   */
  files: z.record(z.string(), z.string()).optional(),
  /** The number of profile shards `files` was recorded with. */
  companyShards: z.number().int().positive().optional(),
});
export const LedgerSchema = z.object({ version: z.literal(1), months: z.array(LedgerEntrySchema) });
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;
export type Ledger = z.infer<typeof LedgerSchema>;

/** What the build computed for one month. */
export interface MonthRecord {
  month: string;
  digest: string;
  leaderboards: number;
  rankedCompanies: number;
  boards: Record<string, string>;
}

export interface LedgerChange {
  month: string;
  previousDigest: string;
  digest: string;
  /** Boards whose digest changed, appeared or disappeared. */
  changedBoards: string[];
  /** Folders of published files whose digest changed. */
  changedFiles?: string[];
}

/** A past month's published files that differ from the ledger's record. */
export interface FilesChange {
  month: string;
  /** The digest of all the month's files as this build made them: what a correction names. */
  digest: string;
  /** Folders whose digest changed, appeared or disappeared. */
  changedFolders: string[];
  /** A pending correction of the month that does not name this change. */
  correction?: Correction;
}
