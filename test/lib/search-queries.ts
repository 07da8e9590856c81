/**
 * Labelled query set for the search quality bar: from a registry, queries of each kind
 * with the slug they must find. A query is kept only when its answer is
 * unambiguous: no other company has the same folded form (or, for reordered
 * words, the same words), and for prefix and typo queries no other company's key
 * is as close (same prefix, or an edit distance / prefix distance no larger).
 *
 * Ambiguity is decided with this file's own folding ({@link foldWords} below),
 * not the engine's, so that a mistake in the engine's normalisation shows up as a
 * miss instead of being hidden by the labels. Shared by the quality test and
 * `bench/search.ts` (tests import nothing from `bench/`).
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { mulberry32, slugify, type Rng } from '../../scripts/lib/registry-gen.ts';
import { ABBREVIATIONS } from '../../src/core/search/abbreviations.ts';

const TRANSLIT: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
/** Legal forms and group words a registry name may end with (the data contract's examples, written out here). */
const LEGAL_WORDS = new Set([
  'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'llc', 'llp', 'lp', 'plc', 'gmbh', 'ag',
  'kg', 'sa', 'sas', 'srl', 'spa', 'nv', 'bv', 'se', 'ab', 'as', 'oy', 'pty', 'pte', 'kk', 'group', 'holdings', 'holding',
]);

/** Independent folding: NFKD without marks, lowercase, `&` = `and`, apostrophes dropped, other punctuation a blank. */
function foldWords(text: string): string[] {
  const t = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øæœßłđðþı]/g, (c) => TRANSLIT[c] ?? c)
    .replace(/&/g, ' and ')
    .replace(/['’‘`´]/g, '');
  // `S.A.` / `J. P.` read as one word, as a person reads them
  return t
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .reduce<string[]>((out, w) => {
      const last = out.at(-1);
      if (w.length === 1 && last !== undefined && /^[a-z]+$/.test(last) && last.length === 1) out[out.length - 1] = last + w;
      else out.push(w);
      return out;
    }, []);
}

/** Trailing legal words (and a dangling `and`) and a leading `the` dropped, never all words. */
function stripLegal(words: string[]): string[] {
  let end = words.length;
  while (end > 1 && (LEGAL_WORDS.has(words[end - 1] as string) || words[end - 1] === 'and')) end--;
  const start = end > 1 && words[0] === 'the' ? 1 : 0;
  return words.slice(start, end);
}

/** The words a name must hold for a query: legal form at the end and `and` / `the` left out. */
function meaningful(text: string): string[] {
  return stripLegal(foldWords(text)).filter((w) => w !== 'and' && w !== 'the');
}

/** The abbreviation table both ways (the documented table is the definition of the equivalence, not the engine's code). */
const SPELLINGS = new Map<string, string[]>();
for (const [short, fulls] of Object.entries(ABBREVIATIONS)) {
  for (const full of fulls) {
    SPELLINGS.set(short, [...(SPELLINGS.get(short) ?? []), full]);
    SPELLINGS.set(full, [...(SPELLINGS.get(full) ?? []), short]);
  }
}

/** Spellings of a folded word that count as the word: itself and the table's other forms. */
function spellings(word: string): string[] {
  return [word, ...(SPELLINGS.get(word) ?? [])];
}

/** The words of a name without order: what a reordered query must share with one company alone. */
function wordSet(text: string): string {
  return [...stripLegal(foldWords(text))].sort().join(' ');
}

export const QUERY_KINDS = [
  'exact-name',
  'alias',
  'subsidiary',
  'lowercase',
  'typo-1',
  'typo-2',
  'prefix',
  'missing-suffix',
  'domain',
  'accents-stripped',
  'accents-added',
  'reordered',
  'words-around',
  'word-left-out',
  'abbreviation',
  'acronym',
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];
/** The kinds that read a query word by word: a word of the name left out, abbreviations, initials. */
export const WORD_KINDS: readonly QueryKind[] = ['word-left-out', 'abbreviation', 'acronym'];

export interface LabelledQuery {
  kind: QueryKind;
  query: string;
  /** Slug of the company the query must find. */
  expected: string;
}

/** Registry facts the generator needs (a `GenCompany` or a parsed `companies.csv` row). */
export interface RegistryCompany {
  slug: string;
  name: string;
  website: string;
  aliases: string[];
  subsidiaries?: string[];
}

/** The companies of a registry file (`data/companies.csv`'s columns). */
export function readRegistry(file: string): RegistryCompany[] {
  const rows = Papa.parse<Record<string, string>>(readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true }).data;
  return rows.map((r) => ({
    slug: r.slug?.trim() || slugify(r.name ?? ''),
    name: (r.name ?? '').trim(),
    website: (r.website ?? '').trim(),
    aliases: (r.aliases ?? '')
      .split('|')
      .map((a) => a.trim())
      .filter((a) => a.length > 0),
  }));
}

export interface QueryOptions {
  seed: number;
  /** Companies drawn per kind (each gives at most one query of that kind); default all. */
  perKind?: number;
}

const SUFFIX_RE = /,?\s+(?:Inc\.?|Ltd\.?|LLC|GmbH|AG|SA|S\.A\.|Group|Holdings|& Co|Corp\.?|plc)$/i;
/** Every legal form of the word-level kinds' names (`search-names.ts`). */
const LEGAL_TAIL_RE = /,?\s+(?:Inc\.?|Incorporated|Ltd\.?|Limited|LLC|GmbH|AG|SA|S\.A\.|Group|Holdings|& Co\.?|Co\.?|Company|Corp\.?|Corporation|plc)$/i;
const ACCENTS: Record<string, string[]> = { a: ['á', 'à', 'ä', 'å'], e: ['é', 'è', 'ë'], i: ['í', 'ï'], o: ['ó', 'ö'], u: ['ú', 'ü'], n: ['ñ'], c: ['ç'] };
const KEYBOARD = 'abcdefghijklmnopqrstuvwxyz';

/** Folded comparison forms of one text: words joined without blanks, with and without legal suffix. */
function formsOf(text: string): string[] {
  const words = foldWords(text);
  const full = words.join('');
  const stripped = stripLegal(words).join('');
  return full === stripped ? [full] : [full, stripped];
}

function trigrams(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= s.length; i++) out.push(s.slice(i, i + 3));
  return out;
}

function keysOf(c: RegistryCompany): string[] {
  const host = c.website.replace(/^www\./, '');
  const texts = [c.name, ...c.aliases, ...(c.subsidiaries ?? []), c.slug, host, host.split('.')[0] ?? ''];
  return [...new Set(texts.flatMap(formsOf).filter((f) => f.length > 0))];
}

let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Distance between `q` and `key` (full) and between `q` and the closest prefix of
 * `key`, optimal string alignment; both `Infinity` once every cell of a row is
 * beyond `max` + 1 (the + 1 keeps transpositions exact).
 */
function distances(q: string, key: string, max: number): { full: number; prefix: number } {
  const m = q.length;
  const n = key.length;
  if (rows[0]!.length <= n) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  let [back, prev, cur] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = q.charCodeAt(i - 1) === key.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j - 1]! + cost, prev[j]! + 1, cur[j - 1]! + 1);
      if (i > 1 && j > 1 && cost === 1 && q[i - 1] === key[j - 2] && q[i - 2] === key[j - 1]) d = Math.min(d, back[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max + 1) return { full: Infinity, prefix: Infinity };
    [back, prev, cur] = [prev, cur, back];
  }
  let prefix = Infinity;
  for (let j = 1; j <= n; j++) prefix = Math.min(prefix, prev[j]!);
  return { full: prev[n]!, prefix };
}

function typo(rng: Rng, text: string): string {
  const letters: number[] = [];
  for (let i = 1; i < text.length; i++) if (/[a-z]/i.test(text[i] as string)) letters.push(i);
  if (letters.length === 0) return text;
  const at = letters[Math.floor(rng() * letters.length)] as number;
  const op = Math.floor(rng() * 4);
  const other = KEYBOARD[Math.floor(rng() * KEYBOARD.length)] as string;
  if (op === 0) return text.slice(0, at) + other + text.slice(at + 1);
  if (op === 1) return text.slice(0, at) + text.slice(at + 1);
  if (op === 2) return text.slice(0, at) + other + text.slice(at);
  if (at + 1 < text.length && /[a-z]/i.test(text[at + 1] as string)) return text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2);
  return text.slice(0, at) + other + text.slice(at + 1);
}

function addAccent(rng: Rng, text: string): string | null {
  const spots: number[] = [];
  for (let i = 0; i < text.length; i++) if (ACCENTS[(text[i] as string).toLowerCase()] && text[i] === (text[i] as string).toLowerCase()) spots.push(i);
  if (spots.length === 0) return null;
  const at = spots[Math.floor(rng() * spots.length)] as number;
  const choices = ACCENTS[text[at] as string] as string[];
  return text.slice(0, at) + choices[Math.floor(rng() * choices.length)] + text.slice(at + 1);
}

function pickOne<T>(rng: Rng, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(rng() * items.length)];
}

/**
 * Generates the labelled set. Deterministic for a registry and seed.
 * @example generateQueries(generateRegistry({ companies: 1000, seed: 1 }), { seed: 7 })
 */
export function generateQueries(registry: readonly RegistryCompany[], opts: QueryOptions): LabelledQuery[] {
  const rng = mulberry32(opts.seed);
  const owners = new Map<string, Set<string>>();
  for (const c of registry) {
    for (const f of keysOf(c)) {
      let set = owners.get(f);
      if (!set) owners.set(f, (set = new Set()));
      set.add(c.slug);
    }
  }
  const sortedForms = [...owners.keys()].sort();
  // trigram -> forms holding it, to find the forms within edit distance d of a typo query
  // (they share all but 4d of its distinct trigrams: one edit, a transposition included, breaks at most four)
  const gramForms = new Map<string, number[]>();
  sortedForms.forEach((form, id) => {
    for (const g of new Set(trigrams(form))) {
      const list = gramForms.get(g);
      if (list) list.push(id);
      else gramForms.set(g, [id]);
    }
  });
  const near = (q: string, d: number): string[] => {
    const grams = new Set(trigrams(q));
    const need = grams.size - 4 * d;
    if (need <= 0) return sortedForms;
    const count = new Map<number, number>();
    for (const g of grams) for (const id of gramForms.get(g) ?? []) count.set(id, (count.get(id) ?? 0) + 1);
    const out: string[] = [];
    for (const [id, c] of count) if (c >= need) out.push(sortedForms[id] as string);
    return out;
  };

  /** True when the query's folded forms belong to the expected company alone (or to nobody). */
  const uniqueForms = (query: string, slug: string): boolean =>
    formsOf(query).every((f) => [...(owners.get(f) ?? [])].every((s) => s === slug));

  const prefixOwners = (prefix: string): Set<string> => {
    const out = new Set<string>();
    let lo = 0;
    let hi = sortedForms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sortedForms[mid] as string) < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < sortedForms.length && (sortedForms[i] as string).startsWith(prefix); i++) {
      for (const s of owners.get(sortedForms[i] as string) ?? []) out.add(s);
    }
    return out;
  };

  /** Typo query: the expected company is strictly closer than any other, counting prefixes. */
  const typoUnambiguous = (query: string, c: RegistryCompany): boolean => {
    const q = formsOf(query).at(-1) ?? '';
    if (q.length < 4) return false;
    let own = Infinity;
    for (const key of keysOf(c)) own = Math.min(own, distances(q, key, 3).full);
    if (own === 0 || own === Infinity) return false;
    for (const form of near(q, own)) {
      if ([...(owners.get(form) ?? [])].every((s) => s === c.slug)) continue;
      const d = distances(q, form, own);
      if (d.full <= own || d.prefix <= own) return false;
    }
    return true;
  };

  // word multiset -> companies with a name or alias of exactly those words
  const wordOwners = new Map<string, Set<string>>();
  for (const c of registry) {
    for (const text of [c.name, ...c.aliases, ...(c.subsidiaries ?? [])]) {
      const w = wordSet(text);
      let set = wordOwners.get(w);
      if (!set) wordOwners.set(w, (set = new Set()));
      set.add(c.slug);
    }
  }

  // folded word -> companies with a name or alias holding it; and initials -> companies
  const wordCompanies = new Map<string, Set<string>>();
  const texts = new Map<string, string[][]>();
  const initialsOwners = new Map<string, Set<string>>();
  for (const c of registry) {
    const own = [c.name, ...c.aliases, ...(c.subsidiaries ?? [])].map(foldWords);
    texts.set(c.slug, own);
    for (const words of own) for (const w of words) (wordCompanies.get(w) ?? wordCompanies.set(w, new Set()).get(w))!.add(c.slug);
    const initials = meaningful(c.name).map((w) => w.charAt(0)).join('');
    (initialsOwners.get(initials) ?? initialsOwners.set(initials, new Set()).get(initials))!.add(c.slug);
  }
  /** Companies with one name or alias holding every meaningful word of the query (table spellings count as the word). */
  const holders = (query: string): string[] => {
    const wanted = meaningful(query);
    if (wanted.length === 0) return [];
    const candidates = new Set(spellings(wanted[0] as string).flatMap((w) => [...(wordCompanies.get(w) ?? [])]));
    return [...candidates].filter((slug) => (texts.get(slug) ?? []).some((words) => wanted.every((w) => spellings(w).some((x) => words.includes(x)))));
  };

  const out: LabelledQuery[] = [];
  const companies = [...registry].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  for (const kind of QUERY_KINDS) {
    const drawn = [...companies];
    for (let i = drawn.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [drawn[i], drawn[j]] = [drawn[j] as RegistryCompany, drawn[i] as RegistryCompany];
    }
    let made = 0;
    for (const c of drawn) {
      if (opts.perKind !== undefined && made >= opts.perKind) break;
      const query = makeQuery(kind, c, rng);
      if (query === null || query.trim() === '') continue;
      let ok = uniqueForms(query, c.slug);
      if (ok && kind === 'prefix') ok = [...prefixOwners(formsOf(query)[0] as string)].every((s) => s === c.slug);
      if (ok && (kind === 'typo-1' || kind === 'typo-2')) ok = typoUnambiguous(query, c);
      if (ok && kind === 'reordered') ok = [...(wordOwners.get(wordSet(query)) ?? [])].every((s) => s === c.slug);
      if (ok && kind === 'words-around') {
        // the name inside must be the company's alone, and the whole query nobody's name
        ok = uniqueForms(c.name, c.slug) && uniqueForms(query, c.slug) && [...(wordOwners.get(wordSet(c.name)) ?? [])].every((s) => s === c.slug);
      }
      if (ok && (kind === 'word-left-out' || kind === 'abbreviation')) {
        // the one company holding every word, and the query not a whole name or alias of anybody
        const h = holders(query);
        ok = h.length === 1 && h[0] === c.slug && formsOf(query).every((f) => !owners.has(f));
      }
      if (ok && kind === 'acronym') {
        // one company's initials, the query nobody's name, alias or start of one
        const folded = foldWords(query).join('');
        ok = [...(initialsOwners.get(folded) ?? [])].join() === c.slug && !owners.has(folded) && prefixOwners(folded).size === 0;
      }
      if (!ok) continue;
      out.push({ kind, query, expected: c.slug });
      made++;
    }
  }
  return out;
}

function makeQuery(kind: QueryKind, c: RegistryCompany, rng: Rng): string | null {
  switch (kind) {
    case 'exact-name':
      return c.name;
    case 'alias':
      return pickOne(rng, c.aliases) ?? null;
    case 'subsidiary':
      return pickOne(rng, c.subsidiaries ?? []) ?? null;
    case 'lowercase':
      return c.name.toLowerCase() === c.name ? null : c.name.toLowerCase();
    case 'typo-1':
      return typo(rng, c.name);
    case 'typo-2':
      return c.name.length < 8 ? null : typo(rng, typo(rng, c.name));
    case 'prefix': {
      const min = Math.min(4, c.name.length);
      const cut = min + Math.floor(rng() * Math.max(1, Math.ceil(c.name.length * 0.7) - min));
      const prefix = c.name.slice(0, cut).trimEnd();
      return prefix.length >= min && prefix.length < c.name.length ? prefix : null;
    }
    case 'missing-suffix': {
      const base = c.name.replace(SUFFIX_RE, '');
      return base !== c.name && base.length > 0 ? base : null;
    }
    case 'domain': {
      const host = c.website.replace(/^www\./, '');
      const style = Math.floor(rng() * 4);
      if (style === 0) return host;
      if (style === 1) return `www.${host}`;
      if (style === 2) return `https://${host}/careers`;
      return host.split('.')[0] ?? null;
    }
    case 'accents-stripped': {
      const plain = c.name.normalize('NFKD').replace(/\p{M}+/gu, '');
      return plain === c.name ? null : plain;
    }
    case 'accents-added':
      return /[^\x20-\x7e]/.test(c.name) ? null : addAccent(rng, c.name);
    case 'reordered': {
      const words = c.name.replace(SUFFIX_RE, '').split(/\s+/).filter((w) => w.length > 0);
      if (words.length < 2) return null;
      // a rotation (never the identity), sometimes with the suffix kept at the end
      const by = 1 + Math.floor(rng() * (words.length - 1));
      const rotated = [...words.slice(by), ...words.slice(0, by)].join(' ');
      const suffix = c.name.match(SUFFIX_RE)?.[0] ?? '';
      return rng() < 0.3 && suffix ? rotated + suffix : rng() < 0.5 ? rotated.toLowerCase() : rotated;
    }
    case 'words-around': {
      const base = rng() < 0.4 ? c.name.replace(SUFFIX_RE, '') : c.name;
      const name = rng() < 0.5 ? base.toLowerCase() : base;
      const host = c.website.replace(/^www\./, '');
      const forms = [
        `jobs at ${name}`,
        `careers at ${name}`,
        `${name} careers`,
        `${name} jobs`,
        `${name} reviews`,
        `${name} salaries`,
        `the ${name}`,
        `working at ${name}`,
        `${name} careers page`,
        `https://careers.${host}/jobs`,
        `jobs.${host}`,
        `jobs at ${host}`,
      ];
      return forms[Math.floor(rng() * forms.length)] as string;
    }
    case 'word-left-out': {
      // a word other than the first left out of a name of three words or more, legal form kept now and then
      const suffix = c.name.match(LEGAL_TAIL_RE)?.[0] ?? '';
      const words = c.name.slice(0, c.name.length - suffix.length).split(/\s+/).filter((w) => w.length > 0 && w !== '&');
      if (words.length < 3) return null;
      const at = 1 + Math.floor(rng() * (words.length - 1));
      const query = words.filter((_, i) => i !== at).join(' ') + (rng() < 0.3 ? suffix : '');
      return rng() < 0.3 ? query.toLowerCase() : query;
    }
    case 'abbreviation': {
      // every word of the table in the name respelled (full word for abbreviation and back); the legal form kept or not
      const suffix = c.name.match(LEGAL_TAIL_RE)?.[0] ?? '';
      const words = c.name.slice(0, c.name.length - suffix.length).split(/\s+/).filter((w) => w.length > 0);
      let changed = false;
      const respelled = words.map((w) => {
        const folded = foldWords(w).join('');
        const others = SPELLINGS.get(folded);
        if (!others) return w;
        changed = true;
        const other = others[Math.floor(rng() * others.length)] as string;
        const shown = other === 'intl' && rng() < 0.5 ? "int'l" : other === 'st' && rng() < 0.5 ? 'st.' : other;
        return shown.charAt(0).toUpperCase() + shown.slice(1);
      });
      if (!changed) return null;
      const query = respelled.join(' ') + (rng() < 0.5 ? suffix : '');
      return rng() < 0.3 ? query.toLowerCase() : query;
    }
    case 'acronym': {
      const initials = meaningful(c.name).map((w) => w.charAt(0)).join('');
      if (initials.length < 2 || initials.length > 5) return null;
      const style = rng();
      return style < 0.6 ? initials.toUpperCase() : style < 0.85 ? initials : initials.toUpperCase().split('').join('.') + '.';
    }
  }
}
