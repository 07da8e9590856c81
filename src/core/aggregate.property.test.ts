/**
 * MonthAccumulator against a plain model of data-and-rules §1.4/§1.5 on generated months:
 * the accumulator takes shortcuts (a row repeating the previous row's first seven fields
 * only has its company checked; lookups reused from the previous row; signatures as
 * integers), the model below takes none — every row through the row schema, every lookup
 * made again. Both must give the same aggregate and the same messages, in the same order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MonthAccumulator, SCORED_MODELS, arraysFor, type ContextAggregate, type Lookups, type MonthAggregate } from './aggregate.ts';
import { didYouMean, IssueList, type DataIssue } from './data-error.ts';
import { CONTROL_RE, MENTION_COLUMNS, MentionRowSchema, collectedDate, preview } from './schemas/rows.ts';
import { foldKey, foldName } from './text.ts';

const LOOKUPS: Lookups = {
  countries: [
    { code: 'us', name: 'United States', aliases: ['USA'] },
    { code: 'gb', name: 'United Kingdom', aliases: ['UK'] },
  ],
  industries: [
    { name: 'Aerospace', slug: 'aerospace' },
    { name: 'Oil & Gas', slug: 'oil-gas' },
  ],
};
const FILE = 'mentions/2026-04.csv';

/** The rules, row by row, without a shortcut. */
function model(rows: string[][]): { agg: MonthAggregate; issues: DataIssue[] } {
  // The same cap on the number of messages as the build (IssueList keeps the first 50).
  const list = new IssueList();
  const issue = (line: number, col: number, message: string) => list.add({ file: FILE, line, column: col + 1, columnName: MENTION_COLUMNS[col], message });
  const countryBy = new Map<string, string>();
  for (const c of LOOKUPS.countries) for (const k of [c.code, c.name, ...c.aliases]) countryBy.set(foldKey(k), c.code);
  const industryBy = new Map<string, string>();
  for (const i of LOOKUPS.industries) for (const k of [i.name, i.slug]) industryBy.set(foldKey(k), i.name);
  const answers = new Map<string, { sig: string[]; line: number; ctx: ContextAggregate | null; answer: number }>();
  const contexts = new Map<string, ContextAggregate>();
  const research = new Map<string, [string, number]>();
  let scoredRows = 0;
  let researchRows = 0;
  let emptyCompanyRows = 0;
  let latest: string | null = null;
  rows.forEach((f, r) => {
    const line = r + 2;
    const parsed = MentionRowSchema.safeParse(f);
    if (!parsed.success) {
      for (const iss of parsed.error.issues) {
        const col = Number(iss.path[0] ?? 0);
        issue(line, col, `${iss.message}${f[col] !== undefined ? ` (got "${preview(f[col])}")` : ''}`);
      }
      return;
    }
    const [id, date, modelRaw, countryRaw, industryRaw, theme, question, company] = f as [string, string, string, string, string, string, string, string];
    const country = countryBy.get(foldKey(countryRaw));
    const industry = industryBy.get(foldKey(industryRaw));
    if (!country) issue(line, 3, `unknown country "${countryRaw}"${didYouMean(countryRaw, LOOKUPS.countries.flatMap((c) => [c.code, c.name]))}`);
    if (!industry) issue(line, 4, `unknown industry "${industryRaw}"${didYouMean(industryRaw, LOOKUPS.industries.map((i) => i.name))}`);
    if (!country || !industry) return;
    const day = collectedDate(date)!;
    if (latest === null || day > latest) latest = day;
    const key = foldKey(modelRaw);
    const scored = Object.hasOwn(SCORED_MODELS, key) ? (SCORED_MODELS as Record<string, string>)[key] : undefined;
    const sig = [key, country, industry, theme, question];
    let a = answers.get(id);
    if (a) {
      const k = sig.findIndex((v, i) => v !== a!.sig[i]);
      if (k >= 0) {
        const col = [2, 3, 4, 5, 6][k]!;
        issue(line, col, `answer "${id}" has ${MENTION_COLUMNS[col]} "${f[col]}" here but "${a.sig[k]}" on line ${a.line}; all rows of one answer must agree`);
        return;
      }
    }
    if (!scored) {
      researchRows++;
      const entry = research.get(key);
      if (entry) entry[1]++;
      else research.set(key, [modelRaw, 1]);
      if (!a) answers.set(id, { sig, line, ctx: null, answer: -1 });
      return;
    }
    scoredRows++;
    if (!a) {
      let ctx = contexts.get(`${industry}\n${country}`);
      if (!ctx) contexts.set(`${industry}\n${country}`, (ctx = { industry, country, combos: [], answers: [], names: [] }));
      let combo = ctx.combos.findIndex(([m, t]) => m === scored && t === theme);
      if (combo < 0) combo = ctx.combos.push([scored, theme]) - 1;
      a = { sig, line, ctx, answer: ctx.answers.push(combo) - 1 };
      answers.set(id, a);
    }
    if (company === '') {
      emptyCompanyRows++;
      return;
    }
    const folded = foldName(company);
    let name = a.ctx!.names.find(([n]) => n === folded);
    if (!name) a.ctx!.names.push((name = [folded, company, []]));
    if (!name[2].includes(a.answer)) name[2].push(a.answer);
  });
  for (const c of contexts.values()) for (const n of c.names) n[2].sort((x, y) => x - y);
  const researchModels: Record<string, number> = {};
  for (const [, [name, n]] of [...research].sort((x, y) => (x[0] < y[0] ? -1 : 1))) researchModels[name] = n;
  const agg: MonthAggregate = {
    month: '2026-04',
    file: FILE,
    rows: rows.length,
    scoredRows,
    researchRows,
    emptyCompanyRows,
    researchModels,
    latestDate: latest,
    contexts: [...contexts.values()].sort((x, y) => (x.industry < y.industry ? -1 : x.industry > y.industry ? 1 : x.country < y.country ? -1 : x.country > y.country ? 1 : 0)),
  };
  return { agg, issues: list.items };
}


/**
 * `plain`: each row is handed over as the reader hands it over when it has checked the text for
 * control characters: plain when none of its fields holds one (else as not known).
 */
function accumulate(rows: string[][], plain = false): { agg: MonthAggregate; issues: DataIssue[] } {
  const list = new IssueList();
  const acc = new MonthAccumulator(FILE, '2026-04', LOOKUPS, list);
  // A copy of each row: the accumulator must not rely on seeing the very same array again.
  rows.forEach((f, r) => acc.add([...f], r + 2, plain && !f.some((v) => CONTROL_RE.test(v))));
  const agg = acc.finish();
  return { agg, issues: list.items };
}

// Small pools, so that answers repeat, spellings collide and every rule is reached; bad values
// one time in eight, so that most months stay under the 50-message cap.
const pick = (good: string[], bad: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...good), weight: 7 }, { arbitrary: fc.constantFrom(...bad), weight: 1 });
const field = [
  pick(['a1', 'a2', 'a3', 'a4', 'a-2026-04-000005'], ['']),
  pick(
    ['2026-04-01', '2026-04-09', '2026-04-03T09:12:00Z', '2026-04-10 23:59:59Z', '2026-04-30T09:12+02:00', '2024-02-29'],
    ['2026-02-30', 'soon', '2026-04-01T24:00:00Z', '2026-04-01T09:60:00Z', '2026-4-01T09:12:00Z', '2026-13-01', '2025-02-29', '2026-04-0x'],
  ),
  pick(['ChatGPT', 'chatgpt', 'Google Gemini', 'Perplexity', 'Claude', 'COPILOT', 'constructor'], ['']),
  pick(['us', 'US', 'United Kingdom', 'uk'], ['Untied States']),
  pick(['Aerospace', 'aerospace', 'oil-gas', 'Oil & Gas'], ['Aerospase']),
  pick(['Leadership', 'leadership', 'Work-Life Balance'], ['']),
  pick(['q1', 'q2', 'question-template-7'], ['q\n1']),
  pick(['Kestrel Aero', 'KESTREL  aero', 'Société Générale', 'Societe Generale Group', ''], ['Bad\u0007Name', 'x'.repeat(301)]),
];
const rowArb = fc.tuple(...field);
/** An answer: a first row, then rows repeating it with another company or, now and then, another field. */
const answerArb = fc.record({
  first: rowArb,
  more: fc.array(fc.record({ company: field[7]!, change: fc.option(fc.tuple(fc.integer({ min: 0, max: 6 }), rowArb), { freq: 4 }) }), { maxLength: 4 }),
});
const monthArb = fc.array(answerArb, { maxLength: 25 }).map((answers) => {
  const rows: string[][] = [];
  for (const { first, more } of answers) {
    rows.push([...first]);
    for (const { company, change } of more) {
      const row = [...first.slice(0, 7), company];
      if (change) row[change[0]] = change[1][change[0]]!;
      rows.push(row);
    }
  }
  return rows;
});

describe('MonthAccumulator = the rules without shortcuts', () => {
  it('same aggregate and same messages on generated months', () => {
    fc.assert(
      fc.property(monthArb, (rows) => {
        const expected = model(rows);
        expect(accumulate(rows)).toEqual(expected);
        expect(accumulate(rows, true)).toEqual(expected);
      }),
      { numRuns: 400, seed: 20261124 },
    );
  });

  it('same aggregate on months of thousands of answers whose rows come back far apart', () => {
    // Enough answers for the answer-id table to grow several times; an answer's fields follow
    // from its id, so that a returning answer agrees with its first rows (and now and then not).
    const models = ['ChatGPT', 'Perplexity', 'Claude', 'Meta AI'];
    const bigArb = fc.array(fc.tuple(fc.nat(6000), fc.constantFrom('Kestrel Aero', 'Société Générale', 'Umbra Labs', ''), fc.nat(200)), { minLength: 3000, maxLength: 9000 });
    fc.assert(
      fc.property(bigArb, (picks) => {
        const rows = picks.map(([n, company, odd]) => [`id-${n}`, '2026-04-01', models[(n + (odd === 0 ? 1 : 0)) % 4]!, n % 2 ? 'us' : 'uk', 'Aerospace', `theme ${n % 7}`, `q${n % 5}`, company]);
        const expected = model(rows);
        expect(accumulate(rows)).toEqual(expected);
      }),
      { numRuns: 12, seed: 20261124, endOnFailure: true },
    );
  });

  it('same aggregate when the answer ids arrive in ascending order, with rows coming back and new ids out of order', () => {
    // The answer-id list stays sorted while the ids ascend (a row coming back is found by binary
    // search) and becomes a hash table at the first new id out of order, anywhere in the month.
    const models = ['ChatGPT', 'Perplexity', 'Claude', 'Meta AI'];
    const companies = ['Kestrel Aero', 'Société Générale', 'Umbra Labs', ''];
    const at = fc.tuple(fc.nat(), fc.nat());
    const arb = fc.record({ n: fc.integer({ min: 300, max: 3000 }), back: fc.array(at, { maxLength: 40 }), late: fc.array(at, { maxLength: 2 }) });
    const row = (m: number, i: number) => [`a-${String(m).padStart(6, '0')}`, '2026-04-01', models[m % 4]!, m % 2 ? 'us' : 'uk', 'Aerospace', `theme ${m % 7}`, `q${m % 5}`, companies[(m + i) % 4]!];
    let switched = 0;
    fc.assert(
      fc.property(arb, ({ n, back, late }) => {
        // Even ids in order, 1-3 rows each; an earlier answer's id put back in (seen before);
        // an odd id below one seen before put in (new, out of order).
        const seq: number[] = [];
        for (let k = 0; k < n; k++) for (let r = 0; r <= k % 3; r++) seq.push(2 * k);
        for (const [p, q] of back) {
          const i = p % seq.length;
          seq.splice(i + 1, 0, seq[q % (i + 1)]!);
        }
        for (const [p, q] of late) {
          const i = p % seq.length;
          const m = seq[q % (i + 1)]!;
          if (m > 0) seq.splice(i + 1, 0, m - 1), switched++;
        }
        const rows = seq.map((m, i) => row(m, i));
        const expected = model(rows);
        expect(accumulate(rows)).toEqual(expected);
      }),
      { numRuns: 40, seed: 20261124, endOnFailure: true },
    );
    expect(switched).toBeGreaterThan(10);
  });

  it("a thread's first month on arrays sized from its text (arraysFor) gives the same aggregate, the room too small or enough", () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [`b-${String((i * 7919) % 20_000).padStart(6, '0')}`, '2026-04-02', 'Claude', 'uk', 'Aerospace', 'Leadership', 'q2', `Umbra ${i % 500}`]);
    for (const textBytes of [100, 50_000_000]) {
      const arrays = arraysFor(textBytes);
      const list = new IssueList();
      const acc = new MonthAccumulator(FILE, '2026-04', LOOKUPS, list, arrays);
      rows.forEach((f, r) => acc.add([...f], r + 2));
      expect({ agg: acc.finish(), issues: list.items }).toEqual(model(rows));
    }
  });

  it('the generator reaches the shortcut, the full path and the errors', () => {
    // Guard against a generator that never exercises what the property is about.
    const months = fc.sample(monthArb, { numRuns: 200, seed: 1 });
    const all = months.flatMap((rows) => model(rows).issues.map((i) => i.message));
    expect(all.some((m) => m.includes('all rows of one answer must agree'))).toBe(true);
    expect(all.some((m) => m.includes('control character'))).toBe(true);
    expect(all.some((m) => m.includes('unknown country'))).toBe(true);
    expect(months.some((rows) => rows.some((r, i) => i > 0 && r.slice(0, 7).join() === rows[i - 1]!.slice(0, 7).join()))).toBe(true);
    expect(months.some((rows) => model(rows).agg.contexts.some((c) => c.names.some((n) => n[2].length > 1)))).toBe(true);
  });
});
