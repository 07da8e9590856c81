/**
 * The build's side of the publish gate (src/core/gate.ts): the facts of each scored
 * month, the operator's acceptances, and the verdict on the new current month.
 */
import { readDataJson } from './data-json.ts';
import { AcceptDropsSchema, PublishGateError, checkRelease, type AcceptDrops, type MonthFacts } from '../core/gate.ts';
import type { MonthResult } from '../core/score.ts';

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
