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
  /** A file's header, when its columns are in another order than the expected one. */
  readonly #headers = new Map<string, string[]>();
  /** Issues of `file` that name a column then give its place in the file, not in the expected order. */
  columnsInFile(file: string, header: string[]): void {
    this.#headers.set(file, header);
  }
  add(issue: DataIssue): void {
    const header = issue.columnName ? this.#headers.get(issue.file) : undefined;
    const at = header?.indexOf(issue.columnName!.toLowerCase()) ?? -1;
    if (at >= 0 && issue.column !== undefined) issue = { ...issue, column: at + 1 };
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
  // A typo or two in a longer word, one in a short one.
  if (distance(lower, best) > Math.max(1, Math.floor(lower.length / 3))) return undefined;
  return valid.find((v) => v.toLowerCase() === best);
}

export function didYouMean(value: string, valid: readonly string[]): string {
  const n = nearest(value, valid);
  return n ? `; did you mean "${n}"?` : '';
}
