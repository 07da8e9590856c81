/**
 * The build report (`dist.build-report.json` beside the output, and the printed summary),
 * plus what the gate and the ledger need of each month. No wall clock: it is reproducible.
 */
import { basename, dirname, join } from 'node:path';
import type { Registry } from '../../core/registry.ts';
import type { MonthResult } from '../../core/score.ts';
import { compareKeys } from '../../core/text.ts';
import type { MonthFacts } from '../release/gate.ts';
import { monthFacts } from '../release/gate.ts';
import type { MonthStats } from '../score/score-months.ts';

/** Where the report of a build into `outDir` is written: beside the output, so no host serves it. */
export const reportPath = (outDir: string): string => join(dirname(outDir), `${basename(outDir)}.build-report.json`);

export interface BuildReport {
  dataset: { months: string[]; currentMonth: string; lastUpdated: string; companies: number; industries: number; countries: number };
  rows: { total: number; scored: number; research: number; emptyCompany: number; byMonth: Record<string, number> };
  researchModels: Record<string, number>;
  contexts: { total: number; currentMonth: number };
  themes: string[];
  unresolvedNames: { total: number; distinct: number; top: { name: string; count: number }[] };
  outOfUniverseMentions: number;
  output: { files: number; bytes: number };
  /** The publish gate's findings on the current month, and the accepted reason when there were some. */
  gate?: { findings: string[]; acceptedBecause: string | null };
}

export interface BuildResult {
  report: BuildReport;
  seconds: number;
  cacheHits: number;
}

/** Folds the scored months, oldest first, into a {@link BuildReport}. */
export class ReportBuilder {
  readonly report: BuildReport;
  /** Each month's facts for the publish gate, oldest first. */
  readonly facts: MonthFacts[] = [];
  /** month -> the last day its data was collected. */
  readonly latestByMonth = new Map<string, string>();
  private readonly unresolved = new Map<string, number>();
  private readonly themes = new Set<string>();
  private latestDate: string | null = null;
  private added = 0;

  constructor(reg: Registry, months: string[]) {
    this.report = {
      dataset: { months, currentMonth: months[months.length - 1]!, lastUpdated: '', companies: reg.companies.length, industries: reg.industries.length, countries: reg.countries.length },
      rows: { total: 0, scored: 0, research: 0, emptyCompany: 0, byMonth: {} },
      researchModels: {},
      contexts: { total: 0, currentMonth: 0 },
      themes: [],
      unresolvedNames: { total: 0, distinct: 0, top: [] },
      outOfUniverseMentions: 0,
      output: { files: 0, bytes: 0 },
    };
  }

  add(r: MonthResult, st: MonthStats): void {
    const report = this.report;
    report.rows.total += st.rows;
    report.rows.scored += st.scoredRows;
    report.rows.research += st.researchRows;
    report.rows.emptyCompany += st.emptyCompanyRows;
    report.rows.byMonth[st.month] = st.rows;
    for (const [m, n] of Object.entries(st.researchModels)) report.researchModels[m] = (report.researchModels[m] ?? 0) + n;
    report.contexts.total += r.boards.size;
    if (++this.added === report.dataset.months.length) {
      report.contexts.currentMonth = r.boards.size;
      this.latestDate = st.latestDate;
    }
    this.facts.push(monthFacts(r, st.scoredRows));
    if (st.latestDate) this.latestByMonth.set(st.month, st.latestDate);
    for (const t of st.themes) this.themes.add(t);
    for (const [n, c] of r.unresolved) this.unresolved.set(n, (this.unresolved.get(n) ?? 0) + c);
    report.outOfUniverseMentions += r.outOfUniverse;
  }

  /** Completes the report; returns `lastUpdated`: SOURCE_DATE_EPOCH's day, else the latest collection date. */
  finish(sourceDateEpoch: number | undefined): string {
    const report = this.report;
    const lastUpdated =
      sourceDateEpoch !== undefined ? new Date(sourceDateEpoch * 1000).toISOString().slice(0, 10) : (this.latestDate ?? `${report.dataset.currentMonth}-01`);
    report.dataset.lastUpdated = lastUpdated;
    report.themes = [...this.themes].sort(compareKeys);
    report.researchModels = Object.fromEntries(Object.entries(report.researchModels).sort(([a], [b]) => compareKeys(a, b)));
    const top = [...this.unresolved].sort((a, b) => b[1] - a[1] || compareKeys(a[0], b[0]));
    report.unresolvedNames = { total: top.reduce((s, [, n]) => s + n, 0), distinct: top.length, top: top.slice(0, 20).map(([name, count]) => ({ name, count })) };
    return lastUpdated;
  }
}
