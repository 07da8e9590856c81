/** Company views of the current month (data-and-rules §3): every profile of every company, in slug order. */
import type { Registry } from '../registry.ts';
import { compareEntries, round1, type Board, type MonthResult } from '../score.ts';
import type { CompanyProfile } from '../schemas/responses.ts';
import { compareKeys, compareNames } from '../text.ts';
import { DEFAULT_COUNTRY } from '../policy.ts';
import { siteUrls } from '../urls.ts';
import type { CompanyView, MetaView } from './layout.ts';
import { methodologyShort } from './shape.ts';
import { summaryAfter } from './copy.ts';
import type { SiteInput } from './site-input.ts';

interface Standing {
  board: Board;
  pos: number;
}

/** Where each company stands in the current month: per country, its entries and overall rank. */
function standings(cur: MonthResult) {
  const byCompany = new Map<number, Map<string, { entries: Standing[]; overallRank: number; total: number }>>();
  for (const [code, o] of cur.overall) {
    o.order.forEach((idx, p) => {
      let m = byCompany.get(idx);
      if (!m) byCompany.set(idx, (m = new Map()));
      m.set(code, { entries: [{ board: o.board[p]!, pos: o.pos[p]! }], overallRank: p + 1, total: o.order.length });
    });
  }
  for (const b of cur.boards.values())
    b.order.forEach((idx, pos) => {
      const s = byCompany.get(idx)!.get(b.country)!;
      if (s.entries[0]!.board !== b) s.entries.push({ board: b, pos });
    });
  return byCompany;
}

function defaultCountry(name: (code: string) => string, per: Map<string, { entries: Standing[] }>): string {
  if (per.has(DEFAULT_COUNTRY)) return DEFAULT_COUNTRY;
  let best: [string, Standing] | null = null;
  for (const [code, s] of per) {
    const e = s.entries[0]!;
    if (!best) best = [code, e];
    else {
      const [bc, be] = best;
      const d = be.board.hits[be.pos]! * e.board.k - e.board.hits[e.pos]! * be.board.k;
      const better = d < 0 || (d === 0 && (e.board.mentions[e.pos]! > be.board.mentions[be.pos]! || (e.board.mentions[e.pos] === be.board.mentions[be.pos] && compareNames(name(code), name(bc)) < 0)));
      if (better) best = [code, e];
    }
  }
  return best![0];
}

/** A country's display name by its code. */
function countryNames(reg: Registry): (code: string) => string {
  const names = new Map(reg.countries.map((c) => [c.code, c.name]));
  return (code) => names.get(code)!;
}

/** A profile's history as the views show it, and its entry before the month's (all its summary reads of it). */
interface History {
  history: CompanyProfile['history'];
  prev: { month: string; rank: number } | null;
}

/** Where the views' histories come from: told first which (board key, company) pairs the month's profiles show. */
interface Histories {
  want(pairs: Map<string, Set<number>>, results: MonthResult[]): void;
  of(key: string, idx: number, code: string): History;
}

/** The histories as arrays of entries, made from every month's boards. */
class HistoryArrays implements Histories {
  #entries = new Map<string, Map<number, CompanyProfile['history']>>();

  want(pairs: Map<string, Set<number>>, results: MonthResult[]): void {
    for (const [key, set] of pairs) this.#entries.set(key, new Map([...set].map((idx) => [idx, []])));
    for (const r of results)
      for (const [key, b] of r.boards) {
        const m = this.#entries.get(key);
        if (!m) continue;
        b.order.forEach((idx, p) => m.get(idx)?.push({ month: r.month, rank: p + 1, visibilityScore: round1(b.hits[p]!, b.k) }));
      }
  }

  of(key: string, idx: number): History {
    const history = this.#entries.get(key)!.get(idx)!;
    return { history, prev: history.length > 1 ? history[history.length - 2]! : null };
  }
}

/** Per board key, the companies whose profile shows that board's history. */
function wantedPairs(st: ReturnType<typeof standings>): Map<string, Set<number>> {
  const wanted = new Map<string, Set<number>>();
  for (const [idx, per] of st)
    for (const [code, s] of per) {
      const key = `${code}/${s.entries[0]!.board.industrySlug}`;
      let m = wanted.get(key);
      if (!m) wanted.set(key, (m = new Set()));
      m.add(idx);
    }
  return wanted;
}

/**
 * Company views (current month), in slug order. `past`: the views of the input's last
 * month as a past month (service-spec §4 with `month`), whose profiles carry no
 * `lastUpdated` (the API adds it when it shapes them).
 */
export function companyViews(input: SiteInput, meta: MetaView, past = false): Generator<CompanyView> {
  return views(input, meta, past, new HistoryArrays());
}

function* views(input: SiteInput, meta: MetaView, past: boolean, histories: Histories): Generator<CompanyView> {
  const { registry: reg, results } = input;
  const cur = results[results.length - 1]!;
  const st = standings(cur);
  const methodology = methodologyShort(meta);
  const urls = siteUrls(meta.siteUrl);
  const name = countryNames(reg);
  histories.want(wantedPairs(st), results);

  for (const c of reg.companies) {
    const per = st.get(c.idx);
    const view: CompanyView = { slug: c.slug, company: c.name, website: c.website, industries: c.industries, defaultCountry: null, profiles: {} };
    if (per) {
      const def = defaultCountry(name, per);
      view.defaultCountry = def;
      const countryNames = [...per.keys()].map(name).sort(compareNames);
      for (const code of [...per.keys()].sort(compareKeys)) {
        const s = per.get(code)!;
        const [best, ...others] = s.entries;
        const b = best!.board, p = best!.pos;
        const d = b.detail!.get(c.idx)!;
        others.sort((x, y) => compareEntries(x.board, x.pos, y.board, y.pos));
        const { history, prev } = histories.of(`${code}/${b.industrySlug}`, c.idx, code);
        // summary last but one, as a profile has it: set below, once the rest is there to tell it
        const profile: CompanyProfile = {
          company: c.name,
          slug: c.slug,
          website: c.website,
          industry: b.industry,
          country: name(code),
          month: cur.month,
          visibilityScore: round1(b.hits[p]!, b.k),
          overallRank: s.overallRank,
          totalCompaniesInCountry: s.total,
          industryRank: p + 1,
          totalCompaniesInIndustry: b.order.length,
          mentionCount: b.mentions[p]!,
          evidence: { combinationsNamed: b.hits[p]!, combinations: b.k, scoredAnswers: b.answers },
          modelScores: d.modelScores,
          themes: d.themes,
          otherIndustries: others.map((o) => ({ industry: o.board.industry, industryRank: o.pos + 1, visibilityScore: round1(o.board.hits[o.pos]!, o.board.k) })),
          history,
          countries: countryNames,
          ...(past ? {} : { lastUpdated: meta.lastUpdated }),
          profileUrl: urls.profile(c.slug),
          apiUrl: urls.company(c.slug, code === def ? null : code),
          summary: '',
          methodology,
        } as CompanyProfile;
        profile.summary = summaryAfter(profile, prev, b.hits[p]!, b.k, results[0]!.month);
        view.profiles[code] = profile;
      }
    }
    yield view;
  }
}

/** What a profile's history entry is made of: its month's index in the results, and its rank. */
interface PairText {
  /** The entries' JSON text, comma-separated, without the brackets. */
  text: string;
  /** The last entry's month (index in the results) and rank, and the one's before it (-1: none). */
  last: number;
  lastRank: number;
  prev: number;
  prevRank: number;
}

/**
 * The histories of a run of past months' views as JSON text, kept from one month's views
 * to a later one's: a history entry's text does not depend on the month of the view that
 * shows it, so the views of month i reuse the text made for the views of an earlier month
 * and append the entries of the months after it, instead of making every entry again.
 * Keeps the pairs (board key, company) of the last month's views; the months must come
 * in ascending order to gain (a month at or before the last one starts over). One per
 * thread and run of months (the same results, oldest first).
 */
export class HistoryTexts implements Histories {
  #pairs = new Map<string, Map<number, PairText>>();
  /** The month (index) through which every kept pair's text is made. */
  #upTo = -1;
  #months: string[] = [];
  /** The current view's histories' text by country code, taken by {@link companyViewTexts}. */
  readonly pending = new Map<string, string>();

  want(pairs: Map<string, Set<number>>, results: MonthResult[]): void {
    const i = results.length - 1;
    if (this.#upTo >= i || results.slice(0, this.#upTo + 1).some((r, j) => r.month !== this.#months[j])) {
      this.#pairs.clear();
      this.#upTo = -1;
    }
    const prefix = results.map((r) => `{"month":${JSON.stringify(r.month)},"rank":`);
    const append = (t: PairText, r: number, b: Board, p: number) => {
      t.text += `${t.last >= 0 ? ',' : ''}${prefix[r]}${p + 1},"visibilityScore":${round1(b.hits[p]!, b.k)}}`;
      t.prev = t.last;
      t.prevRank = t.lastRank;
      t.last = r;
      t.lastRank = p + 1;
    };
    const next = new Map<string, Map<number, PairText>>();
    for (const [key, set] of pairs) {
      const old = this.#pairs.get(key);
      const m = new Map<number, PairText>();
      for (const idx of set) {
        let t = old?.get(idx);
        if (!t) {
          // A pair the last views did not show: its entries through the kept months, made now.
          t = { text: '', last: -1, lastRank: 0, prev: -1, prevRank: 0 };
          for (let r = 0; r <= this.#upTo; r++) {
            const b = results[r]!.boards.get(key);
            const p = b ? b.order.indexOf(idx) : -1;
            if (p >= 0) append(t, r, b!, p);
          }
        }
        m.set(idx, t);
      }
      next.set(key, m);
    }
    // Every pair: the entries of the months after the kept ones.
    for (let r = this.#upTo + 1; r <= i; r++)
      for (const [key, b] of results[r]!.boards) {
        const m = next.get(key);
        if (!m) continue;
        for (let p = 0; p < b.order.length; p++) {
          const t = m.get(b.order[p]!);
          if (t) append(t, r, b, p);
        }
      }
    // Each text is a chain of the pieces appended, month by month; reading a character
    // makes V8 flatten it into one string in place, which the views then copy as one
    // piece (an unflattened chain made writing the shards ~1 s slower a job, and more memory).
    for (const m of next.values()) for (const t of m.values()) t.text.charCodeAt(0);
    this.#pairs = next;
    this.#upTo = i;
    this.#months = results.map((r) => r.month);
  }

  /** The characters of history text kept (one byte each: the text is ASCII). */
  get length(): number {
    let n = 0;
    for (const m of this.#pairs.values()) for (const t of m.values()) n += t.text.length;
    return n;
  }

  of(key: string, idx: number, code: string): History {
    const t = this.#pairs.get(key)!.get(idx)!;
    this.pending.set(code, t.text);
    return { history: NO_HISTORY, prev: t.prev >= 0 ? { month: this.#months[t.prev]!, rank: t.prevRank } : null };
  }
}

/** What a view made by {@link companyViewTexts} carries as each profile's history: its text is spliced in. */
const NO_HISTORY: CompanyProfile['history'] = Object.freeze([]) as unknown as CompanyProfile['history'];
const HISTORY_SLOT = ',"history":[]';

/**
 * The company views of {@link companyViews} (`past` form) with each one's JSON text, the
 * bytes JSON.stringify writes for the view: the histories' text comes from `histories`
 * (kept from earlier months' views) instead of being made and stringified again. The
 * views yielded carry empty histories (their other fields are whole).
 */
export function* companyViewTexts(input: SiteInput, meta: MetaView, histories: HistoryTexts): Generator<{ view: CompanyView; text: string }> {
  for (const view of views(input, meta, true, histories)) {
    const parts = JSON.stringify(view).split(HISTORY_SLOT);
    const codes = Object.keys(view.profiles);
    // The slot's text can only be a profile's history key: in a JSON string its quotes would be escaped.
    if (parts.length !== codes.length + 1) throw new Error(`${view.slug}: ${parts.length - 1} history slots for ${codes.length} profiles`);
    let text = parts[0]!;
    codes.forEach((code, j) => (text += `,"history":[${histories.pending.get(code)!}]${parts[j + 1]!}`));
    histories.pending.clear();
    yield { view, text };
  }
}
