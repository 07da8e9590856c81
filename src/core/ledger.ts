/**
 * Frozen months: the release ledger (`data/releases.json`) records a digest of each published
 * month's leaderboards. A build that would publish different numbers for a recorded month
 * stops, unless `data/corrections.json` records a correction for exactly that change. Pure:
 * the build computes the digests and reads and writes the files.
 */
import { z } from 'zod';
import { MONTH_RE } from './text.ts';

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

/** The boards of two records that differ (changed, added or removed), sorted. */
export function changedBoards(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).sort();
}

/** Checks the computed months against the ledger: the new ledger, the changes no correction covers, the revisions. */
export function reconcile(
  ledger: Ledger,
  computed: MonthRecord[],
  corrections: Correction[],
  release: { date: (month: string) => string; methodologyVersion: string },
): { ledger: Ledger; unaccepted: LedgerChange[]; revised: LedgerChange[] } {
  const byMonth = new Map(ledger.months.map((e) => [e.month, e]));
  const unaccepted: LedgerChange[] = [];
  const revised: LedgerChange[] = [];
  const months: LedgerEntry[] = [];
  for (const rec of computed) {
    const entry = byMonth.get(rec.month);
    if (!entry) {
      // In the schema's key order, so that reading and writing the file again changes nothing.
      months.push({
        month: rec.month,
        published: release.date(rec.month),
        methodologyVersion: release.methodologyVersion,
        digest: rec.digest,
        leaderboards: rec.leaderboards,
        rankedCompanies: rec.rankedCompanies,
        boards: rec.boards,
        corrections: [],
      });
      continue;
    }
    if (entry.digest === rec.digest) {
      months.push(entry);
      continue;
    }
    const change: LedgerChange = { month: rec.month, previousDigest: entry.digest, digest: rec.digest, changedBoards: changedBoards(entry.boards, rec.boards) };
    // The newest month stays provisional: a re-export of it is a revision, not stopped.
    const newest = rec === computed[computed.length - 1] && ledger.months.every((e) => e.month <= rec.month);
    if (newest) {
      months.push({ ...entry, digest: rec.digest, leaderboards: rec.leaderboards, rankedCompanies: rec.rankedCompanies, boards: rec.boards });
      revised.push(change);
      continue;
    }
    const correction = corrections.find((c) => c.month === rec.month && rec.digest.startsWith(c.digest));
    if (!correction) {
      unaccepted.push(change);
      months.push(entry);
      continue;
    }
    months.push({
      ...entry,
      ...rec,
      methodologyVersion: release.methodologyVersion,
      corrections: [...entry.corrections, { ...correction, previousDigest: entry.digest, changedBoards: change.changedBoards }],
    });
  }
  // Months recorded but no longer in the data stay recorded: removing a month is a change too.
  for (const entry of ledger.months)
    if (!computed.some((r) => r.month === entry.month)) unaccepted.push({ month: entry.month, previousDigest: entry.digest, digest: '(month removed)', changedBoards: Object.keys(entry.boards) });
  months.sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0));
  return { ledger: { version: 1, months }, unaccepted, revised };
}

/** A correction is pending while the ledger's entry for its month does not list it yet. */
export function isApplied(entry: LedgerEntry | undefined, c: Correction): boolean {
  return !!entry?.corrections.some((a) => a.date === c.date && a.reason === c.reason && a.digest === c.digest);
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

/** The digest of a month's files, from its folders' digests. */
export const filesDigestOf = (folders: Record<string, string>, hash: (text: string) => string): string =>
  hash(
    Object.keys(folders)
      .sort()
      .map((k) => `${k}:${folders[k]}`)
      .join('\n'),
  );

/** The ledger with each pending correction of a past month listed, before the files are written (the changelog lists it). */
export function withPendingCorrections(ledger: Ledger, corrections: Correction[], correctedNow: Set<string>): { ledger: Ledger; pending: Map<string, Correction> } {
  const pending = new Map<string, Correction>();
  const months = ledger.months.map((entry) => {
    if (!entry.files || correctedNow.has(entry.month)) return entry;
    const c = corrections.filter((x) => x.month === entry.month && !isApplied(entry, x)).at(-1);
    if (!c) return entry;
    pending.set(entry.month, c);
    return { ...entry, corrections: [...entry.corrections, { ...c, previousDigest: '', changedBoards: [] }] };
  });
  return { ledger: { ...ledger, months }, pending };
}

/**
 * Compares the past months' files with their record: each month's record to keep and the
 * changes nothing covers. After a change of the shard count the shards are recorded again,
 * not compared (the board digests guard their content).
 */
export function reconcileFiles(
  entries: LedgerEntry[],
  computed: { month: string; folders: Record<string, string> }[],
  o: { companyShards: number; pending: Map<string, Correction>; correctedNow: Set<string>; hash: (text: string) => string },
): { entries: LedgerEntry[]; unaccepted: FilesChange[]; accepted: { month: string; correction: Correction | null; changedFolders: string[] }[] } {
  const byMonth = new Map(computed.map((c) => [c.month, c.folders]));
  const unaccepted: FilesChange[] = [];
  const accepted: { month: string; correction: Correction | null; changedFolders: string[] }[] = [];
  const out = entries.map((entry): LedgerEntry => {
    const folders = byMonth.get(entry.month);
    if (!folders) return entry;
    const record = { ...entry, files: folders, companyShards: o.companyShards };
    if (!entry.files) return record;
    const relaid = entry.companyShards !== o.companyShards;
    const changed = changedBoards(entry.files, folders).filter((k) => !(relaid && k.endsWith('/companies')));
    const digest = filesDigestOf(folders, o.hash);
    const correction = o.pending.get(entry.month);
    if (correction) {
      // listed already (withPendingCorrections): it must name exactly this change
      if (!changed.length || !digest.startsWith(correction.digest)) {
        unaccepted.push({ month: entry.month, digest, changedFolders: changed, correction });
        return entry;
      }
      accepted.push({ month: entry.month, correction, changedFolders: changed });
      const previousDigest = filesDigestOf(entry.files, o.hash);
      return { ...record, corrections: entry.corrections.map((c, i) => (i === entry.corrections.length - 1 ? { ...c, previousDigest, changedFiles: changed } : c)) };
    }
    if (!changed.length) return record;
    if (o.correctedNow.has(entry.month)) {
      accepted.push({ month: entry.month, correction: null, changedFolders: changed });
      return record;
    }
    unaccepted.push({ month: entry.month, digest, changedFolders: changed });
    return entry;
  });
  return { entries: out, unaccepted, accepted };
}

export class FrozenMonthError extends Error {
  constructor(
    readonly changes: LedgerChange[],
    describe: (change: LedgerChange) => string[] = () => [],
  ) {
    super(
      [
        `Published months would change; nothing was published:`,
        ...changes.flatMap((c) => [
          !c.changedFiles
            ? `  ${c.month}: ${c.changedBoards.length} leaderboard(s) changed: ${c.changedBoards.slice(0, 20).join(', ')}${c.changedBoards.length > 20 ? ', ...' : ''}`
            : `  ${c.month}: ${c.changedFiles.length ? `published files changed in ${c.changedFiles.join(', ')}` : 'no published file changed'}`,
          ...describe(c).map((line) => `    ${line}`),
        ]),
        'If the change is a deliberate correction, record it in data/corrections.json and build again:',
        ...changes
          .filter((c) => c.digest !== '(month removed)')
          .map((c) => `  { "month": "${c.month}", "date": "YYYY-MM-DD", "reason": "what was wrong and what changed", "digest": "${c.digest.slice(0, 16)}" }`),
        'Otherwise undo the change to the registry or to the month files (a new alias or tracked_since re-scores past months).',
      ].join('\n'),
    );
    this.name = 'FrozenMonthError';
  }
}
