import { alignBits, type Alignment } from '../../../src/core/search/distance.ts';
import { addGrams, newGramSet } from '../../../src/core/search/grams.ts';
import type { SearchIndex } from './load.ts';
import { foldWords, hostOf, stripLegal } from '../../../src/core/search/normalize.ts';

export interface SearchHit {
  slug: string;
  /** In (0, 1]: 1 = exact canonical name, 0.99 exact alias; higher is better. */
  score: number;
  /** The name, alias, slug or website the query matched. */
  matched: string;
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

function lowerBound(forms: readonly string[], value: string): number {
  let lo = 0;
  let hi = forms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((forms[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Finds companies by approximate name, alias, subsidiary, slug or website. An exact
 * (folded) name or alias match always ranks first; equal scores go to the better
 * key kind (name, alias, slug, domain), then to the smaller slug.
 * @example
 * searchCompanies(index, 'kestrel aero', { limit: 3, filter: (slug) => inUs.has(slug) });
 * // [{ slug: 'kestrel-aerospace-group', score: 0.99, matched: 'Kestrel Aero' }, ...]
 */
export function searchCompanies(index: SearchIndex, query: string, opts: SearchOptions = {}): SearchHit[] {
  const asked = Math.floor(opts.limit ?? DEFAULT_LIMIT);
  const limit = Number.isNaN(asked) ? DEFAULT_LIMIT : Math.min(MAX_LIMIT, Math.max(1, asked));
  const host = hostOf(query.slice(0, MAX_QUERY));
  const words = foldWords(host);
  if (words.length === 0) return [];
  const full = words.join('');
  const compact = stripLegal(words).join('');
  const filter = opts.filter;
  const s = index.scratch;
  const { forms, formKey, formExact, keyKind } = index;

  const accepts = (doc: number): boolean => {
    if (!filter) return true;
    const f = s.docFilter[doc] as number;
    if (f !== 0) return f > 0;
    const ok = filter(index.slugs[doc] as string);
    s.docFilter[doc] = ok ? 1 : -1;
    if (s.docScore[doc] === 0) {
      // listed so that the memo is reset; -1 = seen, not scored
      s.docs.push(doc);
      s.docScore[doc] = -1;
    }
    return ok;
  };
  let best = 0;
  const offer = (key: number, score: number): void => {
    const doc = index.keyDoc[key] as number;
    if (!accepts(doc)) return;
    if (score > best) best = score;
    const prev = s.docScore[doc] as number;
    if (prev === 0) s.docs.push(doc);
    if (score > prev || (score === prev && (keyKind[key] as number) < (keyKind[s.docKey[doc] as number] as number))) {
      s.docScore[doc] = score;
      s.docKey[doc] = key;
    }
  };

  try {
    const dot = host.indexOf('.');
    if (dot > 0) {
      const label = foldWords(host.slice(0, dot)).join('');
      for (let i = lowerBound(forms, label); i < forms.length && forms[i] === label; i++) {
        const key = formKey[i] as number;
        if (formExact[i]) offer(key, EXACT_SCORE[keyKind[key] as number] as number);
      }
    }
    if (full !== compact) {
      for (let i = lowerBound(forms, full); i < forms.length && forms[i] === full; i++) {
        const key = formKey[i] as number;
        offer(key, ((formExact[i] ? EXACT_SCORE : COMPACT_SCORE)[keyKind[key] as number]) as number);
      }
    }
    // equal forms first, then longer forms starting with the query
    const m = compact.length;
    for (let i = lowerBound(forms, compact); i < forms.length; i++) {
      const form = forms[i] as string;
      if (!form.startsWith(compact)) break;
      const key = formKey[i] as number;
      const kind = keyKind[key] as number;
      if (form.length > m) offer(key, prefixScore(m, form.length));
      else offer(key, (formExact[i] && full === compact ? (EXACT_SCORE[kind] as number) : (COMPACT_SCORE[kind] as number)));
    }

    if (m >= 2) fuzzy(index, compact, full, accepts, offer);
    if (best < SWEEP_BELOW && m >= SWEEP_MIN && m <= SWEEP_MAX) sweep(index, compact, offer);

    const hits: { doc: number; score: number }[] = [];
    for (const doc of s.docs) {
      const score = s.docScore[doc] as number;
      if (score >= MIN_SCORE) hits.push({ doc, score: Math.round(score * 1e4) / 1e4 });
    }
    hits.sort(
      (a, b) =>
        b.score - a.score ||
        (keyKind[s.docKey[a.doc] as number] as number) - (keyKind[s.docKey[b.doc] as number] as number) ||
        a.doc - b.doc,
    );
    return hits.slice(0, limit).map((h) => ({
      slug: index.slugs[h.doc] as string,
      score: h.score,
      matched: index.keyText[s.docKey[h.doc] as number] as string,
    }));
  } finally {
    for (const doc of s.docs) {
      s.docScore[doc] = 0;
      s.docFilter[doc] = 0;
    }
    s.docs.length = 0;
  }
}

const queryGrams: number[] = [];
const alignment: Alignment = { full: 0, prefix: 0, prefixLength: 0 };

/** Typed-ahead: longer query, better; 0.7-0.9 so that an exact prefix beats a one-typo short name. */
function prefixScore(m: number, n: number): number {
  return 0.7 + (0.2 * m) / n;
}

function fuzzyScore(query: string, key: string): number {
  const m = query.length;
  const n = key.length;
  alignBits(query, key, alignment);
  let score = 0.9 * (1 - alignment.full / Math.max(m, n));
  if (n > m && m >= 3) {
    const pre = prefixScore(m, n) * (1 - alignment.prefix / m);
    if (pre > score) score = pre;
  }
  if (score < 0.75 && m >= 4 && key.includes(query)) {
    // a later word of the key (`aerospace` in Kestrel Aerospace)
    const inner = 0.5 + (0.25 * m) / n;
    if (inner > score) score = inner;
  }
  return score;
}

function postingLength(gramStart: Uint32Array, h: number): number {
  return (gramStart[h + 1] as number) - (gramStart[h] as number);
}

function fuzzy(
  index: SearchIndex,
  compact: string,
  full: string,
  accepts: (doc: number) => boolean,
  offer: (key: number, score: number) => void,
): void {
  const { gramStart, gramDocs, keyStart, keyCompact, keyFull } = index;
  const { gramCount, touched, buckets } = index.scratch;
  newGramSet(queryGrams);
  addGrams(compact, queryGrams);
  // rare trigrams first; very common ones (`ing`, `ion`) are skipped once enough rare ones count
  queryGrams.sort((a, b) => postingLength(gramStart, a) - postingLength(gramStart, b) || a - b);
  const common = Math.max(COMMON_GRAM_MIN, index.slugs.length / COMMON_GRAM_SHARE);
  let maxCount = 0;
  let used = 0;
  for (const h of queryGrams) {
    const length = postingLength(gramStart, h);
    if (length === 0) continue;
    if (used >= MIN_GRAMS && length > common) break;
    used++;
    const end = gramStart[h + 1] as number;
    for (let i = gramStart[h] as number; i < end; i++) {
      const d = gramDocs[i] as number;
      const c = (gramCount[d] as number) + 1;
      gramCount[d] = c;
      if (c === 1) touched.push(d);
      if (c > maxCount) maxCount = c;
    }
  }
  // best shared-trigram counts first, doc order inside a count: deterministic
  for (let c = 0; c <= maxCount; c++) (buckets[c] ??= []).length = 0;
  for (const d of touched) (buckets[gramCount[d] as number] as number[]).push(d);
  for (const d of touched) gramCount[d] = 0;
  touched.length = 0;

  let taken = 0;
  for (let c = maxCount; c >= 1 && taken < FUZZY_DOCS; c--) {
    const bucket = (buckets[c] as number[]).sort((a, b) => a - b);
    for (const d of bucket) {
      if (taken >= FUZZY_DOCS) break;
      if (!accepts(d)) continue;
      taken++;
      const end = keyStart[d + 1] as number;
      for (let k = keyStart[d] as number; k < end; k++) {
        const key = keyCompact[k] as string;
        let score = fuzzyScore(compact, key);
        // a misspelt suffix (`Holdigns`) is not stripped: compare the unstripped forms too
        const keyWhole = keyFull[k] as string;
        if (keyWhole !== key || full !== compact) score = Math.max(score, fuzzyScore(full, keyWhole));
        if (score >= MIN_SCORE) offer(k, score);
      }
    }
  }
}

function sweep(index: SearchIndex, compact: string, offer: (key: number, score: number) => void): void {
  const { forms, formKey, keyCompact } = index;
  const first = compact.charAt(0);
  const m = compact.length;
  const end = lowerBound(forms, String.fromCharCode(first.charCodeAt(0) + 1));
  let previous = -1;
  for (let i = lowerBound(forms, first); i < end; i++) {
    const key = formKey[i] as number;
    const form = forms[i] as string;
    // each key once, through its compact form
    if (key === previous || form !== keyCompact[key] || Math.abs(form.length - m) > 2) continue;
    previous = key;
    const score = fuzzyScore(compact, form);
    if (score >= MIN_SCORE) offer(key, score);
  }
}
