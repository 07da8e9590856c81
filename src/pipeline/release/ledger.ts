/**
 * The build's side of the release ledger (src/core/ledger.ts): month digests, the files
 * `data/releases.json` and `data/corrections.json`, and the verdict. A new month is recorded
 * by the build that first publishes it. `EVI_LEDGER=strict` also stops a build where a past
 * month is not recorded.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataError } from '../../core/data-error.ts';
import { readDataJson } from '../write/data-json.ts';
import { CorrectionsSchema, LedgerSchema, type Correction, type FilesChange, type Ledger, type LedgerChange, type LedgerEntry, type MonthRecord } from '../../core/schemas/ledger.ts';
import type { Registry } from '../../core/registry.ts';
import { round1, type MonthResult } from '../../core/score.ts';
import { viewPaths, type BoardView } from '../../core/views/layout.ts';
import { describeFileChanges, hashed, monthFileDigests, sha256Hex } from './published-files.ts';

export const LEDGER_FILE = 'releases.json';
export const CORRECTIONS_FILE = 'corrections.json';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Each company's slug as JSON text, made once per registry. */
const quotedSlugs = new WeakMap<Registry, string[]>();

function quoted(reg: Registry): string[] {
  let q = quotedSlugs.get(reg);
  if (!q) {
    q = reg.companies.map((c) => JSON.stringify(c.slug));
    quotedSlugs.set(reg, q);
  }
  return q;
}

/**
 * The digests of one month: per board and of the whole month. A board's digest is that of
 * the JSON text `[k,[[slug,hits,mentions],...]]`, written directly rather than by stringifying
 * rows; {@link monthRecordByStringify} is the reference the test compares with.
 */
export function monthRecord(reg: Registry, r: MonthResult): MonthRecord {
  const q = quoted(reg);
  const boards: Record<string, string> = {};
  const seen = new Uint8Array(reg.companies.length);
  let rankedCompanies = 0;
  for (const [key, b] of r.boards) {
    const { order, hits, mentions } = b;
    const h = createHash('sha256').update(`[${JSON.stringify(b.k)},[`);
    // in pieces of 1,024 rows: no string of a whole large board
    for (let start = 0; start < order.length; start += 1024) {
      const end = Math.min(order.length, start + 1024);
      let text = '';
      for (let p = start; p < end; p++) {
        const idx = order[p]!;
        if (!seen[idx]) {
          seen[idx] = 1;
          rankedCompanies++;
        }
        text += `${p ? ',' : ''}[${q[idx]},${hits[p]},${mentions[p]}]`;
      }
      h.update(text);
    }
    boards[key] = h.update(']]').digest('hex').slice(0, 16);
  }
  return recordOf(r.month, boards, rankedCompanies);
}

function recordOf(month: string, boards: Record<string, string>, rankedCompanies: number): MonthRecord {
  const keys = Object.keys(boards).sort();
  return {
    month,
    digest: sha(keys.map((k) => `${k}:${boards[k]}`).join('\n')),
    leaderboards: keys.length,
    rankedCompanies,
    boards: Object.fromEntries(keys.map((k) => [k, boards[k]!])),
  };
}

/** {@link monthRecord} by JSON.stringify of the rows: the reference for the test. */
export function monthRecordByStringify(reg: Registry, r: MonthResult): MonthRecord {
  const boards: Record<string, string> = {};
  const ranked = new Set<number>();
  for (const [key, b] of r.boards) {
    const rows = [...b.order].map((idx, p) => [reg.companies[idx]!.slug, b.hits[p], b.mentions[p]]);
    for (const idx of b.order) ranked.add(idx);
    boards[key] = sha(JSON.stringify([b.k, rows])).slice(0, 16);
  }
  return recordOf(r.month, boards, ranked.size);
}

/** For a stopped build: up to 5 entries per changed board, from the previous output when it is there. */
function describer(reg: Registry, results: MonthResult[], previousOut: string | null) {
  return (change: LedgerChange): string[] => {
    const r = results.find((x) => x.month === change.month);
    if (!r || !previousOut) return [];
    const lines: string[] = [];
    for (const key of change.changedBoards.slice(0, 5)) {
      const [country, industry] = key.split('/') as [string, string];
      let old: BoardView | null = null;
      try {
        old = JSON.parse(readFileSync(join(previousOut, viewPaths.board(change.month, country, industry)), 'utf8')) as BoardView;
      } catch {
        // not in the previous output
      }
      const b = r.boards.get(key);
      const now = new Map<string, [number, number]>();
      b?.order.forEach((idx, p) => now.set(reg.companies[idx]!.slug, [p + 1, round1(b.hits[p]!, b.k)]));
      const was = new Map<string, [number, number]>();
      old?.rows.forEach((row, p) => was.set(row[0], [p + 1, row[3]]));
      const diffs: string[] = [];
      for (const slug of new Set([...was.keys(), ...now.keys()])) {
        const a = was.get(slug), c = now.get(slug);
        if (a && c && a[0] === c[0] && a[1] === c[1]) continue;
        diffs.push(`${slug}: ${a ? `rank ${a[0]}, score ${a[1]}` : 'absent'} -> ${c ? `rank ${c[0]}, score ${c[1]}` : 'absent'}`);
      }
      if (old) lines.push(`${key}: ${diffs.slice(0, 5).join('; ')}${diffs.length > 5 ? `; and ${diffs.length - 5} more` : ''}`);
    }
    return lines;
  };
}

/** What {@link checkLedger} decided. */
export interface LedgerPlan {
  /** The ledger as read. */
  before: Ledger;
  /** The ledger with new months, revisions and the board corrections of this build. */
  ledger: Ledger;
  corrections: Correction[];
  /** Months a correction of their leaderboards was accepted for in this build. */
  correctedNow: Set<string>;
  /** Per past month, the correction of its files not yet applied. */
  pending: Map<string, Correction>;
}

/** Checks every month's leaderboards against the ledger; stops on an unrecorded change. Writes nothing. */
export async function checkLedger(opts: {
  dataDir: string;
  registry: Registry;
  results: MonthResult[];
  /** The publication date a month gets when it is first recorded. */
  date: (month: string) => string;
  methodologyVersion: string;
  previousOut: string | null;
  log: (line: string) => void;
  /** Each result's {@link monthRecord}, when the caller made them already. */
  records?: MonthRecord[];
}): Promise<LedgerPlan> {
  const ledger = await readDataJson(opts.dataDir, LEDGER_FILE, LedgerSchema, { version: 1, months: [] });
  const corrections = await readDataJson(opts.dataDir, CORRECTIONS_FILE, CorrectionsSchema, []);
  const computed = opts.records ?? opts.results.map((r) => monthRecord(opts.registry, r));
  if (process.env.EVI_LEDGER === 'strict') {
    const missing = computed.slice(0, -1).filter((r) => !ledger.months.some((e) => e.month === r.month));
    if (missing.length)
      throw new DataError([{ file: LEDGER_FILE, message: `published months not recorded: ${missing.map((m) => m.month).join(', ')}; run npm run build locally and commit data/${LEDGER_FILE}` }]);
  }
  const { ledger: next, unaccepted, revised } = reconcile(ledger, computed, corrections, { date: opts.date, methodologyVersion: opts.methodologyVersion });
  if (unaccepted.length) throw new FrozenMonthError(unaccepted, describer(opts.registry, opts.results, opts.previousOut));
  for (const r of revised) opts.log(`  release ledger: ${r.month} is the newest month, still provisional: revised (${r.changedBoards.length} leaderboard(s) changed)`);
  const correctedNow = new Set(next.months.filter((m) => m.corrections.length > (ledger.months.find((e) => e.month === m.month)?.corrections.length ?? 0)).map((m) => m.month));
  const { ledger: listed, pending } = withPendingCorrections(next, corrections, correctedNow);
  return { before: ledger, ledger: listed, corrections, correctedNow, pending };
}

/**
 * Checks the files every past month publishes against the ledger: stops naming what would
 * change unless a correction covers it; records a month not yet recorded. Returns the ledger.
 */
export function checkPublishedFiles(
  plan: LedgerPlan,
  o: {
    site: string;
    live: string | null;
    months: string[];
    companyShards: number;
    origin: string;
    /** Folders published as the live release's packs, checked by their SHA-256 (pack-site.ts): their digests stay the ledger's. */
    linked?: Set<string>;
    log: (line: string) => void;
  },
): Ledger {
  const past = o.months.slice(0, -1);
  const t0 = performance.now();
  const read = { ...hashed };
  const linked = [...(o.linked ?? [])];
  const isLinked = (folder: string) => linked.some((g) => folder === g || folder.startsWith(`${g}/`));
  const recordedFiles = new Map(plan.ledger.months.map((e) => [e.month, e.files ?? {}]));
  const computed = past.map((month) => {
    const made = Object.entries(monthFileDigests(o.site, month, o.origin)).filter(([folder]) => !isLinked(folder));
    const kept = Object.entries(recordedFiles.get(month) ?? {}).filter(([folder]) => isLinked(folder));
    const folders = new Map([...made, ...kept]);
    return { month, folders: Object.fromEntries([...folders.keys()].sort().map((k) => [k, folders.get(k)!])) };
  });
  o.log(
    `  release ledger: the published files of ${past.length} past month(s) checked in ${((performance.now() - t0) / 1000).toFixed(2)} s (${hashed.files - read.files} read and hashed, ${((hashed.bytes - read.bytes) / 1048576).toFixed(1)} MiB; the others known from the cache)`,
  );
  const { entries, unaccepted, accepted } = reconcileFiles(plan.ledger.months, computed, { companyShards: o.companyShards, pending: plan.pending, correctedNow: plan.correctedNow, hash: sha256Hex });
  if (unaccepted.length) {
    const changes = unaccepted.map((u) => ({ month: u.month, previousDigest: '', digest: u.digest, changedBoards: [], changedFiles: u.changedFolders }));
    const wrong = new Map(unaccepted.filter((u) => u.correction).map((u) => [u.month, u.correction!]));
    throw new FrozenMonthError(changes, (c) => [
      ...(wrong.has(c.month) ? [`data/corrections.json names digest ${wrong.get(c.month)!.digest} for ${c.month}, not this change (${c.digest.slice(0, 16)})${c.changedFiles?.length ? '' : ': its files did not change'}`] : []),
      ...describeFileChanges(o.site, o.live, c.changedFiles ?? []),
    ]);
  }
  for (const a of accepted) o.log(`  release ledger: ${a.month}: published files changed in ${a.changedFolders.join(', ')} (${a.correction ? `correction: ${a.correction.reason}` : 'with the correction of its leaderboards'})`);
  return { version: 1, months: entries };
}

/** Writes the ledger once its release went live: a build that fails records nothing. */
export async function writeLedger(dataDir: string, before: Ledger, next: Ledger, log: (line: string) => void): Promise<void> {
  const text = `${JSON.stringify(next, null, 1)}\n`;
  const path = join(dataDir, LEDGER_FILE);
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === text) return;
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
  const added = next.months.filter((m) => !before.months.some((e) => e.month === m.month)).map((m) => m.month);
  log(`  release ledger: ${added.length ? `recorded ${added.join(', ')}` : 'updated'}; commit ${LEDGER_FILE} of the data folder`);
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
