import { closest, distance } from 'fastest-levenshtein';

/** One problem in the data folder (data-and-rules §1.5), located as precisely as the input allows. */
export interface DataIssue {
  file: string;
  line?: number;
  column?: number;
  columnName?: string;
  message: string;
}

export const MAX_ISSUES = 50;

/** Thrown by the build when the data folder has problems; carries all of them (up to {@link MAX_ISSUES}). */
export class DataError extends Error {
  constructor(readonly issues: DataIssue[], readonly truncated = false) {
    super(`${issues.length}${truncated ? '+' : ''} problem(s) in the data folder:\n${issues.map(formatIssue).join('\n')}`);
    this.name = 'DataError';
  }
}

/** `file:line:column (name): message`, the form editors and CI annotations understand. */
export function formatIssue(i: DataIssue): string {
  const where = [i.file, i.line, i.line !== undefined ? i.column : undefined].filter((x) => x !== undefined).join(':');
  return `${where}${i.columnName ? ` (${i.columnName})` : ''}: ${i.message}`;
}

/** Collects issues up to a cap, so that one run shows all of them. */
export class IssueList {
  readonly items: DataIssue[] = [];
  truncated = false;
  add(issue: DataIssue): void {
    if (this.items.length >= MAX_ISSUES) this.truncated = true;
    else this.items.push(issue);
  }
  get full(): boolean {
    return this.items.length >= MAX_ISSUES;
  }
  throwIfAny(): void {
    if (this.items.length) throw new DataError(this.items, this.truncated);
  }
}

/** The nearest valid value, when it is near enough to be a plausible typo. */
export function nearest(value: string, valid: readonly string[]): string | undefined {
  if (!valid.length || !value) return undefined;
  const lower = value.toLowerCase();
  const best = closest(lower, valid.map((v) => v.toLowerCase()));
  if (distance(lower, best) > Math.max(2, Math.floor(lower.length / 2))) return undefined;
  return valid.find((v) => v.toLowerCase() === best);
}

export function didYouMean(value: string, valid: readonly string[]): string {
  const n = nearest(value, valid);
  return n ? `; did you mean "${n}"?` : '';
}
