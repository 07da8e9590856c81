/**
 * One month's mention rows folded into per-context aggregates (data-and-rules §1.4, §2):
 * everything scoring needs and nothing more, as plain JSON so that it can be cached by
 * the file's content hash and passed between worker threads. Company names stay as
 * written (folded), so a registry change does not invalidate the cache.
 */
import { didYouMean, type IssueList } from './data-error.ts';
import { MENTION_COLUMNS, MENTION_LIMITS, MentionRowSchema, collectedDate, preview } from './schemas/rows.ts';
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

/**
 * A finished month as {@link MonthAggregate} has it, but with the names' answer lists in typed
 * arrays, not an array each: what the parser worker writes its cache entry from
 * (`packColumns`). {@link aggregateOf} makes the aggregate of it.
 */
export interface MonthColumns extends Omit<MonthAggregate, 'contexts'> {
  /** In the aggregate's order; `names`: the numbers of the context's names, in the aggregate's order. */
  contexts: (Omit<ContextAggregate, 'names'> & { names: Int32Array })[];
  /** Name number n's folded name is `strings[folded[n]]`, its first spelling `strings[spelling[n]]`. */
  strings: string[];
  folded: Int32Array;
  spelling: Int32Array;
  /** Name number n's ascending answer indexes: `items[start[n] .. end[n])`. */
  start: Int32Array;
  end: Int32Array;
  items: Int32Array;
}

/** The aggregate of a month's columns: one array per name, as the scoring reads it. */
export function aggregateOf(cols: MonthColumns): MonthAggregate {
  const { contexts, strings, folded, spelling, start, end, items, ...rest } = cols;
  return {
    ...rest,
    contexts: contexts.map((c) => {
      const names: ContextAggregate['names'] = [];
      for (const n of c.names) {
        const list: number[] = [];
        for (let i = start[n]!; i < end[n]!; i++) list.push(items[i]!);
        names.push([strings[folded[n]!]!, strings[spelling[n]!]!, list]);
      }
      return { industry: c.industry, country: c.country, combos: c.combos, answers: c.answers, names };
    }),
  };
}

/** The columns of an aggregate (its lists copied into typed arrays): {@link aggregateOf}'s inverse. */
export function columnsOf(agg: MonthAggregate): MonthColumns {
  const { contexts, ...rest } = agg;
  const all = contexts.flatMap((c) => c.names);
  const strings = all.flatMap(([f, s]) => [f, s]);
  const start = new Int32Array(all.length);
  const end = new Int32Array(all.length);
  const items = new Int32Array(all.reduce((k, n) => k + n[2].length, 0));
  let k = 0;
  all.forEach(([, , list], n) => {
    start[n] = k;
    items.set(list, k);
    end[n] = k += list.length;
  });
  let n = 0;
  return {
    ...rest,
    contexts: contexts.map((c) => ({ industry: c.industry, country: c.country, combos: c.combos, answers: c.answers, names: Int32Array.from(c.names, () => n++) })),
    strings,
    folded: Int32Array.from(all, (_, i) => 2 * i),
    spelling: Int32Array.from(all, (_, i) => 2 * i + 1),
    start,
    end,
    items,
  };
}

/**
 * The accumulator's large typed arrays, handed from one month's accumulator to the next in a
 * thread, so that each month does not fault in fresh memory.
 */
export interface AccumulatorArrays {
  sigs: Int32Array;
  pairs: Int32Array;
  lastListed: Int32Array;
  lists: Int32Array;
  idChars: Uint16Array;
  idStarts: Int32Array;
}

export interface Lookups {
  countries: { code: string; name: string; aliases: string[] }[];
  industries: { name: string; slug: string }[];
}

interface Ctx {
  /** The context's aggregate but its names (their lists are gathered at the end: {@link MonthAccumulator.columns}). */
  agg: Omit<ContextAggregate, 'names'>;
  /** (theme id, scored model index) -> index in `agg.combos` */
  comboIdx: Map<number, number>;
  /** folded name's id ({@link MonthAccumulator}'s `folded`) -> its list's number ({@link MonthAccumulator}'s `lists`) */
  nameIdx: Map<number, number>;
}

type MentionColumn = (typeof MENTION_COLUMNS)[number];

/** Each input column's position in a record, by name ({@link MENTION_COLUMNS} order). */
export const COL = Object.fromEntries(MENTION_COLUMNS.map((name, i) => [name, i])) as { readonly [K in MentionColumn]: number };

/**
 * What every row of one answer must agree on (model folded; country and industry resolved),
 * in this order: the field's slot in an answer's signature and the column it comes from.
 */
const SIG_FIELDS = [
  [0, COL.model],
  [1, COL.country],
  [2, COL.industry],
  [3, COL.theme],
  [4, COL.question_id],
] as const;
/** An answer's signature: [model, country, industry, theme, question] ids, first line, context (-1: research), answer index in it. */
const SIG = 8;
const S_LINE = 5;
const S_CTX = 6;
const S_ANSWER = 7;
/** A list's entry in {@link MonthAccumulator}'s `lists`: its context, its folded name's id, its first spelling's number. */
const LIST = 3;

/**
 * Arrays for a thread's first month, sized in proportion to its text's length rather than grown
 * by doubling; a month that needs more grows them, and room never written costs no memory.
 */
export function arraysFor(textBytes: number): AccumulatorArrays {
  const answers = Math.ceil(textBytes / 150) + 2;
  const lists = Math.ceil(textBytes / 700) + 2;
  return {
    sigs: new Int32Array(SIG * answers),
    pairs: new Int32Array(Math.ceil(textBytes / 48) + 2),
    lastListed: new Int32Array(lists),
    lists: new Int32Array(LIST * lists),
    idChars: new Uint16Array(Math.ceil(textBytes / 9) + 2),
    idStarts: new Int32Array(answers),
  };
}

/** Whether a field holds a C0 or C1 control character or DEL (the same verdict as CONTROL_RE, without a regex call per field). */
function hasControl(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/**
 * A copy of `s` that does not share the text it was cut from: V8 keeps longer substrings as
 * views, and each kept name would keep a chunk of the month's text alive.
 */
function own(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** The number written by the `len` ASCII digits of `s` from `at`; -1 if one of them is not a digit. */
function digits(s: string, at: number, len: number): number {
  let v = 0;
  for (let i = at; i < at + len; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Whether `s` has a valid time "THH:MM:SS" (or " HH:MM:SS") from its 11th character. */
function validTime(s: string): boolean {
  const sep = s.charCodeAt(10);
  if ((sep !== 84 && sep !== 32) || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  const h = digits(s, 11, 2);
  const m = digits(s, 14, 2);
  const sec = digits(s, 17, 2);
  return h >= 0 && h <= 23 && m >= 0 && m <= 59 && sec >= 0 && sec <= 59;
}

/** A day number (y * 10000 + m * 100 + d) as YYYY-MM-DD. */
function dayText(day: number): string {
  const t = String(day).padStart(8, '0');
  return `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6)}`;
}

/** Whether a list is strictly ascending (then it is already deduplicated and sorted). */
function ascending(list: Int32Array): boolean {
  for (let i = 1; i < list.length; i++) if (list[i]! <= list[i - 1]!) return false;
  return true;
}

/** A sorted list's repeats left out, in place: how many distinct values it has, now at its start. */
function sortedUnique(list: Int32Array): number {
  let k = 0;
  for (let i = 0; i < list.length; i++) if (k === 0 || list[i] !== list[k - 1]) list[k++] = list[i]!;
  return k;
}

const COMPANY_LIMIT = MENTION_LIMITS[COL.company]!;
const SCORED = SCORED_MODELS as Record<string, string>;
const SCORED_NAMES: string[] = Object.values(SCORED);

/** Distinct strings numbered in order of arrival (each stored once, as its own copy). */
class Ids {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  id(s: string): number {
    let v = this.ids.get(s);
    if (v === undefined) {
      v = this.values.length;
      const kept = own(s);
      this.values.push(kept);
      this.ids.set(kept, v);
    }
    return v;
  }
}

/**
 * Strings kept as characters in one growing typed array, numbered in order of arrival: keeping
 * the parser's fields (views into its text) would keep the month's whole text alive.
 */
class CharList {
  length = 0;

  constructor(
    public chars: Uint16Array = new Uint16Array(1 << 16),
    /** string n's characters are chars[starts[n] .. starts[n + 1]) */
    public starts: Int32Array = new Int32Array(1 << 12),
  ) {
    starts[0] = 0;
  }

  /** String number `k` against `s` in UTF-16 code unit order (as `<` on strings): negative, 0 or positive. */
  compare(k: number, s: string): number {
    const start = this.starts[k]!;
    const len = this.starts[k + 1]! - start;
    const chars = this.chars;
    const m = Math.min(len, s.length);
    for (let i = 0; i < m; i++) {
      const d = chars[start + i]! - s.charCodeAt(i);
      if (d !== 0) return d;
    }
    return len - s.length;
  }

  /** FNV-1a over string number `k`'s code units, as {@link hash} over the string. */
  hash(k: number): number {
    const chars = this.chars;
    let h = 0x811c9dc5;
    for (let i = this.starts[k]!, end = this.starts[k + 1]!; i < end; i++) h = Math.imul(h ^ chars[i]!, 0x01000193);
    return mix(h);
  }

  /** Appends `s`. */
  push(s: string): void {
    const k = this.length++;
    if (k + 2 > this.starts.length) this.starts = grown(this.starts, k + 2);
    const start = this.starts[k]!;
    if (start + s.length > this.chars.length) this.chars = grown(this.chars, start + s.length);
    const chars = this.chars;
    for (let i = 0; i < s.length; i++) chars[start + i] = s.charCodeAt(i);
    this.starts[k + 1] = start + s.length;
  }
}

/**
 * A month's answer ids numbered in order of arrival; nearly every lookup is a new answer.
 * While the ids arrive ascending they are a sorted list (binary search). The first id out of
 * order turns it into an open-addressing table of (32-bit hash, number + 1) pairs, linear
 * probing, at most half full, ids compared only when the hashes are equal.
 */
class AnswerIds {
  constructor(readonly ids = new CharList()) {}

  /** null while the ids are ascending */
  private slots: Int32Array | null = null;
  /** The hash and the free slot the last missed `find` stopped at: where `add` puts it. */
  private h = 0;
  private at = 0;

  /** The number of answer `id`, -1 if it has not been seen (then `add` it, before any other find). */
  find(id: string): number {
    if (this.slots === null) {
      const ids = this.ids;
      const n = ids.length;
      if (n === 0 || ids.compare(n - 1, id) < 0) return -1;
      let lo = 0;
      let hi = n - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const c = ids.compare(mid, id);
        if (c === 0) return mid;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      this.index();
    }
    const h = (this.h = hash(id));
    const slots = this.slots!;
    const mask = (slots.length >> 1) - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const n = slots[2 * i + 1]!;
      if (n === 0) {
        this.at = i;
        return -1;
      }
      if (slots[2 * i] === h && this.ids.compare(n - 1, id) === 0) return n - 1;
    }
  }

  /** Numbers `id`, which the last `find` did not find. */
  add(id: string): void {
    this.ids.push(id);
    if (this.slots === null) return;
    const n = this.ids.length;
    if (2 * n > this.slots.length >> 1) {
      this.grow(this.slots.length << 1);
      this.find(id);
    }
    this.slots[2 * this.at] = this.h;
    this.slots[2 * this.at + 1] = n;
  }

  /** The ids so far into a table. */
  private index(): void {
    let size = 2 << 12;
    while (4 * (this.ids.length + 1) > size >> 1) size <<= 1;
    this.slots = new Int32Array(size);
    const mask = (size >> 1) - 1;
    for (let k = 0; k < this.ids.length; k++) this.put(this.slots, mask, this.ids.hash(k), k + 1);
  }

  private put(slots: Int32Array, mask: number, h: number, n: number): void {
    let i = h & mask;
    while (slots[2 * i + 1] !== 0) i = (i + 1) & mask;
    slots[2 * i] = h;
    slots[2 * i + 1] = n;
  }

  private grow(size: number): void {
    const old = this.slots!;
    const slots = (this.slots = new Int32Array(size));
    const mask = (size >> 1) - 1;
    for (let j = 0; j < old.length; j += 2) if (old[j + 1] !== 0) this.put(slots, mask, old[j]!, old[j + 1]!);
  }
}

/** A copy of `a` at least `size` long (at least twice as long). */
function grown<T extends Int32Array | Uint16Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2));
  b.set(a);
  return b;
}

/** FNV-1a over the UTF-16 code units, then a final mix so that the low bits depend on every unit. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mix(h);
}

/** The final mix of {@link hash}. */
function mix(h: number): number {
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

/**
 * Streams a month's rows: `add` each record (fields in {@link MENTION_COLUMNS} order), then
 * `finish`. A row whose first seven fields are the very strings of the previous accepted row's
 * shares their verdict and its answer: only its company is checked. Any other row takes the full
 * path. Both paths give the same aggregate and messages.
 */
export class MonthAccumulator {
  private readonly countryBy = new Map<string, string>();
  private readonly industryBy = new Map<string, string>();
  private readonly countryValues: string[];
  private readonly industryValues: string[];
  /** day number (y * 10000 + m * 100 + d) -> whether that day exists (collectedDate's verdict) */
  private readonly days = new Map<number, boolean>();
  /** raw spelling -> country id / industry id (-1: unknown) */
  private readonly countryMemo = new Map<string, number>();
  private readonly industryMemo = new Map<string, number>();
  private readonly countryIds = new Ids();
  private readonly industryIds = new Ids();
  /** raw spelling -> model id (ids of folded model names) */
  private readonly modelMemo = new Map<string, number>();
  private readonly modelIds = new Ids();
  /** model id -> scored model name (undefined: research) */
  private readonly scoredOf: (string | undefined)[] = [];
  /** model id -> [first spelling, research rows] once it has one */
  private readonly researchOf: ([string, number] | undefined)[] = [];
  /** themes and questions */
  private readonly texts = new Ids();
  /** company spelling as read -> its number (one string lookup per scored row, then integers) */
  private readonly spellings = new Map<string, number>();
  /** spelling number -> the spelling (a copy, kept once however many contexts list it) and the id of its folded name in `folded` */
  private readonly spellingText: string[] = [];
  private readonly spellingFolded: number[] = [];
  private readonly folded = new Ids();
  /** industry id * countries + country id -> index in `ctxs` */
  private readonly ctxAt = new Map<number, number>();
  /**
   * Every context's name lists, numbered in order of their first row: `lists` holds each one's
   * context, folded name and first spelling ({@link LIST} integers); their answers are gathered
   * at the end ({@link columns}) from `pairs`: (list number, answer) in row order, consecutive
   * repeats left out (`lastListed`). Typed arrays, not an array per list, which the young
   * generation would copy and promote.
   */
  private lists: Int32Array;
  private nLists = 0;
  private lastListed: Int32Array;
  private pairs: Int32Array;
  private nPairs = 0;
  private readonly ctxs: Ctx[] = [];
  private readonly answers: AnswerIds;
  private sigs: Int32Array;
  private nAnswers = 0;
  private rows = 0;
  private scoredRows = 0;
  private researchRows = 0;
  private emptyCompanyRows = 0;
  /** The latest day number so far (-1: none). */
  private latest = -1;
  // The previous accepted row: its answer (index), its first seven fields as read and their resolutions.
  private last = -1;
  private lastId = '';
  private lastDate = '';
  private lastDay = -1;
  private lastModel = '';
  private lastCountry = '';
  private lastIndustry = '';
  private lastTheme = '';
  private lastQuestion = '';
  private lastMid = -1;
  private lastCid = -1;
  private lastIid = -1;
  private lastTid = -1;
  private lastQid = -1;

  constructor(
    private readonly file: string,
    private readonly month: string,
    lookups: Lookups,
    private readonly issues: IssueList,
    arrays?: AccumulatorArrays,
  ) {
    this.sigs = arrays?.sigs ?? new Int32Array(SIG * 1024);
    this.pairs = arrays?.pairs ?? new Int32Array(1 << 16);
    this.lastListed = arrays?.lastListed ?? new Int32Array(1024);
    this.lists = arrays?.lists ?? new Int32Array(LIST * 1024);
    this.answers = new AnswerIds(arrays && new CharList(arrays.idChars, arrays.idStarts));
    for (const c of lookups.countries) for (const k of [c.code, c.name, ...c.aliases]) this.countryBy.set(foldKey(k), c.code);
    for (const i of lookups.industries) for (const k of [i.name, i.slug]) this.industryBy.set(foldKey(k), i.name);
    this.countryValues = lookups.countries.flatMap((c) => [c.code, c.name]);
    this.industryValues = lookups.industries.map((i) => i.name);
  }

  private issue(line: number, col: number, message: string): void {
    this.issues.add({ file: this.file, line, column: col + 1, columnName: MENTION_COLUMNS[col], message });
  }

  /**
   * Validates one record (fields already trimmed) and folds it in. `plain`: the reader found
   * no control character in the text the record was cut from (then no field is checked for one).
   */
  add(f: string[], line: number, plain = false): void {
    this.rows++;
    if (
      this.last >= 0 &&
      f.length === 8 &&
      f[0] === this.lastId &&
      f[6] === this.lastQuestion &&
      f[5] === this.lastTheme &&
      f[4] === this.lastIndustry &&
      f[3] === this.lastCountry &&
      f[2] === this.lastModel &&
      f[1] === this.lastDate
    ) {
      const company = f[7]!;
      if (company.length <= COMPANY_LIMIT && (plain || !hasControl(company))) {
        this.take(this.last, company);
        return;
      }
    }
    this.addChecked(f, line, plain);
  }

  /** The full path: every check and lookup. */
  private addChecked(f: string[], line: number, plain: boolean): void {
    const dateRaw = f[COL.collected_at]!;
    let day = this.valid(f, plain) ? (dateRaw === this.lastDate ? this.lastDay : this.dayOf(dateRaw)) : -1;
    if (day < 0) {
      const r = MentionRowSchema.safeParse(f);
      if (!r.success) {
        for (const iss of r.error.issues) {
          const col = Number(iss.path[0] ?? 0);
          this.issue(line, col, `${iss.message}${f[col] !== undefined ? ` (got "${preview(f[col])}")` : ''}`);
        }
        return;
      }
      day = this.dayOf(dateRaw);
    }
    const answerId = f[COL.answer_id]!;
    const model = f[COL.model]!;
    const countryRaw = f[COL.country]!;
    const industryRaw = f[COL.industry]!;
    const theme = f[COL.theme]!;
    const question = f[COL.question_id]!;
    const cid = countryRaw === this.lastCountry ? this.lastCid : this.country(countryRaw);
    const iid = industryRaw === this.lastIndustry ? this.lastIid : this.industry(industryRaw);
    if (cid < 0) this.issue(line, COL.country, `unknown country "${countryRaw}"${didYouMean(countryRaw, this.countryValues)}`);
    if (iid < 0) this.issue(line, COL.industry, `unknown industry "${industryRaw}"${didYouMean(industryRaw, this.industryValues)}`);
    if (cid < 0 || iid < 0) return;
    if (day > this.latest) this.latest = day;
    const mid = model === this.lastModel ? this.lastMid : this.model(model);
    const tid = theme === this.lastTheme ? this.lastTid : this.texts.id(theme);
    const qid = question === this.lastQuestion ? this.lastQid : this.texts.id(question);

    let a = answerId === this.lastId ? this.last : this.answers.find(answerId);
    if (a >= 0) {
      const sigs = this.sigs;
      const o = a * SIG;
      if (sigs[o] !== mid || sigs[o + 1] !== cid || sigs[o + 2] !== iid || sigs[o + 3] !== tid || sigs[o + 4] !== qid) {
        const here = [mid, cid, iid, tid, qid];
        const [slot, col] = SIG_FIELDS.find(([slot]) => sigs[o + slot] !== here[slot])!;
        const was = this.sigValue(slot, sigs[o + slot]!);
        this.issue(line, col, `answer "${answerId}" has ${MENTION_COLUMNS[col]} "${f[col]}" here but "${was}" on line ${sigs[o + S_LINE]}; all rows of one answer must agree`);
        return;
      }
    } else {
      const scored = this.scoredOf[mid];
      let ci = -1;
      let answer = -1;
      if (scored === undefined) {
        if (this.researchOf[mid] === undefined) this.researchOf[mid] = [own(model), 0];
      } else {
        const ctxKey = iid * 65536 + cid;
        ci = this.ctxAt.get(ctxKey) ?? -1;
        if (ci < 0) {
          ci = this.ctxs.length;
          this.ctxs.push({
            agg: { industry: this.industryIds.values[iid]!, country: this.countryIds.values[cid]!, combos: [], answers: [] },
            comboIdx: new Map(),
            nameIdx: new Map(),
          });
          this.ctxAt.set(ctxKey, ci);
        }
        const ctx = this.ctxs[ci]!;
        const comboKey = tid * SCORED_NAMES.length + SCORED_NAMES.indexOf(scored);
        let combo = ctx.comboIdx.get(comboKey);
        if (combo === undefined) {
          combo = ctx.agg.combos.length;
          ctx.agg.combos.push([scored, this.texts.values[tid]!]);
          ctx.comboIdx.set(comboKey, combo);
        }
        answer = ctx.agg.answers.length;
        ctx.agg.answers.push(combo);
      }
      a = this.nAnswers++;
      if ((a + 1) * SIG > this.sigs.length) this.sigs = grown(this.sigs, (a + 1) * SIG);
      const o = a * SIG;
      const sigs = this.sigs;
      sigs[o] = mid;
      sigs[o + 1] = cid;
      sigs[o + 2] = iid;
      sigs[o + 3] = tid;
      sigs[o + 4] = qid;
      sigs[o + S_LINE] = line;
      sigs[o + S_CTX] = ci;
      sigs[o + S_ANSWER] = answer;
      this.answers.add(answerId);
    }
    this.last = a;
    this.lastId = answerId;
    this.lastDate = dateRaw;
    this.lastDay = day;
    this.lastModel = model;
    this.lastCountry = countryRaw;
    this.lastIndustry = industryRaw;
    this.lastTheme = theme;
    this.lastQuestion = question;
    this.lastMid = mid;
    this.lastCid = cid;
    this.lastIid = iid;
    this.lastTid = tid;
    this.lastQid = qid;
    this.take(a, f[COL.company]!);
  }

  /** A signature slot's value as the messages show it (model folded, country code, industry name, theme, question). */
  private sigValue(slot: number, id: number): string {
    const table = [this.modelIds, this.countryIds, this.industryIds, this.texts, this.texts][slot]!;
    return table.values[id]!;
  }

  /** Folds in an accepted row of answer `a`: a research row is counted, a scored row's company listed. */
  private take(a: number, company: string): void {
    const o = a * SIG;
    const ci = this.sigs[o + S_CTX]!;
    if (ci < 0) {
      this.researchRows++;
      this.researchOf[this.sigs[o]!]![1]++;
      return;
    }
    this.scoredRows++;
    if (company === '') {
      this.emptyCompanyRows++;
      return;
    }
    let sp = this.spellings.get(company);
    if (sp === undefined) {
      sp = this.spellingText.length;
      const kept = own(company);
      this.spellingText.push(kept);
      this.spellingFolded.push(this.folded.id(foldName(company)));
      this.spellings.set(kept, sp);
    }
    const fid = this.spellingFolded[sp]!;
    const ctx = this.ctxs[ci]!;
    let g = ctx.nameIdx.get(fid);
    if (g === undefined) {
      g = this.nLists++;
      if (LIST * (g + 1) > this.lists.length) this.lists = grown(this.lists, LIST * (g + 1));
      const lists = this.lists;
      lists[LIST * g] = ci;
      lists[LIST * g + 1] = fid;
      lists[LIST * g + 2] = sp;
      ctx.nameIdx.set(fid, g);
      if (g >= this.lastListed.length) this.lastListed = grown(this.lastListed, g + 1);
      this.lastListed[g] = -1;
    }
    const answer = this.sigs[o + S_ANSWER]!;
    if (this.lastListed[g] !== answer) {
      this.lastListed[g] = answer;
      if (this.nPairs + 2 > this.pairs.length) this.pairs = grown(this.pairs, this.nPairs + 2);
      this.pairs[this.nPairs++] = g;
      this.pairs[this.nPairs++] = answer;
    }
  }

  // Lookups memoised on the raw text: a month has a few hundred distinct spellings of these.
  private country(raw: string): number {
    let v = this.countryMemo.get(raw);
    if (v === undefined) {
      const code = this.countryBy.get(foldKey(raw));
      this.countryMemo.set(own(raw), (v = code === undefined ? -1 : this.countryIds.id(code)));
    }
    return v;
  }

  private industry(raw: string): number {
    let v = this.industryMemo.get(raw);
    if (v === undefined) {
      const name = this.industryBy.get(foldKey(raw));
      this.industryMemo.set(own(raw), (v = name === undefined ? -1 : this.industryIds.id(name)));
    }
    return v;
  }

  private model(raw: string): number {
    let v = this.modelMemo.get(raw);
    if (v === undefined) {
      const key = foldKey(raw);
      v = this.modelIds.id(key);
      this.scoredOf[v] = Object.hasOwn(SCORED, key) ? SCORED[key] : undefined;
      this.modelMemo.set(own(raw), v);
    }
    return v;
  }

  // Same verdict as MentionRowSchema without the date (a false "invalid" only costs the schema's run).
  private valid(f: string[], plain: boolean): boolean {
    if (f.length !== MENTION_COLUMNS.length) return false;
    // Required fields (company may be empty: an answer naming no one).
    if (!f[COL.answer_id] || !f[COL.model] || !f[COL.country] || !f[COL.industry] || !f[COL.theme] || !f[COL.question_id]) return false;
    // Bounded text without control characters.
    for (let i = 0; i < MENTION_COLUMNS.length; i++) {
      if (i === COL.collected_at) continue;
      const v = f[i]!;
      if (v.length > MENTION_LIMITS[i]! || (!plain && hasControl(v))) return false;
    }
    return true;
  }

  /**
   * The day number of a `collected_at`, -1 when collectedDate rejects it. The two common forms
   * are read by character codes, any other by collectedDate, whose verdict on whether the day
   * exists is kept per day.
   */
  private dayOf(s: string): number {
    const n = s.length;
    let day: number;
    if ((n === 10 || (n === 20 && s.charCodeAt(19) === 90 && validTime(s))) && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45) {
      const y = digits(s, 0, 4);
      const m = digits(s, 5, 2);
      const d = digits(s, 8, 2);
      if (y < 0 || m < 0 || d < 0) return -1;
      day = y * 10000 + m * 100 + d;
    } else {
      const date = collectedDate(s);
      if (date === null) return -1;
      day = Number(date.slice(0, 4)) * 10000 + Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
    }
    let exists = this.days.get(day);
    if (exists === undefined) {
      exists = collectedDate(dayText(day)) !== null;
      this.days.set(day, exists);
    }
    return exists ? day : -1;
  }

  finish(): MonthAggregate {
    return aggregateOf(this.columns());
  }

  /** The month's columns. */
  columns(): MonthColumns {
    const n = this.nLists;
    const lists = this.lists;
    // Each list's answers, counted, then placed in row order (counting sort of the pairs by list).
    const start = new Int32Array(n + 1);
    const pairs = this.pairs;
    for (let i = 0; i < this.nPairs; i += 2) start[pairs[i]! + 1]!++;
    for (let g = 0; g < n; g++) start[g + 1]! += start[g]!;
    const items = new Int32Array(start[n]!);
    const end = start.slice(0, n);
    for (let i = 0; i < this.nPairs; i += 2) items[end[pairs[i]!]!++] = pairs[i + 1]!;
    this.nPairs = 0;
    // Answers naming a company are listed in row order; rows of one answer may be apart.
    for (let g = 0; g < n; g++) {
      const list = items.subarray(start[g]!, end[g]!);
      if (!ascending(list)) end[g] = start[g]! + sortedUnique(list.sort());
    }
    // Each context's lists in order of their first row (counting sort of the lists by context).
    const ctxCount = this.ctxs.length;
    const from = new Int32Array(ctxCount + 1);
    for (let g = 0; g < n; g++) from[lists[LIST * g]! + 1]!++;
    for (let c = 0; c < ctxCount; c++) from[c + 1]! += from[c]!;
    const order = new Int32Array(n);
    const at = from.slice(0, ctxCount);
    for (let g = 0; g < n; g++) order[at[lists[LIST * g]!]!++] = g;
    // Strings: the folded names (by their id), then the spellings (by their number).
    const strings = this.folded.values.concat(this.spellingText);
    const spellingBase = this.folded.values.length;
    const folded = new Int32Array(n);
    const spelling = new Int32Array(n);
    for (let g = 0; g < n; g++) {
      folded[g] = lists[LIST * g + 1]!;
      spelling[g] = spellingBase + lists[LIST * g + 2]!;
    }
    const contexts = this.ctxs.map((c, ci) => ({ ...c.agg, names: order.subarray(from[ci]!, from[ci + 1]!) }));
    contexts.sort((a, b) => (a.industry < b.industry ? -1 : a.industry > b.industry ? 1 : a.country < b.country ? -1 : a.country > b.country ? 1 : 0));
    const researchModels: Record<string, number> = {};
    const research = this.researchOf.flatMap((r, mid) => (r ? [[this.modelIds.values[mid]!, r] as const] : []));
    for (const [, [name, count]] of research.sort((a, b) => (a[0] < b[0] ? -1 : 1))) researchModels[name] = count;
    return {
      month: this.month,
      file: this.file,
      rows: this.rows,
      scoredRows: this.scoredRows,
      researchRows: this.researchRows,
      emptyCompanyRows: this.emptyCompanyRows,
      researchModels,
      latestDate: this.latest < 0 ? null : dayText(this.latest),
      contexts,
      strings,
      folded,
      spelling,
      start: start.subarray(0, n),
      end,
      items,
    };
  }
}
