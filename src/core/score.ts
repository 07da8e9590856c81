/**
 * Scoring and ranking of data-and-rules §2–§3 for one month. Scores are kept as exact
 * fractions (hits / K) and compared by cross-multiplication; rounding happens only
 * when a view is made ({@link round1}).
 */
import type { MonthColumns } from './aggregate.ts';
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
  /** Per company index, the profile details, made when asked for (a past month's attached by {@link attachDetails}). */
  detail?: BoardDetail;
}

/** What a board's details are made from: per entry row, combinations named per model and theme, and rank per theme. */
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

  /** The profile details of the entry of company `idx`, as objects ({@link values} made into {@link entryDetail}). */
  get(idx: number): EntryDetail | undefined {
    const v = this.values(idx);
    return v && entryDetail(v.models, v.themes, v.ranked);
  }

  /**
   * The details as numbers (a profile record's): the model scores in {@link EntryDetail}'s key
   * order, the board's themes, and per theme its rank and score.
   */
  values(idx: number): { models: [number | null, number | null, number | null]; themes: readonly string[]; ranked: number[] } | undefined {
    const { rowOf, models, themes, asked, perTheme, modelNamed, themeNamed, themeRank } = this.#d;
    const r = rowOf.get(idx);
    if (r === undefined) return undefined;
    const M = models.length, T = themes.length;
    const scores: Record<'chatgpt' | 'googleAi' | 'perplexity', number | null> = { chatgpt: null, googleAi: null, perplexity: null };
    models.forEach((model, m) => (scores[MODEL_KEYS[model]!] = round1(modelNamed[r * M + m]!, asked[m]!)));
    const ranked = new Array<number>(2 * T);
    for (let t = 0; t < T; t++) {
      ranked[2 * t] = themeRank[r * T + t]!;
      ranked[2 * t + 1] = round1(themeNamed[r * T + t]!, perTheme[t]!);
    }
    return { models: [scores.chatgpt, scores.googleAi, scores.perplexity], themes, ranked };
  }

  /** Boards' details packed into one buffer ({@link packDetails}), in the boards' order. */
  static pack(details: readonly BoardDetail[]): PackedDetails {
    const counts = details.map((x) => x.#d);
    const runs = counts.map((d) => [d.asked, d.perTheme, d.modelNamed, d.themeNamed, d.themeRank]);
    const out = new Int32Array(runs.reduce((n, run) => n + run.reduce((m, a) => m + a.length, 0), 0));
    let at = 0;
    for (const run of runs)
      for (const a of run) {
        out.set(a, at);
        at += a.length;
      }
    return { lists: counts.map((d) => [d.models, d.themes]), counts: out };
  }

  /** The details of `boards` (as given to {@link pack}, in order) from their packed form; other shapes are refused. */
  static unpack(boards: readonly Board[], packed: PackedDetails): BoardDetail[] {
    const { lists, counts } = packed;
    if (lists.length !== boards.length) throw new Error(`packed details of ${lists.length} boards for ${boards.length}`);
    let at = 0;
    const take = (n: number) => counts.subarray(at, (at += n));
    const details = boards.map((b, j) => {
      const [models, themes] = lists[j]!;
      const n = b.order.length, M = models.length, T = themes.length;
      const rowOf = new Map<number, number>();
      b.order.forEach((idx, r) => rowOf.set(idx, r));
      return new BoardDetail({ rowOf, models, themes, asked: take(M), perTheme: take(T), modelNamed: take(n * M), themeNamed: take(n * T), themeRank: take(n * T) });
    });
    if (at !== counts.length) throw new Error(`packed details of ${counts.length} integers for boards of ${at}`);
    return details;
  }
}

/**
 * A month's board details in a form one worker thread transfers to another (a structured clone
 * of a result carries none): per board its models and themes, and one buffer of integers with
 * the combinations per model and theme and each entry's rank per theme.
 */
export interface PackedDetails {
  lists: [models: string[], themes: string[]][];
  counts: Int32Array;
}

/** A result's board details packed ({@link PackedDetails}), and left out of the result. */
export function packDetails(r: MonthResult): PackedDetails {
  const boards = [...r.boards.values()];
  const packed = BoardDetail.pack(
    boards.map((b) => {
      if (!b.detail) throw new Error(`the board ${b.country}/${b.industrySlug} of ${r.month} has no details to pack`);
      return b.detail;
    }),
  );
  dropDetails(r);
  return packed;
}

/** Leaves the board details out of `r` (its boards keep their figures). */
export function dropDetails(r: MonthResult): void {
  for (const b of r.boards.values()) delete b.detail;
}

/** `r` with its boards' details from their packed form ({@link packDetails} of the same result). */
export function attachDetails(r: MonthResult, packed: PackedDetails): MonthResult {
  const boards = [...r.boards.values()];
  BoardDetail.unpack(boards, packed).forEach((d, j) => (boards[j]!.detail = d));
  return r;
}

/** A profile's details as objects from their numbers: model scores and themes keyed in their order. */
export function entryDetail(models: readonly [number | null, number | null, number | null], themes: readonly string[], ranked: readonly number[]): EntryDetail {
  const themeScores: EntryDetail['themes'] = {};
  themes.forEach((theme, t) => (themeScores[theme] = { rank: ranked[2 * t]!, score: ranked[2 * t + 1]! }));
  return { modelScores: { chatgpt: models[0], googleAi: models[1], perplexity: models[2] }, themes: themeScores };
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

/** Scratch of {@link scoreContext}, reused from board to board (it runs to its end, never interleaved). */
let inUniverse = new Int32Array(0);
let boardStamp = 0;

function scoreContext(
  reg: Registry,
  month: string,
  ctx: MonthColumns['contexts'][number],
  cols: MonthColumns,
  pool: Company[],
  withDetail: boolean,
  result: MonthResult,
): Board {
  const u = pool.filter((c) => c.trackedSince === null || c.trackedSince <= month);
  // The universe's members marked by company index (a stamp per board, instead of a Set).
  if (inUniverse.length < reg.companies.length) inUniverse = new Int32Array(reg.companies.length);
  if (boardStamp === 0x7fffffff) (inUniverse.fill(0), (boardStamp = 0));
  const stamp = ++boardStamp;
  for (const c of u) inUniverse[c.idx] = stamp;
  // Per company of the universe: the names (lists) naming it, the first in `nameOf`, the rare
  // others (two folded names resolved to one company) in `moreNames`.
  const { strings, folded, spelling, start, end, items } = cols;
  const nameOf = new Map<number, number>();
  const moreNames = new Map<number, number[]>();
  for (const m of ctx.names) {
    const company = reg.companyByName.get(strings[folded[m]!]!);
    const count = end[m]! - start[m]!;
    if (!company) {
      const raw = strings[spelling[m]!]!;
      result.unresolved.set(raw, (result.unresolved.get(raw) ?? 0) + count);
      continue;
    }
    if (inUniverse[company.idx] !== stamp) {
      result.outOfUniverse += count;
      continue;
    }
    if (!nameOf.has(company.idx)) nameOf.set(company.idx, m);
    else {
      const more = moreNames.get(company.idx);
      if (more) more.push(m);
      else moreNames.set(company.idx, [m]);
    }
  }
  const k = ctx.combos.length;
  const A = ctx.answers.length;
  const n = u.length;
  // Per company of the universe (position j in `u`): its distinct answers in first-seen order
  // and the combinations they name, marked per answer id with j + 1.
  const mark = new Int32Array(A);
  const hitsOf: (Uint8Array | undefined)[] = new Array(n);
  const uniqOf: number[][] = new Array(n);
  const hitsJ = new Int32Array(n);
  u.forEach((c, j) => {
    const first = nameOf.get(c.idx);
    if (first === undefined) return void (uniqOf[j] = []);
    const uniq: number[] = [];
    const hit = new Uint8Array(k);
    const take = (m: number) => {
      for (let i = start[m]!; i < end[m]!; i++) {
        const a = items[i]!;
        if (mark[a] !== j + 1) {
          mark[a] = j + 1;
          uniq.push(a);
          hit[ctx.answers[a]!] = 1;
        }
      }
    };
    take(first);
    const more = moreNames.get(c.idx);
    if (more) for (const m of more) take(m);
    let hits = 0;
    for (let i = 0; i < k; i++) hits += hit[i]!;
    hitsOf[j] = hit;
    uniqOf[j] = uniq;
    hitsJ[j] = hits;
  });
  // Rank order: hits desc, then mentions (distinct answers) desc, then name order.
  const rank = rankOrder(n, k, A, reg.companies.length, (j) => hitsJ[j]!, (j) => uniqOf[j]!.length, (j) => u[j]!.nameOrder);
  const stats = Array.from(rank, (j) => ({ c: u[j]!, hits: hitsJ[j]!, mentions: uniqOf[j]!.length, answers: uniqOf[j]!, hit: hitsOf[j] }));
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

  // Per company, one pass over its combinations and one over its answers, not one per theme.
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
    const hit = s.hit;
    if (hit)
      for (let i = 0; i < k; i++)
        if (hit[i]) {
          modelNamed[r * M + comboModel[i]!]!++;
          themeNamed[r * T + comboTheme[i]!]!++;
        }
    for (const a of s.answers) themeMentions[r * T + comboTheme[ctx.answers[a]!]!]!++;
  });
  themes.forEach((_, t) => {
    const rows = rankOrder(stats.length, k, A, reg.companies.length, (r) => themeNamed[r * T + t]!, (r) => themeMentions[r * T + t]!, (r) => stats[r]!.c.nameOrder);
    rows.forEach((r, i) => (themeRank[r * T + t] = i + 1));
  });
  // Details are made as objects only when asked for: a profile shows one entry per company and country.
  board.detail = new BoardDetail({ rowOf, models, themes, asked, perTheme, modelNamed, themeNamed, themeRank });
  return board;
}

/**
 * Rows 0..n-1 ordered by `a` desc, `b` desc, then `order` asc (a total order; 0 <= a <= aMax,
 * 0 <= b <= bMax, `order` below `names`): each row packed into one exact integer key sorted
 * natively, rather than a comparator called n log n times. Keys past 2^53 use the comparator.
 */
let rowOfOrder = new Int32Array(0);
export function rankOrder(n: number, aMax: number, bMax: number, names: number, a: (r: number) => number, b: (r: number) => number, order: (r: number) => number): Int32Array {
  const out = new Int32Array(n);
  if ((aMax + 1) * (bMax + 1) * names < Number.MAX_SAFE_INTEGER) {
    const keys = new Float64Array(n);
    if (rowOfOrder.length < names) rowOfOrder = new Int32Array(names);
    for (let r = 0; r < n; r++) {
      const o = order(r);
      keys[r] = ((aMax - a(r)) * (bMax + 1) + (bMax - b(r))) * names + o;
      rowOfOrder[o] = r;
    }
    keys.sort();
    for (let i = 0; i < n; i++) out[i] = rowOfOrder[keys[i]! % names]!;
    return out;
  }
  const rows = Array.from({ length: n }, (_, r) => r);
  rows.sort((x, y) => a(y) - a(x) || b(y) - b(x) || order(x) - order(y));
  out.set(rows);
  return out;
}

/**
 * Order of one company's board entries in one country (§3 best entry, §4 otherIndustries):
 * score desc, then mentions desc, then industry name. Negative when a comes first.
 */
export function compareEntries(a: Board, ap: number, b: Board, bp: number): number {
  return -compareScore(a.hits[ap]!, a.k, b.hits[bp]!, b.k) || b.mentions[bp]! - a.mentions[ap]! || compareNames(a.industry, b.industry);
}

/** A month's boards, from its columns ({@link MonthColumns}: the aggregate with its names' lists in typed arrays). */
export function scoreMonth(reg: Registry, cols: MonthColumns, pools: Map<string, Company[]>, withDetail: boolean): MonthResult {
  const result: MonthResult = { month: cols.month, boards: new Map(), overall: new Map(), unresolved: new Map(), outOfUniverse: 0 };
  const boards: Board[] = [];
  for (const ctx of cols.contexts) {
    if (ctx.combos.length === 0) continue;
    boards.push(scoreContext(reg, cols.month, ctx, cols, pools.get(`${ctx.industry}\u0000${ctx.country}`) ?? [], withDetail, result));
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
    // each entry's figures read once, not at every comparison
    const rows = [...best].map(([idx, { board, pos }]) => ({ idx, board, pos, h: board.hits[pos]!, k: board.k, m: board.mentions[pos]!, o: reg.companies[idx]!.nameOrder }));
    rows.sort((a, b) => compareScore(b.h, b.k, a.h, a.k) || b.m - a.m || a.o - b.o);
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
