/**
 * The mention-file rules of docs/spec/data-and-rules.md §1.4, §1.5 and the inputs of §2, on hand-made rows.
 * Expected values are worked out by hand in the comments, never by calling the code under test.
 */
import { describe, expect, it } from 'vitest';
import { MonthAccumulator, type Lookups } from './aggregate.ts';
import { IssueList } from './data-error.ts';

const LOOKUPS: Lookups = {
  countries: [
    { code: 'us', name: 'United States', aliases: ['USA', 'US', 'America'] },
    { code: 'gb', name: 'United Kingdom', aliases: ['UK'] },
  ],
  industries: [
    { name: 'Aerospace', slug: 'aerospace' },
    { name: 'Oil & Gas', slug: 'oil-gas' },
  ],
};

/** Rows as `answer_id,collected_at,model,country,industry,theme,question_id,company`, from line 2. */
function fold(lines: string[]) {
  const issues = new IssueList();
  const acc = new MonthAccumulator('mentions/2026-04.csv', '2026-04', LOOKUPS, issues);
  lines.forEach((l, i) => acc.add(l.split(',').map((f) => f.trim()), i + 2));
  return { agg: acc.finish(), issues: issues.items };
}

describe('§1.6 the example month', () => {
  const { agg, issues } = fold([
    'a-1017,2026-04-03,ChatGPT,us,Aerospace,Leadership,lead-2,Kestrel Aero',
    'a-1017,2026-04-03,ChatGPT,us,Aerospace,Leadership,lead-2,Orbital Works',
    'a-1018,2026-04-03,Claude,United States,aerospace,Leadership,lead-2,Kestrel Aerospace Group',
    'a-1019,2026-04-04T09:12:00Z,Perplexity,US,Aerospace,Inclusion,incl-1,',
  ]);
  it('is valid', () => expect(issues).toEqual([]));
  it('counts rows: 4 read, 3 scored, 1 research (Claude), 1 naming nobody', () => {
    expect([agg.rows, agg.scoredRows, agg.researchRows, agg.emptyCompanyRows]).toEqual([4, 3, 1, 1]);
    expect(agg.researchModels).toEqual({ Claude: 1 });
  });
  it('§2 K holds (ChatGPT, Leadership) and (Perplexity, Inclusion): an answer naming nobody is still a combination', () => {
    // "us" and "US" are one country; Claude's (Leadership) pair is not a combination.
    expect(agg.contexts.map((c) => [c.industry, c.country])).toEqual([['Aerospace', 'us']]);
    const ctx = agg.contexts[0]!;
    expect(ctx.combos).toEqual([
      ['ChatGPT', 'Leadership'],
      ['Perplexity', 'Inclusion'],
    ]);
    // Two scored answers, a-1017 in combination 0, a-1019 in combination 1.
    expect(ctx.answers).toEqual([0, 1]);
  });
  it('keeps names as written (folded) with the answers naming them; the research row names nobody here', () => {
    expect(agg.contexts[0]!.names).toEqual([
      ['kestrel aero', 'Kestrel Aero', [0]],
      ['orbital works', 'Orbital Works', [0]],
    ]);
  });
  it('lastUpdated source: the latest collected_at date, date-times cut to their date', () => {
    expect(agg.latestDate).toBe('2026-04-04');
  });
});

describe('§1.4 model: ChatGPT, Google Gemini and Perplexity are scored, matched case-insensitively; any other is research', () => {
  const { agg, issues } = fold([
    'a1,2026-04-01,chatgpt,us,Aerospace,Pay,q1,A',
    'a2,2026-04-01,GOOGLE GEMINI,us,Aerospace,Pay,q1,A',
    'a3,2026-04-01,perplexity,us,Aerospace,Pay,q1,A',
    'a4,2026-04-01,Copilot,us,Aerospace,Pay,q1,A',
    'a5,2026-04-01,copilot,us,Aerospace,Pay,q1,A',
    'a6,2026-04-01,Meta AI,us,Aerospace,Culture,q2,A',
  ]);
  it('folds the scored spellings onto their canonical names', () => {
    expect(issues).toEqual([]);
    expect(agg.contexts[0]!.combos).toEqual([
      ['ChatGPT', 'Pay'],
      ['Google Gemini', 'Pay'],
      ['Perplexity', 'Pay'],
    ]);
  });
  it('counts research rows by model (first spelling seen), never as a combination or a mention', () => {
    // Copilot twice (two spellings, one model), Meta AI once: no (…, Culture) combination.
    expect(agg.researchModels).toEqual({ Copilot: 2, 'Meta AI': 1 });
    expect([agg.scoredRows, agg.researchRows]).toEqual([3, 3]);
    expect(agg.contexts[0]!.names).toEqual([['a', 'A', [0, 1, 2]]]);
  });
});

describe('§1.4 company: one entry per resolution key, each answer once', () => {
  it('folds case, blanks and diacritics; an answer naming a company twice counts once', () => {
    const { agg } = fold([
      'a1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,Société  Générale',
      'a1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,SOCIETE GENERALE',
      'a2,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,societe generale',
    ]);
    // Three spellings, one key "societe generale"; answers a1 (index 0) and a2 (index 1).
    expect(agg.contexts[0]!.names).toEqual([['societe generale', 'Société  Générale', [0, 1]]]);
  });

  it('rows of one answer may be apart: its index is listed once, in order', () => {
    const { agg } = fold([
      'a1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,A',
      'a2,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,A',
      'a1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,A',
    ]);
    expect(agg.contexts[0]!.names[0]![2]).toEqual([0, 1]);
  });

  it('§1.1/§1.2 a row names country by code, name or alias and industry by name or slug, case-insensitively', () => {
    const { agg, issues } = fold([
      'a1,2026-04-01,ChatGPT,united kingdom,OIL-GAS,Pay,q1,A',
      'a2,2026-04-01,ChatGPT,UK,oil & gas,Pay,q1,A',
      'a3,2026-04-01,ChatGPT,gb,Oil & Gas,Culture,q2,A',
    ]);
    expect(issues).toEqual([]);
    // One context (Oil & Gas, gb), two combinations: (ChatGPT, Pay), (ChatGPT, Culture).
    expect(agg.contexts.map((c) => [c.industry, c.country, c.combos.length, c.answers])).toEqual([['Oil & Gas', 'gb', 2, [0, 0, 1]]]);
  });

  it('themes are the data\'s own strings: case makes a different theme', () => {
    const { agg } = fold(['a1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,A', 'a2,2026-04-01,ChatGPT,us,Aerospace,pay,q1,A']);
    expect(agg.contexts[0]!.combos).toEqual([
      ['ChatGPT', 'Pay'],
      ['ChatGPT', 'pay'],
    ]);
  });
});

describe('§1.5 bad rows are errors naming file, line and column, with the nearest valid value', () => {
  const where = (issues: { file: string; line?: number; column?: number; columnName?: string }[]) =>
    issues.map((i) => [i.file, i.line, i.column, i.columnName]);

  it('an unknown country or industry', () => {
    const { issues } = fold(['a1,2026-04-01,ChatGPT,Untied States,Aerospace,Pay,q1,A', 'a2,2026-04-01,ChatGPT,us,Aerospase,Pay,q1,A']);
    expect(where(issues)).toEqual([
      ['mentions/2026-04.csv', 2, 4, 'country'],
      ['mentions/2026-04.csv', 3, 5, 'industry'],
    ]);
    expect(issues[0]!.message).toContain('did you mean "United States"');
    expect(issues[1]!.message).toContain('did you mean "Aerospace"');
  });

  it.each([
    ['2026-02-30', 'no 30 February'],
    ['2026-04-01T24:00:00Z', 'no hour 24'],
    ['04/01/2026', 'not ISO 8601'],
  ])('a bad collected_at %s (%s)', (date) => {
    const { issues } = fold([`a1,${date},ChatGPT,us,Aerospace,Pay,q1,A`]);
    expect(where(issues)).toEqual([['mentions/2026-04.csv', 2, 2, 'collected_at']]);
  });

  it('an empty required field', () => {
    const { issues } = fold(['a1,2026-04-01,ChatGPT,us,Aerospace,,q1,A']);
    expect(where(issues)).toEqual([['mentions/2026-04.csv', 2, 6, 'theme']]);
  });

  it.each([
    ['Perplexity,us,Aerospace,Pay,q1', 3, 'model'],
    ['ChatGPT,gb,Aerospace,Pay,q1', 4, 'country'],
    ['ChatGPT,us,Oil & Gas,Pay,q1', 5, 'industry'],
    ['ChatGPT,us,Aerospace,Culture,q1', 6, 'theme'],
    ['ChatGPT,us,Aerospace,Pay,q9', 7, 'question_id'],
  ])('rows of one answer_id that disagree: %s', (rest, column, name) => {
    const { issues } = fold(['a1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,A', `a1,2026-04-01,${rest},B`]);
    expect(where(issues)).toEqual([['mentions/2026-04.csv', 3, column, name]]);
    expect(issues[0]!.message).toContain('line 2');
  });

  it('but the same answer may spell its country, industry and model differently', () => {
    // "US"/"us", "aerospace"/"Aerospace", "CHATGPT"/"ChatGPT" are the same values.
    const { issues, agg } = fold(['a1,2026-04-01,ChatGPT,us,Aerospace,Pay,q1,A', 'a1,2026-04-01,CHATGPT,US,aerospace,Pay,q1,B']);
    expect(issues).toEqual([]);
    expect(agg.contexts[0]!.answers).toEqual([0]);
  });

  it('a model spelled like a property of every JS object is a research model like any other', () => {
    const { issues, agg } = fold(['a1,2026-04-01,constructor,us,Aerospace,Pay,q1,A', 'a2,2026-04-01,hasOwnProperty,us,Aerospace,Pay,q1,A']);
    expect(issues).toEqual([]);
    expect([agg.scoredRows, agg.researchRows, agg.contexts.length]).toEqual([0, 2, 0]);
    expect(agg.researchModels).toEqual({ constructor: 1, hasOwnProperty: 1 });
  });

  it('an unresolved company name or a research model is not an error', () => {
    expect(fold(['a1,2026-04-01,Claude,us,Aerospace,Pay,q1,Nobody Inc']).issues).toEqual([]);
  });
});
