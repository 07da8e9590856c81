/**
 * Scoring and ranking of data-and-rules §2–§3 for one month. Scores are kept as exact
 * fractions (hits / K) and compared by cross-multiplication; rounding happens only
 * when a view is made ({@link round1}).
 */
import type { ContextAggregate, MonthAggregate } from './aggregate.ts';
import type { Company, Registry } from './registry.ts';
import { compareKeys, compareNames } from './text.ts';
import { MODEL_KEYS } from './policy.ts';

export { MODEL_KEYS } from './policy.ts';

/** 100 * num / den rounded half-up to one decimal, in integers so that 0.05 never drifts. */
export function round1(num: number, den: number): number {
  if (den === 0) return 0;
  return Math.floor((2000 * num + den) / (2 * den)) / 10;
}

export interface EntryDetail {
  modelScores: { chatgpt: number | null; googleAi: number | null; perplexity: number | null };
  themes: Record<string, { rank: number; score: number }>;
}

/** One industry leaderboard (m, i, c): company indexes in rank order with their figures. */
export interface Board {
  industry: string;
  industrySlug: string;
  country: string;
  /** |K| */
  k: number;
  /** Scored answers in the context (data-and-rules §2): the evidence behind every score of the board. */
  answers: number;
  order: Int32Array;
  hits: Int32Array;
  mentions: Int32Array;
  /** Current month only: per company index, the profile details (made when asked for). */
  detail?: BoardDetail;
}

/** What a board's details are made from: per entry row (its position on the board), combinations named per model and per theme, and its rank per theme. */
interface DetailCounts {
  rowOf: Map<number, number>;
  models: string[];
  themes: string[];
  asked: Int32Array;
  perTheme: Int32Array;
  modelNamed: Int32Array;
  themeNamed: Int32Array;
  themeRank: Int32Array;
}

/**
 * A board's profile details, each made when asked for from the board's counts. Its state
 * is private: a structured clone of a result (a worker's copy) carries no details.
 */
export class BoardDetail {
  readonly #d: DetailCounts;

  constructor(d: DetailCounts) {
    this.#d = d;
  }

  get(idx: number): EntryDetail | undefined {
    const { rowOf, models, themes, asked, perTheme, modelNamed, themeNamed, themeRank } = this.#d;
    const r = rowOf.get(idx);
    if (r === undefined) return undefined;
    const M = models.length, T = themes.length;
    const modelScores: EntryDetail['modelScores'] = { chatgpt: null, googleAi: null, perplexity: null };
    models.forEach((model, m) => (modelScores[MODEL_KEYS[model]!] = round1(modelNamed[r * M + m]!, asked[m]!)));
    const themeScores: EntryDetail['themes'] = {};
    themes.forEach((theme, t) => (themeScores[theme] = { rank: themeRank[r * T + t]!, score: round1(themeNamed[r * T + t]!, perTheme[t]!) }));
    return { modelScores, themes: themeScores };
  }
}

/** The overall leaderboard (m, c): each company once, by its best board entry. */
export interface Overall {
  country: string;
  order: Int32Array;
  /** Aligned with `order`: the board of the best entry and the position on it. */
  board: Board[];
  pos: Int32Array;
}

export interface MonthResult {
  month: string;
  /** Keyed `${country}/${industrySlug}`, sorted. */
  boards: Map<string, Board>;
  overall: Map<string, Overall>;
  unresolved: Map<string, number>;
  outOfUniverse: number;
}

/** (a.hits / a.k) vs (b.hits / b.k): positive when a is higher. */
export function compareScore(ah: number, ak: number, bh: number, bk: number): number {
  return ah * bk - bh * ak;
}

/** Per (industry, country): registry companies whose lists hold both, in index order. */
export function universes(reg: Registry): Map<string, Company[]> {
  const out = new Map<string, Company[]>();
  for (const c of reg.companies)
    for (const i of c.industries)
      for (const k of c.countries) {
        const key = `${i}\u0000${k}`;
        const list = out.get(key);
        if (list) list.push(c);
        else out.set(key, [c]);
      }
  return out;
}

function scoreContext(
  reg: Registry,
  month: string,
  ctx: ContextAggregate,
  pool: Company[],
  withDetail: boolean,
  result: MonthResult,
): Board {
  const u = pool.filter((c) => c.trackedSince === null || c.trackedSince <= month);
  const inU = new Set(u.map((c) => c.idx));
  const answersOf = new Map<number, number[]>();
  for (const [folded, raw, answers] of ctx.names) {
    const company = reg.companyByName.get(folded);
    if (!company) {
      result.unresolved.set(raw, (result.unresolved.get(raw) ?? 0) + answers.length);
      continue;
    }
    if (!inU.has(company.idx)) {
      result.outOfUniverse += answers.length;
      continue;
    }
    const list = answersOf.get(company.idx);
    if (list) list.push(...answers);
    else answersOf.set(company.idx, answers.slice());
  }
  const k = ctx.combos.length;
  const hitsOf = new Map<number, Uint8Array>();
  const stats = u.map((c) => {
    const answers = answersOf.get(c.idx);
    if (!answers) return { c, hits: 0, mentions: 0, answers: [] as number[] };
    const uniq = [...new Set(answers)];
    const hit = new Uint8Array(k);
    for (const a of uniq) hit[ctx.answers[a]!] = 1;
    hitsOf.set(c.idx, hit);
    let hits = 0;
    for (let i = 0; i < k; i++) hits += hit[i]!;
    return { c, hits, mentions: uniq.length, answers: uniq };
  });
  stats.sort((a, b) => b.hits - a.hits || b.mentions - a.mentions || a.c.nameOrder - b.c.nameOrder);
  const board: Board = {
    industry: ctx.industry,
    industrySlug: reg.industryByKey.get(ctx.industry.toLowerCase())!.slug,
    country: ctx.country,
    k,
    answers: ctx.answers.length,
    order: Int32Array.from(stats, (s) => s.c.idx),
    hits: Int32Array.from(stats, (s) => s.hits),
    mentions: Int32Array.from(stats, (s) => s.mentions),
  };
  if (!withDetail) return board;

  // Each combination's model and theme as small integers, then per company one pass over
  // its combinations and one over its answers (instead of one per theme).
  const themes = [...new Set(ctx.combos.map(([, t]) => t))].sort(compareKeys);
  const themeOf = new Map(themes.map((t, i) => [t, i]));
  const models = [...new Set(ctx.combos.map(([m]) => m))];
  const modelOf = new Map(models.map((m, i) => [m, i]));
  const comboTheme = Int32Array.from(ctx.combos, ([, t]) => themeOf.get(t)!);
  const comboModel = Int32Array.from(ctx.combos, ([m]) => modelOf.get(m)!);
  const asked = new Int32Array(models.length);
  const perTheme = new Int32Array(themes.length);
  for (let i = 0; i < k; i++) {
    asked[comboModel[i]!]!++;
    perTheme[comboTheme[i]!]!++;
  }
  const T = themes.length;
  const M = models.length;
  // Row r of these (r = position in `stats`): combinations named and answers per theme,
  // combinations named per model, and (once the themes are sorted) the rank per theme.
  const themeNamed = new Int32Array(stats.length * T);
  const themeMentions = new Int32Array(stats.length * T);
  const modelNamed = new Int32Array(stats.length * M);
  const themeRank = new Int32Array(stats.length * T);
  const rowOf = new Map<number, number>();
  stats.forEach((s, r) => {
    rowOf.set(s.c.idx, r);
    const hit = hitsOf.get(s.c.idx);
    if (hit)
      for (let i = 0; i < k; i++)
        if (hit[i]) {
          modelNamed[r * M + comboModel[i]!]!++;
          themeNamed[r * T + comboTheme[i]!]!++;
        }
    for (const a of s.answers) themeMentions[r * T + comboTheme[ctx.answers[a]!]!]!++;
  });
  const rows = stats.map((_, r) => r);
  themes.forEach((_, t) => {
    rows.sort((a, b) => themeNamed[b * T + t]! - themeNamed[a * T + t]! || themeMentions[b * T + t]! - themeMentions[a * T + t]! || stats[a]!.c.nameOrder - stats[b]!.c.nameOrder);
    rows.forEach((r, i) => (themeRank[r * T + t] = i + 1));
  });
  // A profile shows the details of one entry per company and country (its best), so
  // they are made as objects only when asked for: fewer than half of a board's entries.
  board.detail = new BoardDetail({ rowOf, models, themes, asked, perTheme, modelNamed, themeNamed, themeRank });
  return board;
}

/**
 * Order of one company's board entries in one country (§3 best entry, §4 otherIndustries):
 * score desc, then mentions desc, then industry name. Negative when a comes first.
 */
export function compareEntries(a: Board, ap: number, b: Board, bp: number): number {
  return -compareScore(a.hits[ap]!, a.k, b.hits[bp]!, b.k) || b.mentions[bp]! - a.mentions[ap]! || compareNames(a.industry, b.industry);
}

export function scoreMonth(reg: Registry, agg: MonthAggregate, pools: Map<string, Company[]>, withDetail: boolean): MonthResult {
  const result: MonthResult = { month: agg.month, boards: new Map(), overall: new Map(), unresolved: new Map(), outOfUniverse: 0 };
  const boards: Board[] = [];
  for (const ctx of agg.contexts) {
    if (ctx.combos.length === 0) continue;
    boards.push(scoreContext(reg, agg.month, ctx, pools.get(`${ctx.industry}\u0000${ctx.country}`) ?? [], withDetail, result));
  }
  boards.sort((a, b) => compareKeys(a.country, b.country) || compareKeys(a.industrySlug, b.industrySlug));
  for (const b of boards) result.boards.set(`${b.country}/${b.industrySlug}`, b);

  const byCountry = new Map<string, Board[]>();
  for (const b of boards) {
    const l = byCountry.get(b.country);
    if (l) l.push(b);
    else byCountry.set(b.country, [b]);
  }
  for (const [country, list] of byCountry) {
    const best = new Map<number, { board: Board; pos: number }>();
    for (const board of list)
      for (let p = 0; p < board.order.length; p++) {
        const idx = board.order[p]!;
        const cur = best.get(idx);
        if (!cur || compareEntries(board, p, cur.board, cur.pos) < 0) best.set(idx, { board, pos: p });
      }
    const rows = [...best].map(([idx, e]) => ({ idx, ...e }));
    rows.sort((a, b) => {
      const s = compareScore(b.board.hits[b.pos]!, b.board.k, a.board.hits[a.pos]!, a.board.k);
      if (s !== 0) return s;
      return b.board.mentions[b.pos]! - a.board.mentions[a.pos]! || reg.companies[a.idx]!.nameOrder - reg.companies[b.idx]!.nameOrder;
    });
    result.overall.set(country, {
      country,
      order: Int32Array.from(rows, (r) => r.idx),
      board: rows.map((r) => r.board),
      pos: Int32Array.from(rows, (r) => r.pos),
    });
  }
  return result;
}

/** A month's result as plain JSON (details left out), for the build's cache of scored months. */
export interface StoredMonthResult {
  month: string;
  boards: { industry: string; industrySlug: string; country: string; k: number; answers: number; order: number[]; hits: number[]; mentions: number[] }[];
  overall: { country: string; order: number[]; board: string[]; pos: number[] }[];
  unresolved: [string, number][];
  outOfUniverse: number;
}

export function storeMonthResult(r: MonthResult): StoredMonthResult {
  return {
    month: r.month,
    boards: [...r.boards.values()].map((b) => ({ industry: b.industry, industrySlug: b.industrySlug, country: b.country, k: b.k, answers: b.answers, order: [...b.order], hits: [...b.hits], mentions: [...b.mentions] })),
    overall: [...r.overall.values()].map((o) => ({ country: o.country, order: [...o.order], board: o.board.map((b) => `${b.country}/${b.industrySlug}`), pos: [...o.pos] })),
    unresolved: [...r.unresolved],
    outOfUniverse: r.outOfUniverse,
  };
}

export function loadMonthResult(s: StoredMonthResult): MonthResult {
  const boards = new Map<string, Board>();
  for (const b of s.boards)
    boards.set(`${b.country}/${b.industrySlug}`, { industry: b.industry, industrySlug: b.industrySlug, country: b.country, k: b.k, answers: b.answers, order: Int32Array.from(b.order), hits: Int32Array.from(b.hits), mentions: Int32Array.from(b.mentions) });
  const overall = new Map<string, Overall>();
  for (const o of s.overall) overall.set(o.country, { country: o.country, order: Int32Array.from(o.order), board: o.board.map((k) => boards.get(k)!), pos: Int32Array.from(o.pos) });
  return { month: s.month, boards, overall, unresolved: new Map(s.unresolved), outOfUniverse: s.outOfUniverse };
}
