/**
 * Company views (data-and-rules §3), made in two steps: each company's month as numbers, a
 * {@link CompanyRecord}; then the view shaped from it ({@link shapeView}: names, URLs,
 * sentences). The build stores past months' records, and the API shapes a past month's profile
 * from them when asked: one way to make a profile either way.
 */
import type { Company } from '../registry.ts';
import { compareEntries, entryDetail, round1, type Board, type MonthResult } from '../score.ts';
import type { CompanyProfile, MethodologyShort } from '../schemas/responses.ts';
import { compareKeys, compareNames } from '../text.ts';
import { DEFAULT_COUNTRY } from '../policy.ts';
import { siteUrls, type SiteUrls } from '../urls.ts';
import type { CompanyView, MetaView, SearchRankingsView } from './layout.ts';
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

/**
 * One profile of a company in a month, as numbers: every figure of {@link CompanyProfile} that is
 * not a name, URL or sentence. `themes` indexes {@link RecordTables}' theme lists; `themeRanks`,
 * `otherIndustries` and `history` (month index, rank, score) per entry.
 */
export type ProfileRecord = [
  code: string,
  industry: string,
  overallRank: number,
  totalCompaniesInCountry: number,
  industryRank: number,
  totalCompaniesInIndustry: number,
  mentionCount: number,
  combinationsNamed: number,
  combinations: number,
  scoredAnswers: number,
  modelScores: [chatgpt: number | null, googleAi: number | null, perplexity: number | null],
  themes: number,
  themeRanks: number[],
  otherIndustries: (string | number)[],
  history: number[],
];

/** A company's month as numbers: its default country (code) and its profiles, by country code in key order. */
export type CompanyRecord = [defaultCountry: string, profiles: ProfileRecord[]];

/** What a month's records are read with (a past month's shard carries the ones its records name). */
export interface RecordTables {
  /** The dataset's months through the records' month (the last), oldest first. */
  months: string[];
  /** The boards' theme lists (each in the order its profiles' themes are keyed), by index. */
  themes: Record<number, string[]>;
  /** Country code -> display name. */
  countries: Record<string, string>;
}

/** A company's identity as its views show it. */
export interface CompanyIdentity {
  slug: string;
  company: string;
  website: string;
  industries: string[];
}

export const identityOf = (c: Company): CompanyIdentity => ({ slug: c.slug, company: c.name, website: c.website, industries: c.industries });

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
 * The profiles' histories as flat lists (month index, rank, score per entry), kept from one
 * month's records to a later one's, which appends only the months since. Months must come in
 * ascending order to gain (an earlier one starts over). One per thread and run of months.
 */
export class HistoryLists {
  #pairs = new Map<string, Map<number, number[]>>();
  /** The month (index) through which every kept pair's list is made. */
  #upTo = -1;
  #months: string[] = [];

  /** Makes the lists of `pairs` (board key -> companies) through the last of `results`. */
  want(pairs: Map<string, Set<number>>, results: MonthResult[]): void {
    const i = results.length - 1;
    if (this.#upTo >= i || results.slice(0, this.#upTo + 1).some((r, j) => r.month !== this.#months[j])) {
      this.#pairs.clear();
      this.#upTo = -1;
    }
    const append = (list: number[], r: number, b: Board, p: number) => list.push(r, p + 1, round1(b.hits[p]!, b.k));
    const next = new Map<string, Map<number, number[]>>();
    for (const [key, set] of pairs) {
      const old = this.#pairs.get(key);
      const m = new Map<number, number[]>();
      for (const idx of set) {
        let list = old?.get(idx);
        if (!list) {
          // A pair the last records did not show: its entries through the kept months, made now.
          list = [];
          for (let r = 0; r <= this.#upTo; r++) {
            const b = results[r]!.boards.get(key);
            const p = b ? b.order.indexOf(idx) : -1;
            if (p >= 0) append(list, r, b!, p);
          }
        }
        m.set(idx, list);
      }
      next.set(key, m);
    }
    // Every pair: the entries of the months after the kept ones.
    for (let r = this.#upTo + 1; r <= i; r++)
      for (const [key, b] of results[r]!.boards) {
        const m = next.get(key);
        if (!m) continue;
        for (let p = 0; p < b.order.length; p++) {
          const list = m.get(b.order[p]!);
          if (list) append(list, r, b, p);
        }
      }
    this.#pairs = next;
    this.#upTo = i;
    this.#months = results.map((r) => r.month);
  }

  /** The numbers kept. */
  get length(): number {
    let n = 0;
    for (const m of this.#pairs.values()) for (const list of m.values()) n += list.length;
    return n;
  }

  /** A copy of the pair's list (the kept one grows with a later month's records). */
  of(key: string, idx: number): number[] {
    return this.#pairs.get(key)!.get(idx)!.slice();
  }
}

/** A month's records: their tables (filled as the records come) and each registry company's record, in registry (slug) order; null without data that month. */
export interface MonthRecords {
  tables: RecordTables;
  records: Generator<{ company: Company; record: CompanyRecord | null }>;
}

/**
 * The records of the input's last month (its result carries board details). `histories`:
 * kept from an earlier month's records of the same results (the build's month jobs).
 */
export function companyRecords(input: SiteInput, histories: HistoryLists = new HistoryLists()): MonthRecords {
  const countries: Record<string, string> = {};
  for (const c of input.registry.countries) countries[c.code] = c.name;
  const tables: RecordTables = { months: input.results.map((r) => r.month), themes: {}, countries };
  return { tables, records: records(input, histories, tables) };
}

function* records(input: SiteInput, histories: HistoryLists, tables: RecordTables): Generator<{ company: Company; record: CompanyRecord | null }> {
  const { registry: reg, results } = input;
  const cur = results[results.length - 1]!;
  const st = standings(cur);
  const name = (code: string) => tables.countries[code]!;
  histories.want(wantedPairs(st), results);
  // Theme lists by board (the same array for every entry of a board), then by content.
  const byList = new Map<readonly string[], number>();
  const byText = new Map<string, number>();
  let lists = 0;
  const themeList = (themes: readonly string[]): number => {
    let t = byList.get(themes);
    if (t === undefined) {
      const text = JSON.stringify(themes);
      t = byText.get(text);
      if (t === undefined) {
        byText.set(text, (t = lists++));
        tables.themes[t] = [...themes];
      }
      byList.set(themes, t);
    }
    return t;
  };

  for (const c of reg.companies) {
    const per = st.get(c.idx);
    if (!per) {
      yield { company: c, record: null };
      continue;
    }
    const profiles: ProfileRecord[] = [];
    for (const code of [...per.keys()].sort(compareKeys)) {
      const s = per.get(code)!;
      const [best, ...others] = s.entries;
      const b = best!.board, p = best!.pos;
      const d = b.detail!.values(c.idx)!;
      others.sort((x, y) => compareEntries(x.board, x.pos, y.board, y.pos));
      const other: (string | number)[] = [];
      for (const o of others) other.push(o.board.industry, o.pos + 1, round1(o.board.hits[o.pos]!, o.board.k));
      profiles.push([code, b.industry, s.overallRank, s.total, p + 1, b.order.length, b.mentions[p]!, b.hits[p]!, b.k, b.answers, d.models, themeList(d.themes), d.ranked, other, histories.of(`${code}/${b.industrySlug}`, c.idx)]);
    }
    yield { company: c, record: [defaultCountry(name, per), profiles] };
  }
}

/** What a view's shaping reads of the site: its URLs, the methodology in short, and the date profiles carry (none: a past month's stored form). */
export interface ShapeSite {
  urls: SiteUrls;
  methodology: MethodologyShort;
  lastUpdated?: string;
}

export const shapeSite = (meta: MetaView, lastUpdated?: string): ShapeSite => ({ urls: siteUrls(meta.siteUrl), methodology: methodologyShort(meta), ...(lastUpdated === undefined ? {} : { lastUpdated }) });

/** The view of `company` in the records' month: its profiles shaped from `record` (none: no data that month). */
export function shapeView(company: CompanyIdentity, record: CompanyRecord | null, tables: RecordTables, site: ShapeSite): CompanyView {
  const view: CompanyView = { slug: company.slug, company: company.company, website: company.website, industries: company.industries, defaultCountry: null, profiles: {} };
  if (!record) return view;
  const [def, records] = record;
  view.defaultCountry = def;
  const { months, countries: names } = tables;
  const month = months[months.length - 1]!;
  const countries = records.map((r) => names[r[0]]!).sort(compareNames);
  for (const [code, industry, overallRank, total, industryRank, inIndustry, mentions, hits, k, answers, models, t, ranked, others, h] of records) {
    const { modelScores, themes } = entryDetail(models, tables.themes[t]!, ranked);
    const otherIndustries: CompanyProfile['otherIndustries'] = [];
    for (let j = 0; j < others.length; j += 3) otherIndustries.push({ industry: others[j] as string, industryRank: others[j + 1] as number, visibilityScore: others[j + 2] as number });
    const history: CompanyProfile['history'] = [];
    for (let j = 0; j < h.length; j += 3) history.push({ month: months[h[j]!]!, rank: h[j + 1]!, visibilityScore: h[j + 2]! });
    const prev = h.length > 3 ? { month: months[h[h.length - 6]!]!, rank: h[h.length - 5]! } : null;
    // summary last but one, as a profile has it: set below, once the rest is there to tell it
    const profile: CompanyProfile = {
      company: company.company,
      slug: company.slug,
      website: company.website,
      industry,
      country: names[code]!,
      month,
      visibilityScore: round1(hits, k),
      overallRank,
      totalCompaniesInCountry: total,
      industryRank,
      totalCompaniesInIndustry: inIndustry,
      mentionCount: mentions,
      evidence: { combinationsNamed: hits, combinations: k, scoredAnswers: answers },
      modelScores,
      themes,
      otherIndustries,
      history,
      countries,
      ...(site.lastUpdated === undefined ? {} : { lastUpdated: site.lastUpdated }),
      profileUrl: site.urls.profile(company.slug),
      apiUrl: site.urls.company(company.slug, code === def ? null : code),
      summary: '',
      methodology: site.methodology,
    } as CompanyProfile;
    profile.summary = summaryAfter(profile, prev, hits, k, months[0]!);
    view.profiles[code] = profile;
  }
  return view;
}

/** Company views of the input's last month, in slug order. `past`: as a past month's, without `lastUpdated`. */
export function* companyViews(input: SiteInput, meta: MetaView, past = false): Generator<CompanyView> {
  const { tables, records } = companyRecords(input);
  const site = shapeSite(meta, past ? undefined : meta.lastUpdated);
  for (const { company, record } of records) yield shapeView(identityOf(company), record, tables, site);
}

/** What search keeps of a company's record (as searchRankingOf of its view). */
export function searchRankingOfRecord(company: CompanyIdentity, record: CompanyRecord): SearchRankingsView['companies'][string] {
  const rankings: SearchRankingsView['companies'][string]['rankings'] = {};
  for (const r of record[1]) rankings[r[0]] = { industry: r[1], rank: r[2], industryRank: r[4], totalCompaniesInIndustry: r[5], visibilityScore: round1(r[7], r[8]) };
  return { company: company.company, website: company.website, industries: company.industries, defaultCountry: record[0], rankings };
}

/**
 * A past month's shard of records (`views/months/{month}/companies/{n}.json`): the tables
 * its records name, and the records of its companies (those with data that month) by slug.
 */
export interface RecordShard extends RecordTables {
  companies: Record<string, CompanyRecord>;
}
