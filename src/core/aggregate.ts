/**
 * One month's mention rows folded into per-context aggregates (data-and-rules §1.4, §2):
 * everything scoring needs and nothing more, as plain JSON so that it can be cached by
 * the file's content hash and passed between worker threads. Company names stay as
 * written (folded), so a registry change does not invalidate the cache.
 */
import { didYouMean, type IssueList } from './data-error.ts';
import { CONTROL_RE, MENTION_COLUMNS, MENTION_LIMITS, MentionRowSchema, collectedDate, preview } from './schemas/rows.ts';

/** Distinct field values remembered as free of control characters (bounds the memo's memory). */
const CLEAN_MEMO = 200_000;
import { foldKey, foldName } from './text.ts';
import { SCORED_MODELS } from './policy.ts';

export { MODEL_NAMES, SCORED_MODELS } from './policy.ts';

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
  /** scored model -> theme -> index in `agg.combos` */
  comboIdx: Map<string, Map<string, number>>;
  /** folded name, and each raw spelling seen -> index in `agg.names` */
  nameIdx: Map<string, number>;
}

/** What every row of one answer must agree on (model folded; country and industry resolved). */
interface AnswerSig {
  model: string;
  country: string;
  industry: string;
  theme: string;
  question: string;
  line: number;
  ctx: Ctx | null;
  answer: number;
}

type MentionColumn = (typeof MENTION_COLUMNS)[number];

/** Each input column's position in a record, by name ({@link MENTION_COLUMNS} order). */
export const COL = Object.fromEntries(MENTION_COLUMNS.map((name, i) => [name, i])) as { readonly [K in MentionColumn]: number };

/** What every row of one answer must agree on: the signature's field and the column it comes from. */
const SIG_FIELDS = [
  ['model', COL.model],
  ['country', COL.country],
  ['industry', COL.industry],
  ['theme', COL.theme],
  ['question', COL.question_id],
] as const satisfies readonly (readonly [keyof AnswerSig, number])[];

/** Streams a month's rows: `add` each record (fields in {@link MENTION_COLUMNS} order), then `finish`. */
export class MonthAccumulator {
  private readonly countryBy = new Map<string, string>();
  private readonly industryBy = new Map<string, string>();
  private readonly countryValues: string[];
  private readonly industryValues: string[];
  private readonly validDates = new Map<string, string>();
  private readonly cleanText = new Set<string>();
  /** industry -> country -> context */
  private readonly contexts = new Map<string, Map<string, Ctx>>();
  private readonly countryMemo = new Map<string, string | undefined>();
  private readonly industryMemo = new Map<string, string | undefined>();
  private readonly modelMemo = new Map<string, string>();
  private readonly foldMemo = new Map<string, string>();
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
          this.issue(line, col, `${iss.message}${f[col] !== undefined ? ` (got "${preview(f[col])}")` : ''}`);
        }
        return;
      }
    }
    const answerId = f[COL.answer_id]!;
    const model = f[COL.model]!;
    const countryRaw = f[COL.country]!;
    const industryRaw = f[COL.industry]!;
    const theme = f[COL.theme]!;
    const question = f[COL.question_id]!;
    const company = f[COL.company]!;
    const country = this.country(countryRaw);
    const industry = this.industry(industryRaw);
    if (!country) this.issue(line, COL.country, `unknown country "${countryRaw}"${didYouMean(countryRaw, this.countryValues)}`);
    if (!industry) this.issue(line, COL.industry, `unknown industry "${industryRaw}"${didYouMean(industryRaw, this.industryValues)}`);
    if (!country || !industry) return;
    const date = this.validDates.get(f[COL.collected_at]!)!;
    if (this.latest === null || date > this.latest) this.latest = date;

    const modelKey = this.model(model);
    const scored = (SCORED_MODELS as Record<string, string>)[modelKey];
    let sig = this.answers.get(answerId);
    if (sig) {
      if (sig.model !== modelKey || sig.country !== country || sig.industry !== industry || sig.theme !== theme || sig.question !== question) {
        const here = { model: modelKey, country, industry, theme, question };
        const [field, col] = SIG_FIELDS.find(([field]) => sig![field] !== here[field])!;
        this.issue(line, col, `answer "${answerId}" has ${MENTION_COLUMNS[col]} "${f[col]}" here but "${sig[field]}" on line ${sig.line}; all rows of one answer must agree`);
        return;
      }
    }
    if (!scored) {
      this.researchRows++;
      const r = this.research.get(modelKey);
      if (r) r[1]++;
      else this.research.set(modelKey, [model, 1]);
      if (!sig) this.answers.set(answerId, { model: modelKey, country, industry, theme, question, line, ctx: null, answer: -1 });
      return;
    }
    this.scoredRows++;
    if (!sig) {
      let byCountry = this.contexts.get(industry);
      if (!byCountry) this.contexts.set(industry, (byCountry = new Map()));
      let ctx = byCountry.get(country);
      if (!ctx) {
        ctx = { agg: { industry, country, combos: [], answers: [], names: [] }, comboIdx: new Map(), nameIdx: new Map() };
        byCountry.set(country, ctx);
      }
      let byTheme = ctx.comboIdx.get(scored);
      if (!byTheme) ctx.comboIdx.set(scored, (byTheme = new Map()));
      let combo = byTheme.get(theme);
      if (combo === undefined) {
        combo = ctx.agg.combos.length;
        ctx.agg.combos.push([scored, theme]);
        byTheme.set(theme, combo);
      }
      sig = { model: modelKey, country, industry, theme, question, line, ctx, answer: ctx.agg.answers.length };
      ctx.agg.answers.push(combo);
      this.answers.set(answerId, sig);
    }
    if (company === '') {
      this.emptyCompanyRows++;
      return;
    }
    const ctx = sig.ctx!;
    let n = ctx.nameIdx.get(company);
    if (n === undefined) {
      const folded = this.fold(company);
      n = ctx.nameIdx.get(folded);
      if (n === undefined) {
        n = ctx.agg.names.length;
        ctx.agg.names.push([folded, company, []]);
        ctx.nameIdx.set(folded, n);
      }
      // Raw spellings map to their folded entry too, so a spelling is folded once per context.
      ctx.nameIdx.set(company, n);
    }
    const list = ctx.agg.names[n]![2];
    if (list[list.length - 1] !== sig.answer) list.push(sig.answer);
  }

  // Lookups memoised on the raw text: a month has a few hundred distinct spellings of these.
  private country(raw: string): string | undefined {
    let v = this.countryMemo.get(raw);
    if (v === undefined && !this.countryMemo.has(raw)) this.countryMemo.set(raw, (v = this.countryBy.get(foldKey(raw))));
    return v;
  }

  private industry(raw: string): string | undefined {
    let v = this.industryMemo.get(raw);
    if (v === undefined && !this.industryMemo.has(raw)) this.industryMemo.set(raw, (v = this.industryBy.get(foldKey(raw))));
    return v;
  }

  private model(raw: string): string {
    let v = this.modelMemo.get(raw);
    if (v === undefined) this.modelMemo.set(raw, (v = foldKey(raw)));
    return v;
  }

  private fold(raw: string): string {
    let v = this.foldMemo.get(raw);
    if (v === undefined) this.foldMemo.set(raw, (v = foldName(raw)));
    return v;
  }

  // Same verdict as MentionRowSchema, memoised on the few distinct dates of a month.
  private fastValid(f: string[]): boolean {
    if (f.length !== MENTION_COLUMNS.length) return false;
    // Required fields (company may be empty: an answer naming no one).
    if (!f[COL.answer_id] || !f[COL.model] || !f[COL.country] || !f[COL.industry] || !f[COL.theme] || !f[COL.question_id]) return false;
    // Bounded text without control characters; each distinct value is checked once.
    for (let i = 0; i < MENTION_COLUMNS.length; i++) {
      if (i === COL.collected_at) continue;
      const v = f[i]!;
      if (v.length > MENTION_LIMITS[i]!) return false;
      if (!this.cleanText.has(v)) {
        if (CONTROL_RE.test(v)) return false;
        if (this.cleanText.size < CLEAN_MEMO) this.cleanText.add(v);
      }
    }
    const c = f[COL.collected_at]!;
    if (this.validDates.has(c)) return true;
    const d = collectedDate(c);
    if (d === null) return false;
    this.validDates.set(c, d);
    return true;
  }

  finish(): MonthAggregate {
    const contexts = [...this.contexts.values()].flatMap((m) => [...m.values()]).map((c) => {
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
