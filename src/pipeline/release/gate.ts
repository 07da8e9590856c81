/**
 * The publish gate: a new month with no leaderboards, or a sharp drop from the one before,
 * is almost always a broken export, so it stops the build. A real drop is accepted by an
 * entry in `data/accept-drops.json` or by `EVI_ACCEPT_DROP` for one build.
 */
import { z } from 'zod';
import type { MonthResult } from '../../core/score.ts';
import { MONTH_RE } from '../../core/text.ts';
import { readDataJson } from '../write/data-json.ts';

/** What the gate compares of a month. */
export interface MonthFacts {
  month: string;
  scoredRows: number;
  leaderboards: number;
  rankedCompanies: number;
  /** Country codes with at least one leaderboard. */
  countries: string[];
  /** Industry slugs with at least one leaderboard. */
  industries: string[];
}

/** A measure below this share of the previous month's is a sharp drop. */
export const GATE_MIN_SHARE = 0.5;

export interface GateFinding {
  /** What was checked, for the report. */
  check: string;
  message: string;
  /** false when no acceptance can publish it (a month without a single leaderboard). */
  acceptable: boolean;
}

const n = (x: number) => x.toLocaleString('en-US');

/** `b` as a share of `a` in percent, with enough decimals not to read as the threshold. */
function share(b: number, a: number): string {
  const exact = (100 * b) / a;
  let digits = 0;
  while (digits < 4 && Number(exact.toFixed(digits)) >= GATE_MIN_SHARE * 100) digits++;
  return `${exact.toFixed(digits)}%`;
}

/**
 * Every reason not to publish `cur` after `prev` (none for the first month).
 * @example checkRelease(prev, { ...prev, month: '2026-11', scoredRows: 10 }) // [{ check: 'scored rows', ... }]
 */
export function checkRelease(prev: MonthFacts | null, cur: MonthFacts): GateFinding[] {
  const out: GateFinding[] = [];
  if (cur.leaderboards === 0 || cur.scoredRows === 0) {
    out.push({
      check: 'leaderboards',
      message: `${cur.month} has ${n(cur.scoredRows)} scored rows and ${n(cur.leaderboards)} leaderboards: every ranking and profile would answer 404. Is the file only a header, or only research models?`,
      acceptable: false,
    });
    return out;
  }
  if (!prev) return out;
  for (const [check, a, b] of [
    ['scored rows', prev.scoredRows, cur.scoredRows],
    ['leaderboards', prev.leaderboards, cur.leaderboards],
    ['ranked companies', prev.rankedCompanies, cur.rankedCompanies],
  ] as const) {
    if (b < a * GATE_MIN_SHARE)
      out.push({ check, message: `${check}: ${n(a)} in ${prev.month} -> ${n(b)} in ${cur.month} (${share(b, a)}, below ${GATE_MIN_SHARE * 100}%)`, acceptable: true });
  }
  for (const [check, a, b] of [
    ['countries', prev.countries, cur.countries],
    ['industries', prev.industries, cur.industries],
  ] as const) {
    const gone = a.filter((x) => !b.includes(x));
    if (gone.length) out.push({ check, message: `${check} with leaderboards in ${prev.month} but none in ${cur.month}: ${gone.join(', ')}`, acceptable: true });
  }
  return out;
}

/** `data/accept-drops.json`: the months whose drop the operator has reviewed and accepts. */
export const AcceptDropsSchema = z.array(
  z.object({
    month: z.string().regex(MONTH_RE, 'must be YYYY-MM'),
    reason: z.string().trim().min(10, 'say why the drop is real (10 characters or more)'),
  }),
);
export type AcceptDrops = z.infer<typeof AcceptDropsSchema>;

export class PublishGateError extends Error {
  constructor(
    readonly month: string,
    readonly findings: GateFinding[],
  ) {
    const acceptable = findings.every((f) => f.acceptable);
    super(
      [
        `The new current month ${month} looks broken, so it was not published:`,
        ...findings.map((f) => `  - ${f.message}`),
        acceptable
          ? `If the drop is real, accept it with an entry in data/accept-drops.json: [{ "month": "${month}", "reason": "..." }] (committed, so it is reviewed), or for one build set EVI_ACCEPT_DROP=${month}.`
          : 'A month without leaderboards cannot be published; fix the month file.',
      ].join('\n'),
    );
    this.name = 'PublishGateError';
  }
}

export const ACCEPT_FILE = 'accept-drops.json';

export function monthFacts(r: MonthResult, scoredRows: number): MonthFacts {
  const ranked = new Set<number>();
  for (const o of r.overall.values()) for (const idx of o.order) ranked.add(idx);
  const boards = [...r.boards.values()];
  return {
    month: r.month,
    scoredRows,
    leaderboards: boards.length,
    rankedCompanies: ranked.size,
    countries: [...new Set(boards.map((b) => b.country))].sort(),
    industries: [...new Set(boards.map((b) => b.industrySlug))].sort(),
  };
}

const acceptances = (dataDir: string): Promise<AcceptDrops> => readDataJson(dataDir, ACCEPT_FILE, AcceptDropsSchema, []);

/** Stops the build when the new month fails the gate and no acceptance names it; else returns health and report facts. */
export async function publishGate(
  dataDir: string,
  facts: MonthFacts[],
  log: (line: string) => void,
): Promise<{ health: { leaderboards: number; rankedCompanies: number; acceptedDrop?: string }; gate: { findings: string[]; acceptedBecause: string | null } }> {
  const cur = facts[facts.length - 1]!;
  const prev = facts.length > 1 ? facts[facts.length - 2]! : null;
  const findings = checkRelease(prev, cur);
  const health = { leaderboards: cur.leaderboards, rankedCompanies: cur.rankedCompanies };
  if (findings.length === 0) return { health, gate: { findings: [], acceptedBecause: null } };
  const entry = (await acceptances(dataDir)).find((a) => a.month === cur.month);
  const byEnv = process.env.EVI_ACCEPT_DROP === cur.month ? `accepted for this build with EVI_ACCEPT_DROP=${cur.month}` : null;
  const reason = entry?.reason ?? byEnv;
  if (!reason || !findings.every((f) => f.acceptable)) throw new PublishGateError(cur.month, findings);
  for (const f of findings) log(`  publish gate: ${f.message} (accepted: ${reason})`);
  return { health: { ...health, acceptedDrop: reason }, gate: { findings: findings.map((f) => f.message), acceptedBecause: reason } };
}
