/**
 * Search normalisation: the folded forms the index and the query are compared in.
 * Pure (no `node:*`): it runs in the build, the Worker and the browser.
 */

// Letters that NFKD does not split into a base letter plus a mark.
const LETTERS: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ŋ: 'n', ſ: 's' };
const LETTER_RE = /[øæœßłđðþıħŧŋſ]/g;
const MARKS_RE = /\p{M}+/gu;
const APOSTROPHES_RE = /['’‘`´]/g;
const NON_WORD_RE = /[^\p{L}\p{N}]+/u;

/**
 * Trailing words dropped by {@link stripLegal}: legal forms and the group words the
 * registry uses around a brand. Single-letter abbreviations are already merged
 * (`S.A.` -> `sa`) when this runs.
 */
const LEGAL = new Set([
  'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'cos', 'ltd', 'limited', 'llc', 'llp', 'lp', 'plc',
  'gmbh', 'mbh', 'ag', 'kg', 'kgaa', 'sa', 'sas', 'sarl', 'srl', 'spa', 'nv', 'bv', 'se', 'ab', 'asa', 'as', 'oy',
  'oyj', 'pty', 'pte', 'bhd', 'sdn', 'kk', 'group', 'holdings', 'holding',
]);

/**
 * Folds text into space-separated words: diacritics removed (NFKD), lowercase,
 * `&` read as `and`, apostrophes dropped, other punctuation a blank, blanks
 * collapsed, and runs of single letters joined (`J. P.` -> `jp`, `S.A.` -> `sa`).
 * @example fold('  Société Générale, S.A. ') // 'societe generale sa'
 * @example fold('Procter & Gamble') // 'procter and gamble'
 */
export function fold(text: string): string {
  return foldWords(text).join(' ');
}

/**
 * {@link fold} as a word list.
 * @example foldWords("McDonald's Corp.") // ['mcdonalds', 'corp']
 */
export function foldWords(text: string): string[] {
  const t = text.toLowerCase();
  const raw: string[] = [];
  if (!splitAscii(t, raw)) {
    raw.length = 0;
    for (const w of t
      .normalize('NFKD')
      .replace(MARKS_RE, '')
      .toLowerCase()
      .replace(LETTER_RE, (c) => LETTERS[c] ?? c)
      .replace(/&/g, ' and ')
      .replace(APOSTROPHES_RE, '')
      .split(NON_WORD_RE)) {
      if (w.length > 0) raw.push(w);
    }
  }
  return joinLetters(raw);
}

/** Fast path for plain ASCII without apostrophes; false when it does not apply. */
function splitAscii(t: string, out: string[]): boolean {
  let start = -1;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
      continue;
    }
    if (c > 126 || c === 39 || c === 96) return false;
    if (start >= 0) {
      out.push(t.slice(start, i));
      start = -1;
    }
    if (c === 38) out.push('and');
  }
  if (start >= 0) out.push(t.slice(start));
  return true;
}

function joinLetters(raw: string[]): string[] {
  let single = false;
  for (const w of raw) if (w.length === 1 && !isDigit(w)) single = true;
  if (!single) return raw;
  const words: string[] = [];
  let run = '';
  for (const w of raw) {
    if (w.length === 1 && !isDigit(w)) {
      run += w;
      continue;
    }
    if (run) {
      words.push(run);
      run = '';
    }
    words.push(w);
  }
  if (run) words.push(run);
  return words;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/**
 * Drops trailing legal-form words (and a dangling `and`, as in `& Co`) and a
 * leading `the`, never emptying the list. Returns `words` itself when nothing goes.
 * @example stripLegal(['kestrel', 'aerospace', 'group']) // ['kestrel', 'aerospace']
 * @example stripLegal(['smith', 'and', 'co']) // ['smith']
 */
export function stripLegal(words: readonly string[]): readonly string[] {
  const [start, end] = legalSpan(words);
  return start === 0 && end === words.length ? words : words.slice(start, end);
}

/** Where the words {@link stripLegal} keeps start and end in `words`. */
export function legalSpan(words: readonly string[]): [number, number] {
  let end = words.length;
  while (end > 1 && (LEGAL.has(words[end - 1] as string) || words[end - 1] === 'and')) end--;
  return [end > 1 && words[0] === 'the' ? 1 : 0, end];
}

/**
 * A query that looks like a URL or a domain is cut to its host
 * (`https://www.kestrelaero.example/jobs` -> `kestrelaero.example`); anything else
 * is returned as is.
 * @example hostOf('https://www.kestrelaero.example/jobs') // 'kestrelaero.example'
 */
export function hostOf(text: string): string {
  const t = text.trim();
  if (!t.includes('.') || /\s/.test(t)) return t;
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:www\.)?([^/?#:]+)/i.exec(t);
  return m?.[1] ?? t;
}

/**
 * First label of a website's host, the name a domain is usually searched by.
 * @example domainLabel('www.kestrelaero.example') // 'kestrelaero'
 */
export function domainLabel(website: string): string {
  const host = hostOf(website).toLowerCase();
  const dot = host.indexOf('.');
  return dot > 0 ? host.slice(0, dot) : host;
}

/**
 * Words people type around a company name when they look for it as an employer
 * (`jobs at …`, `… careers`, `… reviews`). {@link stripNoise} drops them from
 * either end of a query, never from the middle (`Bank of America` keeps `of`).
 */
const NOISE = new Set([
  'the', 'a', 'an', 'at', 'for', 'with', 'in', 'to', 'of', 'on', 'about',
  'job', 'jobs', 'career', 'careers', 'vacancy', 'vacancies', 'opening', 'openings', 'hiring', 'apply',
  'internship', 'internships', 'position', 'positions', 'role', 'roles', 'employment', 'employer',
  'review', 'reviews', 'rating', 'ratings', 'salary', 'salaries', 'pay', 'benefits', 'culture', 'interview', 'interviews',
  'working', 'work', 'page', 'site', 'website', 'homepage', 'official', 'hq', 'headquarters', 'office', 'offices', 'login',
]);

/**
 * Drops {@link NOISE} words from both ends of a folded query; the list itself when
 * nothing goes, and never empties it (a company may be called `Careers`).
 * @example stripNoise(['jobs', 'at', 'quill', 'works']) // ['quill', 'works']
 * @example stripNoise(['quill', 'works', 'careers']) // ['quill', 'works']
 */
export function stripNoise(words: readonly string[]): readonly string[] {
  let start = 0;
  let end = words.length;
  while (end - start > 1 && NOISE.has(words[start] as string)) start++;
  while (end - start > 1 && NOISE.has(words[end - 1] as string)) end--;
  return start === 0 && end === words.length ? words : words.slice(start, end);
}

/** Is this word a {@link NOISE} word? (A host label `careers` or `jobs` is skipped too.) */
export function isNoise(word: string): boolean {
  return NOISE.has(word) || word === 'www';
}

const HOST_TOKEN_RE = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[\p{L}\p{N}-]+\.)+[a-z]{2,}(?:[:/?#].*)?$/iu;

/**
 * Splits a query into the hosts it names (a URL or a domain typed among words:
 * `jobs at careers.quillworks.example/open`) and the remaining words.
 * @example splitHosts('jobs at quillworks.example') // { hosts: ['quillworks.example'], rest: 'jobs at' }
 */
export function splitHosts(text: string): { hosts: string[]; rest: string } {
  const t = text.trim();
  if (!t.includes('.')) return { hosts: [], rest: t };
  const hosts: string[] = [];
  const rest: string[] = [];
  for (const token of t.split(/\s+/)) {
    if (HOST_TOKEN_RE.test(token) && /[\p{L}\p{N}-]{2,}\./u.test(token)) hosts.push(hostOf(token).toLowerCase());
    else rest.push(token);
  }
  return { hosts, rest: rest.join(' ') };
}
