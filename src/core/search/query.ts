import { respellings } from './abbreviations.ts';
import { alignBits, newAlignment, type Alignment } from './distance.ts';
import { acronymKey } from './initials.ts';
import { addGrams, gramListLength, newGramSet } from './grams.ts';
import { Kind, type SearchIndex } from './load.ts';
import { foldWords, isNoise, splitHosts, stripLegal, stripNoise } from './normalize.ts';
import { lowerBound, type Strings } from './strings.ts';
import { mayHold, meaningfulWords, wordSieve, wordsHeld } from './words.ts';

/**
 * What a hit matched: its name (or slug), an alias, its website, the start of a key,
 * a key within a few typos, every word of the query in a name or alias, or the
 * initials of its name.
 */
export type MatchedOn = 'name' | 'alias' | 'domain' | 'prefix' | 'fuzzy' | 'words' | 'acronym';
export const MATCHED_ON: readonly MatchedOn[] = ['name', 'alias', 'domain', 'prefix', 'fuzzy', 'words', 'acronym'];
const How = { Name: 0, Alias: 1, Domain: 2, Prefix: 3, Fuzzy: 4, Words: 5, Acronym: 6 } as const;
/** Key kind (name, alias, slug, domain) -> what an exact match on it is reported as. */
const HOW_OF_KIND = [How.Name, How.Alias, How.Name, How.Domain];

export interface SearchHit {
  slug: string;
  /** In (0, 1]: 1 = exact canonical name, 0.99 exact alias; higher is better. */
  score: number;
  /** The name, alias, slug or website the query matched. */
  matched: string;
  /**
   * How it matched: exact (folded) name or slug, alias, website, typed-ahead prefix,
   * fuzzy (typos), every query word in a longer name or alias, or its initials.
   */
  matchedOn: MatchedOn;
  /**
   * How sure the match is, in [0, 1]: the score, lowered when another company
   * scores almost as well. `score × min(1, 0.5 + 10 × margin)`, margin being the gap
   * to the next company's score (no next company: margin 1). So an exact name with
   * no rival is 1, an exact name another company shares (`Orbital` as alias and
   * prefix) about 0.5-0.9, a two-typo match 0.6-0.8. A `words` hit is at most 0.9
   * divided by the number of companies holding every word, an `acronym` hit at most 0.4.
   */
  confidence: number;
}

export interface SearchOptions {
  /** 1-20, default 5. */
  limit?: number;
  /** Only slugs it accepts are returned; applied before `limit`. */
  filter?: (slug: string) => boolean;
}

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;
/** The API refuses longer queries (§4); the cap bounds the edit-distance cost. */
const MAX_QUERY = 100;
/** Companies the fuzzy stage scores: the "short list" of the issue. */
const FUZZY_DOCS = 96;
const MIN_SCORE = 0.4;
/** A trigram in more than 1/COMMON_GRAM_SHARE of the companies (and COMMON_GRAM_MIN) is common... */
const COMMON_GRAM_SHARE = 20;
const COMMON_GRAM_MIN = 64;
/** ...and skipped once this many rarer trigrams of the query have been counted. */
const MIN_GRAMS = 6;

/**
 * Two typos in a short name can break every trigram (`rnyavle` / `rynvale`). When
 * nothing scored this well, short queries also scan the keys of similar length
 * sharing their first letter (a first letter is seldom mistyped).
 */
const SWEEP_BELOW = 0.7;
const SWEEP_MIN = 4;
const SWEEP_MAX = 12;

/** By key kind: name, alias, slug, domain. Exact name/alias beat everything else. */
const EXACT_SCORE = [1, 0.99, 0.98, 0.98];
/** Equal once the legal suffix is dropped (`Northwind Traders` for `Northwind Traders, Inc.`). */
const COMPACT_SCORE = [0.96, 0.955, 0.95, 0.95];
/** Same words in another order (`Works Quill`): below an exact match, above any prefix or typo. */
const REORDERED_SCORE = [0.94, 0.935, 0.93, 0.93];
/** A host label after the first (`careers.quillworks.example`): a little below the first. */
const LATER_LABEL = 0.99;
/** Fuzzy matching on the query with its noise words (`jobs at`) kept only when nothing scored this well without them. */
const RAW_FUZZY_BELOW = 0.9;
/** The query respelled with the abbreviation table (`Svcs` for `Services`): just below the query as typed. */
const RESPELLED = 0.995;
/** Respelled queries of more words are not reordered (each respelling would cost its own permutations). */
const RESPELLED_REORDERED = 3;
/**
 * A company holding every word of the query in one name or alias ranks above every
 * prefix or typo match and below any whole-name match: words found as typed (or as
 * the table's abbreviation) from WORDS_EXACT, some only within typos from WORDS_NEAR,
 * each band ordered by how close the whole name is (its prefix or typo score).
 */
const WORDS_NEAR = 0.9;
const WORDS_EXACT = 0.915;
const WORDS_SPAN = 0.015;
/** A words match is this sure at most, shared out among the companies holding every word. */
const WORDS_CONFIDENCE = 0.9;
/** Acronyms (`initials.ts`): answered when nothing scored this well; low confidence. */
const ACRONYM_SCORE = 0.7;
const ACRONYM_CONFIDENCE = 0.4;

type Offer = (key: number, score: number, how: number) => void;

/**
 * Finds companies by approximate name, alias, subsidiary, slug or website, in any
 * word order, with words people type around a name (`jobs at`, `careers`, `the`,
 * a careers URL) ignored. An exact (folded) name or alias match always ranks
 * first; equal scores go to the better key kind (name, alias, slug, domain), then
 * to the smaller slug.
 * Needs the keys' texts (`matched`): an index loaded from JSON, not the binary form.
 * @example
 * searchCompanies(index, 'kestrel aero', { limit: 3, filter: (slug) => inUs.has(slug) });
 * // [{ slug: 'kestrel-aerospace-group', score: 0.99, matched: 'Kestrel Aero', matchedOn: 'alias', confidence: 0.99 }, ...]
 */
export function searchCompanies(index: SearchIndex, query: string, opts: SearchOptions = {}): SearchHit[] {
  const keyText = index.keyText;
  if (keyText === null) throw new Error('searchCompanies: this index has no key texts (the binary form): use findCompanies');
  return rank(index, query, opts).map((h) => ({ slug: h.slug, score: h.score, matched: keyText.get(h.key), matchedOn: h.matchedOn, confidence: h.confidence }));
}

/** A hit of {@link findCompanies}: a {@link SearchHit} without the text it matched. */
export type FoundCompany = Omit<SearchHit, 'matched'>;

/**
 * {@link searchCompanies}' hits without `matched`, from any index: the binary form
 * carries no key texts (what the API queries, whose answers do not report them).
 * @example
 * findCompanies(index, 'kestrel aero', { limit: 1 });
 * // [{ slug: 'kestrel-aerospace-group', score: 0.99, matchedOn: 'alias', confidence: 0.99 }]
 */
export function findCompanies(index: SearchIndex, query: string, opts: SearchOptions = {}): FoundCompany[] {
  return rank(index, query, opts).map((h) => ({ slug: h.slug, score: h.score, matchedOn: h.matchedOn, confidence: h.confidence }));
}

/** The hits of a query, each with the key it matched. */
function rank(index: SearchIndex, query: string, opts: SearchOptions): (FoundCompany & { key: number })[] {
  const asked = Math.floor(opts.limit ?? DEFAULT_LIMIT);
  const limit = Number.isNaN(asked) ? DEFAULT_LIMIT : Math.min(MAX_LIMIT, Math.max(1, asked));
  const text = query.slice(0, MAX_QUERY);
  const split = splitHosts(text);
  // a lone domain or URL is also read as words (`amazon.com` is a name too)
  const alone = split.hosts.length === 1 && split.rest === '';
  const raw = foldWords(alone ? (split.hosts[0] as string) : split.rest);
  const words = stripNoise(raw);
  if (words.length === 0 && split.hosts.length === 0) return [];
  const filter = opts.filter;
  const s = index.scratch;
  const { forms, formKey, formExact, keyKind } = index;

  const accepts = (doc: number): boolean => {
    if (!filter) return true;
    const f = s.docFilter[doc] as number;
    if (f !== 0) return f > 0;
    const ok = filter(index.slugs.get(doc));
    s.docFilter[doc] = ok ? 1 : -1;
    if (s.docScore[doc] === 0) {
      // listed so that the memo is reset; -1 = seen, not scored
      s.docs.push(doc);
      s.docScore[doc] = -1;
    }
    return ok;
  };
  let best = 0;
  const offer: Offer = (key, score, how) => {
    const doc = index.keyDoc[key] as number;
    if (!accepts(doc)) return;
    if (score > best) best = score;
    const prev = s.docScore[doc] as number;
    if (prev === 0) s.docs.push(doc);
    if (score > prev || (score === prev && (keyKind[key] as number) < (keyKind[s.docKey[doc] as number] as number))) {
      s.docScore[doc] = score;
      s.docKey[doc] = key;
      s.docHow[doc] = how;
    }
  };
  const exactlyWith =
    (o: Offer): Exactly =>
    (form, factor, kinds) => {
      for (let i = lowerBound(forms, form); i < forms.length && forms.get(i) === form; i++) {
        const key = formKey[i] as number;
        const kind = keyKind[key] as number;
        const exact = formExact[i] as number;
        if (kinds === null && exact !== 1) continue;
        o(key, factor * ((kinds ?? EXACT_SCORE)[kind] as number), HOW_OF_KIND[kind] as number);
      }
    };
  const exactly = exactlyWith(offer);

  try {
    for (const host of split.hosts) {
      const labels = host.split('.');
      let factor = 1;
      for (let l = 0; l < labels.length - 1; l++) {
        const label = foldWords(labels[l] as string).join('');
        if (label === '' || isNoise(label)) continue;
        exactly(label, factor, null);
        factor *= LATER_LABEL;
      }
    }
    const variants = words === raw || raw.length === 0 ? [words] : [words, raw];
    for (const v of variants) if (v.length > 0) exactStage(index, v, exactly, offer);
    const respelled: Offer = (key, score, how) => offer(key, RESPELLED * score, how);
    for (const v of respellings(words)) exactStage(index, v, exactlyWith(respelled), respelled, RESPELLED_REORDERED);
    // two or more words: every company on the short list is a candidate for holding them all
    const wanted = meaningfulWords(words);
    const byWords = wanted.length >= 2;
    if (words.length > 0) {
      const full = words.join('');
      const compact = stripLegal(words).join('');
      if (compact.length >= 2) fuzzy(index, compact, full, accepts, offer, byWords ? 0 : MIN_SCORE);
      if (words !== raw && raw.length > 0 && best < RAW_FUZZY_BELOW) {
        const rawCompact = stripLegal(raw).join('');
        fuzzy(index, rawCompact, raw.join(''), accepts, offer, MIN_SCORE);
      }
      if (best < SWEEP_BELOW && compact.length >= SWEEP_MIN && compact.length <= SWEEP_MAX) sweep(index, compact, offer);
      if (words.length === 1 && best < ACRONYM_SCORE) acronym(index, words[0] as string, accepts, offer);
    }
    const holders = byWords ? wordsBand(index, wanted) : 0;

    // the best `limit` hits and the next one (for the margin), kept in order as they come:
    // by score, then key kind, then company
    const hits: { doc: number; score: number }[] = [];
    const kindOf = (doc: number): number => keyKind[s.docKey[doc] as number] as number;
    const before = (doc: number, score: number, h: { doc: number; score: number }): boolean =>
      score !== h.score ? score > h.score : kindOf(doc) !== kindOf(h.doc) ? kindOf(doc) < kindOf(h.doc) : doc < h.doc;
    for (const doc of s.docs) {
      const raw = s.docScore[doc] as number;
      if (raw < MIN_SCORE && !(raw > 0 && s.docHow[doc] === How.Words)) continue;
      const score = Math.round(raw * 1e4) / 1e4;
      if (hits.length > limit && !before(doc, score, hits[limit] as { doc: number; score: number })) continue;
      let at = Math.min(hits.length, limit);
      while (at > 0 && before(doc, score, hits[at - 1] as { doc: number; score: number })) at--;
      hits.splice(at, 0, { doc, score });
      if (hits.length > limit + 1) hits.pop();
    }
    return hits.slice(0, limit).map((h, i) => {
      const next = hits[i + 1]?.score;
      const margin = next === undefined ? 1 : h.score - next;
      const how = s.docHow[h.doc] as number;
      let confidence = h.score * Math.min(1, 0.5 + 10 * margin);
      if (how === How.Words) confidence = Math.min(confidence, WORDS_CONFIDENCE / holders);
      else if (how === How.Acronym) confidence = Math.min(confidence, ACRONYM_CONFIDENCE);
      return {
        key: s.docKey[h.doc] as number,
        slug: index.slugs.get(h.doc),
        score: h.score,
        matchedOn: MATCHED_ON[how] as MatchedOn,
        confidence: Math.round(confidence * 1e4) / 1e4,
      };
    });
  } finally {
    for (const doc of s.docs) {
      s.docScore[doc] = 0;
      s.docFilter[doc] = 0;
    }
    s.docs.length = 0;
  }
}

/**
 * For a search narrowed by `filter` (the API's `country=`): the best hit of the
 * same query without the filter when it is not among `hits` and scores higher
 * than the best of them, so the answer can say "a better match exists outside
 * this country". `undefined` otherwise.
 * @example
 * const hits = searchCompanies(index, q, { filter });
 * const elsewhere = betterOutside(index, q, hits); // { slug: 'quill-works', ... } or undefined
 */
export function betterOutside(index: SearchIndex, query: string, hits: readonly SearchHit[]): SearchHit | undefined {
  const top = searchCompanies(index, query, { limit: 1 })[0];
  if (!top) return undefined;
  const bestInside = hits[0]?.score ?? 0;
  if (top.score <= bestInside || hits.some((h) => h.slug === top.slug)) return undefined;
  return top;
}

type Exactly = (form: string, factor: number, kinds: readonly number[] | null) => void;

/** Exact, suffix-stripped, reordered and typed-ahead matches of one word list. */
function exactStage(index: SearchIndex, words: readonly string[], exactly: Exactly, offer: Offer, maxReordered = MAX_REORDERED): void {
  const { forms, formKey, formExact, keyKind } = index;
  const full = words.join('');
  const strippedWords = stripLegal(words);
  const compact = strippedWords.join('');
  if (full !== compact) {
    for (let i = lowerBound(forms, full); i < forms.length && forms.get(i) === full; i++) {
      const key = formKey[i] as number;
      const kind = keyKind[key] as number;
      offer(key, ((formExact[i] ? EXACT_SCORE : COMPACT_SCORE)[kind]) as number, HOW_OF_KIND[kind] as number);
    }
  }
  // equal forms first, then longer forms starting with the query
  const m = compact.length;
  for (let i = lowerBound(forms, compact); i < forms.length; i++) {
    const form = forms.get(i);
    if (!form.startsWith(compact)) break;
    const key = formKey[i] as number;
    const kind = keyKind[key] as number;
    if (form.length > m) offer(key, prefixScore(m, form.length), How.Prefix);
    else offer(key, (formExact[i] && full === compact ? (EXACT_SCORE[kind] as number) : (COMPACT_SCORE[kind] as number)), HOW_OF_KIND[kind] as number);
  }
  if (strippedWords.length >= 2 && strippedWords.length <= maxReordered) reordered(forms, strippedWords, exactly);
  if (words.length >= 2 && words.length <= maxReordered && strippedWords.length !== words.length) reordered(forms, words, exactly);
}

/** Queries of more words are not reordered (at most 5! = 120 orders). */
const MAX_REORDERED = 5;

/**
 * Every other order of the words, each looked up as an exact form: `Works Quill`
 * finds `quillworks`. Done at query time, so the index holds no extra forms. Orders
 * are built word by word, and a start that no form has is not followed (most
 * words of a query begin no name), so a query of five words costs a few lookups,
 * not 120.
 */
function reordered(forms: Strings, words: readonly string[], exactly: Exactly): void {
  const n = words.length;
  if (n > MAX_REORDERED) return;
  const seen = new Set<string>([words.join('')]);
  const used = new Array<boolean>(n).fill(false);
  // a repeated word: its first unused copy stands for all
  const sameUnusedBefore = (i: number): boolean => {
    for (let j = 0; j < i; j++) if (!used[j] && words[j] === words[i]) return true;
    return false;
  };
  const walk = (start: string, placed: number): void => {
    for (let i = 0; i < n; i++) {
      if (used[i] || sameUnusedBefore(i)) continue;
      const word = words[i] as string;
      const form = start + word;
      if (placed + 1 === n) {
        if (!seen.has(form)) {
          seen.add(form);
          exactly(form, 1, REORDERED_SCORE);
        }
        continue;
      }
      const at = lowerBound(forms, form);
      if (at === forms.length || !forms.get(at).startsWith(form)) continue;
      used[i] = true;
      walk(form, placed + 1);
      used[i] = false;
    }
  };
  walk('', 0);
}

const queryGrams: number[] = [];
const alignment: Alignment = newAlignment();

/** Typed-ahead: longer query, better; 0.7-0.9 so that an exact prefix beats a one-typo short name. */
function prefixScore(m: number, n: number): number {
  return 0.7 + (0.2 * m) / n;
}

function fuzzyScore(query: string, key: string): number {
  alignBits(query, key, alignment);
  return scoreOf(query, key, alignment.full, alignment.prefix);
}

/** The score of `query` against `key` at edit distance `full` from the whole key and `prefix` from its closest prefix. */
function scoreOf(query: string, key: string, full: number, prefix: number): number {
  const m = query.length;
  const n = key.length;
  let score = 0.9 * (1 - full / Math.max(m, n));
  if (n > m && m >= 3) {
    const pre = prefixScore(m, n) * (1 - prefix / m);
    if (pre > score) score = pre;
  }
  if (score < 0.75 && m >= 4 && key.includes(query)) {
    // a later word of the key (`aerospace` in Kestrel Aerospace)
    const inner = 0.5 + (0.25 * m) / n;
    if (inner > score) score = inner;
  }
  return score;
}

/**
 * A key's fuzzy score: the better of the query against the key without their legal
 * forms and with them (a misspelt suffix, `Holdigns`, is not stripped). One pass
 * when each form without is the start of its form with (the usual case): the
 * table of the longer pair holds the shorter pair's. `nested`: `compact` starts
 * `full` (or is it). A form without a legal form is the form with it, or shorter.
 */
function keyScore(compact: string, full: string, nested: boolean, key: string, keyWhole: string): number {
  const keyAlone = keyWhole.length === key.length;
  if (keyAlone && full.length === compact.length) return fuzzyScore(compact, key);
  if (!nested || !(keyAlone || keyWhole.startsWith(key))) return Math.max(fuzzyScore(compact, key), fuzzyScore(full, keyWhole));
  alignBits(full, keyWhole, alignment, compact.length, key.length);
  return Math.max(scoreOf(compact, key, alignment.partFull, alignment.partPrefix), scoreOf(full, keyWhole, alignment.full, alignment.prefix));
}

/** Work arrays of {@link fuzzy}'s counting sort, by shared-trigram count. */
let countStart = new Int32Array(128);
let atLeast = new Int32Array(128);

function fuzzy(
  index: SearchIndex,
  compact: string,
  full: string,
  accepts: (doc: number) => boolean,
  offer: Offer,
  floor: number,
): void {
  const { gramStart, gramBytes, keyStart, keyCompact, keyFull } = index;
  const { gramCount, touched, byCount } = index.scratch;
  newGramSet(queryGrams);
  addGrams(compact, queryGrams);
  // rare trigrams first; very common ones (`ing`, `ion`) are skipped once enough rare ones count
  const lengthOf = (h: number): number => gramListLength(gramStart, gramBytes, h);
  queryGrams.sort((a, b) => lengthOf(a) - lengthOf(b) || a - b);
  const common = Math.max(COMMON_GRAM_MIN, index.slugs.length / COMMON_GRAM_SHARE);
  // atLeast[c]: companies sharing c trigrams or more with the query
  if (atLeast.length < queryGrams.length + 2) {
    atLeast = new Int32Array(2 * queryGrams.length + 2);
    countStart = new Int32Array(2 * queryGrams.length + 2);
  }
  atLeast.fill(0, 0, queryGrams.length + 2);
  let used = 0;
  let touchedCount = 0;
  for (const h of queryGrams) {
    const length = lengthOf(h);
    if (length === 0) continue;
    if (used >= MIN_GRAMS && length > common) break;
    used++;
    const end = gramStart[h + 1] as number;
    // the list's companies, each a gap from the previous one (LEB128), after the list's count.
    // Loops that run at least once: code that V8 optimised over small lists (the priming's,
    // all one-byte) would otherwise meet untried operations and fall back to the interpreter.
    let i = gramStart[h] as number;
    while ((gramBytes[i++] as number) >= 0x80);
    for (let d = -1; i < end; ) {
      let gap = 0;
      let shift = 0;
      let b: number;
      do {
        b = gramBytes[i++] as number;
        gap |= (b & 0x7f) << shift;
        shift += 7;
      } while (b >= 0x80);
      d += gap;
      const c = (gramCount[d] as number) + 1;
      gramCount[d] = c;
      atLeast[c] = (atLeast[c] as number) + 1;
      if (c === 1) touched[touchedCount++] = d;
    }
  }
  // best shared-trigram counts first, doc order inside a count: deterministic. Only the
  // companies from the count at which FUZZY_DOCS are reached are sorted (a counting
  // sort, its buckets' sizes read off atLeast); lower counts only when the filter
  // turned some away.
  const nested = full.startsWith(compact);
  let taken = 0;
  // counts from `high` up are done
  let high = used + 1;
  while (taken < FUZZY_DOCS && high > 1) {
    let low = high - 1;
    while (low > 1 && (atLeast[low] as number) - (atLeast[high] as number) < FUZZY_DOCS - taken) low--;
    // count c goes to slot high - 1 - c, which starts at countStart[slot]
    let at = 0;
    for (let c = high - 1; c >= low; c--) {
      countStart[high - 1 - c] = at;
      at += (atLeast[c] as number) - (atLeast[c + 1] as number);
    }
    for (let t = 0; t < touchedCount; t++) {
      const d = touched[t] as number;
      const c = gramCount[d] as number;
      if (c < low || c >= high) continue;
      const slot = high - 1 - c;
      byCount[countStart[slot] as number] = d;
      countStart[slot] = (countStart[slot] as number) + 1;
    }
    let start = 0;
    for (let slot = 0; slot < high - low && taken < FUZZY_DOCS; slot++) {
      // countStart[slot] is now the end of the slot's companies
      const slotEnd = countStart[slot] as number;
      const bucket = byCount.subarray(start, slotEnd).sort();
      start = slotEnd;
      for (const d of bucket) {
        if (taken >= FUZZY_DOCS) break;
        if (!accepts(d)) continue;
        taken++;
        const end = keyStart[d + 1] as number;
        for (let k = keyStart[d] as number; k < end; k++) {
          const score = keyScore(compact, full, nested, keyCompact.get(k), keyFull.get(k));
          // below MIN_SCORE only as a candidate for holding every word (floor 0); dropped otherwise
          if (score >= floor && score > 0) offer(k, score, How.Fuzzy);
        }
      }
    }
    high = low;
  }
  for (let t = 0; t < touchedCount; t++) gramCount[touched[t] as number] = 0;
}

function sweep(index: SearchIndex, compact: string, offer: Offer): void {
  const { forms, formKey, keyCompact } = index;
  const first = compact.charAt(0);
  const m = compact.length;
  const end = lowerBound(forms, String.fromCharCode(first.charCodeAt(0) + 1));
  let previous = -1;
  for (let i = lowerBound(forms, first); i < end; i++) {
    const key = formKey[i] as number;
    // each key once, through its compact form (by range: a form is its key's compact form when not exact, or when both are equal)
    if (key === previous) continue;
    const form = forms.get(i);
    if (form !== keyCompact.get(key) || Math.abs(form.length - m) > 2) continue;
    previous = key;
    const score = fuzzyScore(compact, form);
    if (score >= MIN_SCORE) offer(key, score, How.Fuzzy);
  }
}

/**
 * Lifts every scored company that holds all `wanted` words in one name or alias
 * (see {@link WORDS_EXACT}) above the prefix and typo matches, keeping their order
 * within the band; returns how many companies hold them.
 */
function wordsBand(index: SearchIndex, wanted: readonly string[]): number {
  const s = index.scratch;
  const { keyStart, keyKind, keyText, keyWords, keyFull } = index;
  const sieve = wordSieve(wanted);
  const lists: string[][] = [];
  const listKey: number[] = [];
  for (const doc of s.docs) {
    const score = s.docScore[doc] as number;
    // not scored (filtered out), or a whole-name match already above the band
    if (score <= 0 || score >= WORDS_NEAR) continue;
    const end = keyStart[doc + 1] as number;
    for (let k = keyStart[doc] as number; k < end; k++) {
      const kind = keyKind[k] as number;
      if ((kind !== Kind.Name && kind !== Kind.Alias) || !mayHold(sieve, keyFull.get(k))) continue;
      // the words a name or alias was folded into: kept apart in the binary form, else folded again
      lists.push(keyWords ? keyWords.get(k).split(' ') : foldWords((keyText as Strings).get(k)));
      listKey.push(k);
    }
  }
  if (held.length < lists.length) held = new Uint8Array(2 * lists.length);
  wordsHeld(wanted, lists, held);
  // per company (its keys are listed together): the best hold, on its first key holding that well
  let holders = 0;
  for (let i = 0; i < lists.length; ) {
    const doc = index.keyDoc[listKey[i] as number] as number;
    let best = 0;
    let bestAt = -1;
    for (; i < lists.length && index.keyDoc[listKey[i] as number] === doc; i++) {
      if ((held[i] as number) > best) {
        best = held[i] as number;
        bestAt = i;
      }
    }
    if (best === 0) continue;
    holders++;
    const score = s.docScore[doc] as number;
    s.docScore[doc] = (best === 2 ? WORDS_EXACT : WORDS_NEAR) + (WORDS_SPAN * Math.min(score, WORDS_NEAR)) / WORDS_NEAR;
    // typed ahead (`Kestrel Aeros`) stays a prefix match, and every word of the name
    // within typos (`Orbittal Wroks`) a close spelling: that is what the user did
    const how = s.docHow[doc] as number;
    if (how === How.Prefix) continue;
    if (how === How.Fuzzy && best === 1 && meaningfulWords(lists[bestAt] as string[]).length === wanted.length) continue;
    s.docKey[doc] = listKey[bestAt] as number;
    s.docHow[doc] = How.Words;
  }
  return holders;
}

/** Per-query work array of {@link wordsBand}. */
let held = new Uint8Array(64);

/**
 * The one company whose name's initials (legal form, `the` and `&` left out) are
 * the query, offered at {@link ACRONYM_SCORE}; nothing when none or several are.
 */
function acronym(index: SearchIndex, word: string, accepts: (doc: number) => boolean, offer: Offer): void {
  const key = acronymKey(index, word);
  if (key >= 0 && accepts(index.keyDoc[key] as number)) offer(key, ACRONYM_SCORE, How.Acronym);
}
