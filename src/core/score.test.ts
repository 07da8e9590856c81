import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MonthAccumulator } from './aggregate.ts';
import { IssueList } from './data-error.ts';
import { buildRegistry, type Registry } from './registry.ts';
import { COMPANY_COLUMNS, COUNTRY_COLUMNS, INDUSTRY_COLUMNS } from './schemas/rows.ts';
import { attachDetails, compareScore, packDetails, rankOrder, round1, scoreMonth, universes } from './score.ts';

describe('round1: 100 * num / den, half-up to one decimal', () => {
  it.each([
    [1, 16, 6.3], // 6.25
    [3, 16, 18.8], // 18.75
    [1, 3, 33.3],
    [2, 3, 66.7],
    [1, 8, 12.5],
    [0, 7, 0],
    [7, 7, 100],
    [1, 2000, 0.1], // 0.05 exactly rounds up
    [3, 2000, 0.2], // 0.15: binary floating point would give 0.1
  ])('%i/%i -> %d', (n, d, r) => expect(round1(n, d)).toBe(r));
});

describe('compareScore compares fractions exactly', () => {
  it('sees equal fractions with different denominators as equal', () => {
    expect(compareScore(1, 3, 2, 6)).toBe(0);
    expect(compareScore(1, 4, 3, 16)).toBeGreaterThan(0);
    expect(compareScore(3, 16, 1, 4)).toBeLessThan(0);
  });
});

// ---------------------------------------------------------------------------------------------
// data-and-rules §2 (scoring) and §3 (ranking) on one hand-made month. Every expected figure is
// worked out by hand below from the rule, never by calling the code under test.
// ---------------------------------------------------------------------------------------------

/** A registry from `slug,name,industries,countries,aliases,tracked_since` rows ('|' lists). */
function registry(rows: string[][]): Registry {
  const issues = new IssueList();
  const t = (file: string, header: readonly string[], lines: string[][]) => ({
    file,
    header: [...header],
    rows: lines.map((cells, i) => ({ line: i + 2, record: Object.fromEntries(header.map((h, j) => [h, cells[j] ?? ''])) })),
  });
  const reg = buildRegistry(
    {
      countries: t('countries.csv', COUNTRY_COLUMNS, [['us', 'United States', ''], ['gb', 'United Kingdom', '']]),
      industries: t('industries.csv', INDUSTRY_COLUMNS, [['Aerospace'], ['Oil & Gas']]),
      companies: t('companies.csv', COMPANY_COLUMNS, rows.map(([slug, name, inds, ctys, aliases, since]) => [slug!, name!, `${slug}.example`, inds!, ctys!, aliases!, since!])),
    },
    issues,
  );
  issues.throwIfAny();
  return reg;
}

function month(reg: Registry, m: string, lines: string[]) {
  const issues = new IssueList();
  const acc = new MonthAccumulator(`mentions/${m}.csv`, m, reg, issues);
  lines.forEach((l, i) => acc.add(l.split(',').map((f) => f.trim()), i + 2));
  issues.throwIfAny();
  return scoreMonth(reg, acc.columns(), universes(reg), true);
}

const REG = registry([
  ['alpha-air', 'Alpha Air', 'Aerospace', 'us|gb', 'Alpha', ''],
  ['beta-jets', 'Beta Jets', 'Aerospace', 'us', '', ''],
  ['corvid', 'Corvid', 'Aerospace|Oil & Gas', 'us', '', ''],
  ['delta-wing', 'Delta Wing', 'Aerospace', 'us', '', '2026-05'], // not tracked yet in 2026-04
  ['echo', 'Echo', 'Oil & Gas', 'us', '', ''],
  ['foxtrot', 'Foxtrot', 'Aerospace', 'us', '', '2026-04'], // tracked from this very month
  ['golf', 'Golf', 'Aerospace|Oil & Gas', 'us', '', ''],
]);

// answer_id,collected_at,model,country,industry,theme,question_id,company
const APRIL_LINES = [
  // (Aerospace, us): K = {(ChatGPT, Pay), (ChatGPT, Culture), (Perplexity, Pay), (Google Gemini, Culture)}, |K| = 4.
  'a1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,Alpha Air',
  'a1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,Beta Jets',
  'a2,2026-04-01,ChatGPT,us,Aerospace,Culture,q2,alpha', // alias, other case
  'a3,2026-04-02,Perplexity,us,Aerospace,Pay,q1,Beta Jets',
  'a3,2026-04-02,Perplexity,us,Aerospace,Pay,q1,Delta Wing', // outside U (tracked_since 2026-05)
  'a4,2026-04-02,Perplexity,us,Aerospace,Pay,q1,BETA JETS',
  'a5,2026-04-03,Google Gemini,us,Aerospace,Culture,q2,', // names nobody, still a combination
  'a6,2026-04-03,Claude,us,Aerospace,Pay,q1,Corvid', // research model: never counts
  'a8,2026-04-03,Claude,us,Aerospace,Leadership,q4,', // research: no (…, Leadership) combination
  'a7,2026-04-03,ChatGPT,us,Aerospace,Pay,q1,Orbital Works', // resolves to nothing
  // (Oil & Gas, us): K = {(Perplexity, Safety), (Perplexity, Pay), (ChatGPT, Safety)}, |K| = 3.
  'o1,2026-04-04,Perplexity,us,Oil & Gas,Safety,q3,Corvid',
  'o2,2026-04-04,Perplexity,us,Oil & Gas,Pay,q1,',
  'o3,2026-04-04,ChatGPT,us,Oil & Gas,Safety,q3,',
  // (Aerospace, gb): K = {(ChatGPT, Pay)}, |K| = 1.
  'g1,2026-04-05,ChatGPT,gb,Aerospace,Pay,q1,Alpha Air',
];
const APRIL = month(REG, '2026-04', APRIL_LINES);

const slugs = (order: Int32Array) => [...order].map((i) => REG.companies[i]!.slug);
const board = (key: string) => {
  const b = APRIL.boards.get(key)!;
  return { k: b.k, rows: slugs(b.order).map((s, p) => [s, b.hits[p], b.mentions[p]]) };
};

describe('§2 scoring of one (month, industry, country)', () => {
  it('a leaderboard for each (industry, country) with combinations, none for the others', () => {
    // (Oil & Gas, gb) has no rows, so no K and no data.
    expect([...APRIL.boards.keys()]).toEqual(['gb/aerospace', 'us/aerospace', 'us/oil-gas']);
  });

  it('visibilityScore = hits / |K|, mentionCount = distinct scored answers; the universe U respects tracked_since', () => {
    // U(Aerospace, us) = Alpha, Beta, Corvid, Foxtrot (tracked_since = m counts), Golf; Delta Wing (2026-05) is out.
    // Alpha Air: (ChatGPT, Pay) by a1, (ChatGPT, Culture) by a2 -> 2 hits of 4, answers a1, a2 -> 2.
    // Beta Jets: (ChatGPT, Pay) by a1, (Perplexity, Pay) by a3 and a4 -> 2 hits of 4, answers a1, a3, a4 -> 3.
    // Corvid: named only by Claude (research) -> 0, 0. Foxtrot, Golf: never named -> 0, 0.
    expect(board('us/aerospace')).toEqual({
      k: 4,
      rows: [
        ['beta-jets', 2, 3], // 50 % like Alpha, more mentions
        ['alpha-air', 2, 2],
        ['corvid', 0, 0], // zeros in name order: Corvid < Foxtrot < Golf
        ['foxtrot', 0, 0],
        ['golf', 0, 0],
      ],
    });
    // Corvid 1 of 3 (o1); Echo and Golf never named: name order.
    expect(board('us/oil-gas')).toEqual({ k: 3, rows: [['corvid', 1, 1], ['echo', 0, 0], ['golf', 0, 0]] });
    expect(board('gb/aerospace')).toEqual({ k: 1, rows: [['alpha-air', 1, 1]] });
    // Scores as shown: 2/4 -> 50, 1/3 -> 33.3 (half-up to one decimal).
    expect([round1(2, 4), round1(1, 3)]).toEqual([50, 33.3]);
  });

  it('counts unresolved names and out-of-universe mentions for the build report, by answers', () => {
    // "Orbital Works" named in a7; Delta Wing named in a3 while outside U. Claude's "Corvid" is not counted.
    expect([...APRIL.unresolved]).toEqual([['Orbital Works', 1]]);
    expect(APRIL.outOfUniverse).toBe(1);
  });

  it('modelScores: themes the model named x in / themes the model was asked, null for a model with no row', () => {
    const detail = (key: string, slug: string) => APRIL.boards.get(key)!.detail!.get(REG.companyBySlug.get(slug)!.idx)!;
    // (Aerospace, us): ChatGPT asked {Pay, Culture}, Perplexity {Pay}, Google Gemini {Culture}.
    // Beta: ChatGPT named it in Pay (1/2), Perplexity in Pay (1/1), Gemini never (0/1).
    expect(detail('us/aerospace', 'beta-jets').modelScores).toEqual({ chatgpt: 50, googleAi: 0, perplexity: 100 });
    // Alpha: ChatGPT in Pay and Culture (2/2), the others never.
    expect(detail('us/aerospace', 'alpha-air').modelScores).toEqual({ chatgpt: 100, googleAi: 0, perplexity: 0 });
    // Never named, but every model was asked: 0, not null.
    expect(detail('us/aerospace', 'golf').modelScores).toEqual({ chatgpt: 0, googleAi: 0, perplexity: 0 });
    // (Aerospace, gb): only ChatGPT was asked.
    expect(detail('gb/aerospace', 'alpha-air').modelScores).toEqual({ chatgpt: 100, googleAi: null, perplexity: null });
    // (Oil & Gas, us): Perplexity asked {Safety, Pay}, named Corvid in Safety -> 1/2; ChatGPT asked {Safety}, never -> 0/1.
    expect(detail('us/oil-gas', 'corvid').modelScores).toEqual({ chatgpt: 0, googleAi: null, perplexity: 50 });
  });

  it('themes: score = scored models that named x / scored models asked; rank by score, theme mentions, name', () => {
    const themes = (slug: string) => APRIL.boards.get('us/aerospace')!.detail!.get(REG.companyBySlug.get(slug)!.idx)!.themes;
    // Pay was asked of ChatGPT and Perplexity (2). Beta: both named it (2/2 = 100); Alpha: ChatGPT (1/2 = 50).
    // Culture was asked of ChatGPT and Google Gemini (2). Alpha: ChatGPT (1/2 = 50); Beta: nobody (0).
    // Culture ranks: Alpha 1; then the zeros (no Culture mentions) by name: Beta 2, Corvid 3, Foxtrot 4, Golf 5.
    expect(themes('beta-jets')).toEqual({ Culture: { rank: 2, score: 0 }, Pay: { rank: 1, score: 100 } });
    expect(themes('alpha-air')).toEqual({ Culture: { rank: 1, score: 50 }, Pay: { rank: 2, score: 50 } });
    expect(themes('golf')).toEqual({ Culture: { rank: 5, score: 0 }, Pay: { rank: 5, score: 0 } });
    // Only the themes of K: Claude's "Leadership" is not one.
    expect(Object.keys(themes('corvid'))).toEqual(['Culture', 'Pay']);
  });

  it('a theme tie on score goes to the theme mention count, not the overall one', () => {
    // (Aerospace, us), theme Pay, both models name both companies -> 100 each.
    // P has 2 Pay answers (p1, p2) but 3 answers overall; Q has 3 Pay answers (p1, p2, p3) and 3 overall.
    const reg = registry([
      ['p', 'P', 'Aerospace', 'us', '', ''],
      ['q', 'Q', 'Aerospace', 'us', '', ''],
    ]);
    const r = month(reg, '2026-04', [
      'p1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,P',
      'p1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,Q',
      'p2,2026-04-01,Perplexity,us,Aerospace,Pay,q1,P',
      'p2,2026-04-01,Perplexity,us,Aerospace,Pay,q1,Q',
      'p3,2026-04-01,Perplexity,us,Aerospace,Pay,q1,Q',
      'c1,2026-04-01,ChatGPT,us,Aerospace,Culture,q2,P',
    ]);
    const b = r.boards.get('us/aerospace')!;
    // Overall: P hits 3 of 3 combos (100), Q 2 of 3 -> P first.
    expect([...b.order].map((i) => reg.companies[i]!.slug)).toEqual(['p', 'q']);
    const pay = (slug: string) => b.detail!.get(reg.companyBySlug.get(slug)!.idx)!.themes.Pay;
    // Pay: both 100; Q has 3 Pay mentions, P 2 -> Q 1, P 2.
    expect([pay('q'), pay('p')]).toEqual([{ rank: 1, score: 100 }, { rank: 2, score: 100 }]);
  });
});

describe('§3 overall leaderboard: each company once, by its best entry', () => {
  it('orders by the best entry\'s score, mentions, then name; a tie between entries goes to the industry name', () => {
    // Best entries in us: Beta 2/4 (3 mentions), Alpha 2/4 (2), Corvid Oil & Gas 1/3 (better than its Aerospace 0/4),
    // then the zeros by name: Echo (Oil & Gas), Foxtrot (Aerospace), Golf (0 in both: "Aerospace" < "Oil & Gas").
    const us = APRIL.overall.get('us')!;
    expect(slugs(us.order)).toEqual(['beta-jets', 'alpha-air', 'corvid', 'echo', 'foxtrot', 'golf']);
    expect(us.board.map((b) => b.industry)).toEqual(['Aerospace', 'Aerospace', 'Oil & Gas', 'Oil & Gas', 'Aerospace', 'Aerospace']);
    // Position on that board: Beta 0, Alpha 1 on Aerospace; Corvid 0, Echo 1 on Oil & Gas; Foxtrot 3, Golf 4 on Aerospace.
    expect([...us.pos]).toEqual([0, 1, 0, 1, 3, 4]);
    expect(slugs(APRIL.overall.get('gb')!.order)).toEqual(['alpha-air']);
  });

  it('compares scores as exact fractions: 1/2 and 2/4 tie and go to mentions', () => {
    // X: 1 hit of 2 on Aerospace (1 mention); Y: 2 hits of 4 on Oil & Gas (2 mentions). Equal scores -> Y first.
    const reg = registry([
      ['x', 'X', 'Aerospace', 'us', '', ''],
      ['y', 'Y', 'Oil & Gas', 'us', '', ''],
    ]);
    const r = month(reg, '2026-04', [
      'x1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,X',
      'x2,2026-04-01,ChatGPT,us,Aerospace,Culture,q1,',
      'y1,2026-04-01,ChatGPT,us,Oil & Gas,Pay,q1,Y',
      'y2,2026-04-01,ChatGPT,us,Oil & Gas,Culture,q1,Y',
      'y3,2026-04-01,Perplexity,us,Oil & Gas,Pay,q1,',
      'y4,2026-04-01,Perplexity,us,Oil & Gas,Culture,q1,',
    ]);
    expect([...r.overall.get('us')!.order].map((i) => reg.companies[i]!.slug)).toEqual(['y', 'x']);
  });
});

describe('board details packed for another thread (packDetails, attachDetails)', () => {
  it('give every entry of every board the details it had, after a structured clone, and leave none in the packed result', () => {
    const scored = month(REG, '2026-04', APRIL_LINES);
    const before = new Map([...scored.boards].map(([key, b]) => [key, [...b.order].map((idx) => b.detail!.values(idx))]));
    expect([...before.values()].flat().length).toBeGreaterThan(5);
    const packed = packDetails(scored);
    for (const b of scored.boards.values()) expect(b.detail).toBeUndefined();
    // as a worker thread receives them: the result cloned, the buffer handed over
    const { result, details } = structuredClone({ result: scored, details: packed }, { transfer: [packed.counts.buffer] });
    expect(packed.counts.length).toBe(0);
    const back = attachDetails(result, details);
    for (const [key, b] of back.boards) {
      expect([...b.order].map((idx) => b.detail!.values(idx))).toEqual(before.get(key));
      expect(b.detail!.values(-1)).toBeUndefined();
    }
    // the overall boards still name the result's own boards
    for (const o of back.overall.values()) for (const b of o.board) expect(back.boards.get(`${b.country}/${b.industrySlug}`)).toBe(b);
  });

  it('refuse a result without details, and details of other boards: another number of them, or of entries', () => {
    const scored = month(REG, '2026-04', APRIL_LINES);
    const packed = packDetails(scored);
    expect(() => packDetails(scored)).toThrow(/has no details to pack/);
    const fewer = { ...scored, boards: new Map([...scored.boards].slice(1)) };
    expect(() => attachDetails(fewer, packed)).toThrow(/packed details of 3 boards for 2/);
    // one entry less on the first board: the packed integers no longer line up with the boards
    const [head, ...rest] = [...scored.boards];
    const [key, first] = head!;
    const shorter = { ...scored, boards: new Map([[key, { ...first, order: first.order.subarray(1) }], ...rest]) };
    expect(() => attachDetails(shorter, packed)).toThrow(/packed details of \d+ integers for boards of \d+/);
  });
});

describe('rankOrder: a desc, b desc, name order asc', () => {
  // rows of (a, b) with distinct name orders below `names`
  const rowsArb = fc.integer({ min: 1, max: 500 }).chain((names) =>
    fc.tuple(fc.constant(names), fc.uniqueArray(fc.record({ a: fc.integer({ min: 0, max: 40 }), b: fc.integer({ min: 0, max: 40 }), o: fc.integer({ min: 0, max: names - 1 }) }), { selector: (r) => r.o, maxLength: 200 })),
  );
  const bySort = (rows: { a: number; b: number; o: number }[]) =>
    rows.map((_, r) => r).sort((x, y) => rows[y]!.a - rows[x]!.a || rows[y]!.b - rows[x]!.b || rows[x]!.o - rows[y]!.o);

  it('packed keys give the comparator order', () => {
    fc.assert(
      fc.property(rowsArb, ([names, rows]) => {
        const got = rankOrder(rows.length, 40, 40, names, (r) => rows[r]!.a, (r) => rows[r]!.b, (r) => rows[r]!.o);
        expect([...got]).toEqual(bySort(rows));
      }),
    );
  });

  it('falls back to the comparator where a key would pass 2^53, with the same order', () => {
    fc.assert(
      fc.property(rowsArb, ([, rows]) => {
        const big = 2 ** 40; // (aMax + 1) * (bMax + 1) * names > 2^53
        const got = rankOrder(rows.length, big, big, big, (r) => rows[r]!.a, (r) => rows[r]!.b, (r) => rows[r]!.o);
        expect([...got]).toEqual(bySort(rows));
      }),
    );
  });
});
