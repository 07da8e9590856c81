/**
 * One month's mention rows folded into per-context aggregates (data-and-rules §1.4, §2):
 * everything scoring needs and nothing more, as plain JSON so that it can be cached by
 * the file's content hash and passed between worker threads. Company names stay as
 * written (folded), so a registry change does not invalidate the cache.
 */
import { didYouMean, type IssueList } from './data-error.ts';
import { MENTION_COLUMNS, MentionRowSchema, collectedDate } from './schemas/rows.ts';
import { foldKey, foldName } from './text.ts';

/** data-and-rules §1.4: the scored models, matched case-insensitively. */
export const SCORED_MODELS = { chatgpt: 'ChatGPT', 'google gemini': 'Google Gemini', perplexity: 'Perplexity' } as const;
export const MODEL_NAMES = Object.values(SCORED_MODELS);

export interface ContextAggregate {
  /** Industry display name. */
  industry: string;
  /** Country code. */
  country: string;
  /** K: distinct (scored model, theme) pairs. */
  combos: [string, string][];
  /** One entry per scored answer: its index in `combos`. */
  answers: number[];
  /** [folded name, first spelling seen, ascending answer indexes naming it]. */
  names: [string, string, number[]][];
}

export interface MonthAggregate {
  month: string;
  file: string;
  rows: number;
  scoredRows: number;
  researchRows: number;
  emptyCompanyRows: number;
  /** Research model (first spelling seen) -> rows. */
  researchModels: Record<string, number>;
  /** Latest `collected_at` date of the month. */
  latestDate: string | null;
  contexts: ContextAggregate[];
}

export interface Lookups {
  countries: { code: string; name: string; aliases: string[] }[];
  industries: { name: string; slug: string }[];
}

interface Ctx {
  agg: ContextAggregate;
  comboIdx: Map<string, number>;
  nameIdx: Map<string, number>;
}

interface AnswerSig {
  /** model, country, industry, theme, question — as normalised values. */
  values: string[];
  line: number;
  ctx: Ctx | null;
  answer: number;
}

const SIG_COLUMNS = [2, 3, 4, 5, 6];

/** Streams a month's rows: `add` each record (fields in {@link MENTION_COLUMNS} order), then `finish`. */
export class MonthAccumulator {
  private readonly countryBy = new Map<string, string>();
  private readonly industryBy = new Map<string, string>();
  private readonly countryValues: string[];
  private readonly industryValues: string[];
  private readonly validDates = new Map<string, string>();
  private readonly contexts = new Map<string, Ctx>();
  private readonly answers = new Map<string, AnswerSig>();
  private readonly research = new Map<string, [string, number]>();
  private rows = 0;
  private scoredRows = 0;
  private researchRows = 0;
  private emptyCompanyRows = 0;
  private latest: string | null = null;

  constructor(
    private readonly file: string,
    private readonly month: string,
    lookups: Lookups,
    private readonly issues: IssueList,
  ) {
    for (const c of lookups.countries) for (const k of [c.code, c.name, ...c.aliases]) this.countryBy.set(foldKey(k), c.code);
    for (const i of lookups.industries) for (const k of [i.name, i.slug]) this.industryBy.set(foldKey(k), i.name);
    this.countryValues = lookups.countries.flatMap((c) => [c.code, c.name]);
    this.industryValues = lookups.industries.map((i) => i.name);
  }

  private issue(line: number, col: number, message: string): void {
    this.issues.add({ file: this.file, line, column: col + 1, columnName: MENTION_COLUMNS[col], message });
  }

  /** Validates one record (fields already trimmed) and folds it in. */
  add(f: string[], line: number): void {
    this.rows++;
    if (!this.fastValid(f)) {
      const r = MentionRowSchema.safeParse(f);
      if (!r.success) {
        for (const iss of r.error.issues) {
          const col = Number(iss.path[0] ?? 0);
          this.issue(line, col, `${iss.message}${f[col] !== undefined ? ` (got "${f[col]}")` : ''}`);
        }
        return;
      }
    }
    const [answerId, collected, model, countryRaw, industryRaw, theme, question, company] = f as [string, string, string, string, string, string, string, string];
    const country = this.countryBy.get(foldKey(countryRaw));
    const industry = this.industryBy.get(foldKey(industryRaw));
    if (!country) this.issue(line, 3, `unknown country "${countryRaw}"${didYouMean(countryRaw, this.countryValues)}`);
    if (!industry) this.issue(line, 4, `unknown industry "${industryRaw}"${didYouMean(industryRaw, this.industryValues)}`);
    if (!country || !industry) return;
    const date = this.validDates.get(collected)!;
    if (this.latest === null || date > this.latest) this.latest = date;

    const modelKey = foldKey(model);
    const scored = (SCORED_MODELS as Record<string, string>)[modelKey];
    const values = [scored ?? modelKey, country, industry, theme, question];
    let sig = this.answers.get(answerId);
    if (sig) {
      for (let i = 0; i < values.length; i++) {
        if (values[i] !== sig.values[i]) {
          const col = SIG_COLUMNS[i]!;
          this.issue(line, col, `answer "${answerId}" has ${MENTION_COLUMNS[col]} "${f[col]}" here but "${sig.values[i]}" on line ${sig.line}; all rows of one answer must agree`);
          return;
        }
      }
    }
    if (!scored) {
      this.researchRows++;
      const r = this.research.get(modelKey);
      if (r) r[1]++;
      else this.research.set(modelKey, [model, 1]);
      if (!sig) this.answers.set(answerId, { values, line, ctx: null, answer: -1 });
      return;
    }
    this.scoredRows++;
    if (!sig) {
      const key = `${industry}\u0000${country}`;
      let ctx = this.contexts.get(key);
      if (!ctx) {
        ctx = { agg: { industry, country, combos: [], answers: [], names: [] }, comboIdx: new Map(), nameIdx: new Map() };
        this.contexts.set(key, ctx);
      }
      const comboKey = `${scored}\u0000${theme}`;
      let combo = ctx.comboIdx.get(comboKey);
      if (combo === undefined) {
        combo = ctx.agg.combos.length;
        ctx.agg.combos.push([scored, theme]);
        ctx.comboIdx.set(comboKey, combo);
      }
      sig = { values, line, ctx, answer: ctx.agg.answers.length };
      ctx.agg.answers.push(combo);
      this.answers.set(answerId, sig);
    }
    if (company === '') {
      this.emptyCompanyRows++;
      return;
    }
    const ctx = sig.ctx!;
    const folded = foldName(company);
    let n = ctx.nameIdx.get(folded);
    if (n === undefined) {
      n = ctx.agg.names.length;
      ctx.agg.names.push([folded, company, []]);
      ctx.nameIdx.set(folded, n);
    }
    const list = ctx.agg.names[n]![2];
    if (list[list.length - 1] !== sig.answer) list.push(sig.answer);
  }

  // Same verdict as MentionRowSchema, memoised on the few distinct dates of a month.
  private fastValid(f: string[]): boolean {
    if (f.length !== 8 || !f[0] || !f[2] || !f[3] || !f[4] || !f[5] || !f[6]) return false;
    const c = f[1]!;
    if (this.validDates.has(c)) return true;
    const d = collectedDate(c);
    if (d === null) return false;
    this.validDates.set(c, d);
    return true;
  }

  finish(): MonthAggregate {
    const contexts = [...this.contexts.values()].map((c) => {
      // Answers naming a company are pushed in row order; rows of one answer may be apart.
      for (const n of c.agg.names) n[2] = [...new Set(n[2])].sort((a, b) => a - b);
      return c.agg;
    });
    contexts.sort((a, b) => (a.industry < b.industry ? -1 : a.industry > b.industry ? 1 : a.country < b.country ? -1 : a.country > b.country ? 1 : 0));
    const researchModels: Record<string, number> = {};
    for (const [, [name, n]] of [...this.research].sort((a, b) => (a[0] < b[0] ? -1 : 1))) researchModels[name] = n;
    return {
      month: this.month,
      file: this.file,
      rows: this.rows,
      scoredRows: this.scoredRows,
      researchRows: this.researchRows,
      emptyCompanyRows: this.emptyCompanyRows,
      researchModels,
      latestDate: this.latest,
      contexts,
    };
  }
}
