/**
 * bench:build's DuckDB side, run as its own process so that its wall time and peak RSS
 * are measured like the build's:
 *
 *   node --import tsx bench/lib/duckdb-aggregate.ts DATA_DIR THREADS MODE BATCH [MONTH_FILE...]
 *
 * Without month files, all of DATA_DIR/mentions/*.csv.gz. "aggregate" runs over BATCH
 * files at a time (one gzip file is read by one thread, so BATCH >= THREADS), which keeps
 * DuckDB's memory to a few months, as the build keeps one month in memory per worker.
 *
 * MODE "ingest": parsing alone: max() of every column over read_csv, so that every field is
 *   read (a bare count(*) lets DuckDB skip the columns and only count lines).
 * MODE "aggregate": the work of src/core/aggregate.ts over the same files, as SQL —
 *   country and industry spellings resolved through the registry's names, codes, aliases
 *   and slugs; rows checked (non-empty fields, a date, a known country and industry);
 *   every answer's rows checked to agree on model/country/industry/theme/question;
 *   per (month, industry, country): the distinct (scored model, theme) pairs K and the
 *   distinct scored answers; per (month, industry, country, folded company name): the
 *   distinct answers naming it; research-model row counts; each month's latest date.
 * Prints one JSON object on stdout.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dataDir, threadsArg, mode, batchArg, ...monthFiles] = process.argv.slice(2);
if (!dataDir || !threadsArg || (mode !== 'ingest' && mode !== 'aggregate') || !batchArg) {
  console.error('usage: duckdb-aggregate.ts DATA_DIR THREADS ingest|aggregate BATCH [MONTH_FILE...]');
  process.exit(2);
}
const batch = Math.max(1, Number(batchArg));
const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
const files = monthFiles.length
  ? monthFiles
  : readdirSync(join(dataDir, 'mentions'))
      .filter((f) => /^\d{4}-\d{2}\.csv\.gz$/.test(f))
      .sort()
      .map((f) => join(dataDir, 'mentions', f));
const source = (list: string[]) => `read_csv([${list.map(q).join(', ')}], header = true, all_varchar = true, filename = true)`;

const t0 = performance.now();
const db = await DuckDBInstance.create(':memory:', { threads: threadsArg });
const con = await db.connect();
const one = async (sql: string) => (await con.runAndReadAll(sql)).getRowObjectsJson();
const timings: Record<string, number> = {};
const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  const r = await fn();
  timings[name] = (timings[name] ?? 0) + (performance.now() - t) / 1000;
  return r;
};
const sum: Record<string, number> = {};
const add = (k: string, v: unknown) => (sum[k] = (sum[k] ?? 0) + Number(v));

let out: Record<string, unknown>;
if (mode === 'ingest') {
  const cols = ['answer_id', 'collected_at', 'model', 'country', 'industry', 'theme', 'question_id', 'company'];
  const [r] = await timed('ingest', () => one(`SELECT count(*)::BIGINT AS rows, ${cols.map((c) => `max(${c}) AS ${c}`).join(', ')} FROM ${source(files)}`));
  out = { files: files.length, rows: Number(r!.rows) };
} else {
  await timed('lookups', async () => {
    await con.run(`CREATE TEMP TABLE cmap AS
      SELECT DISTINCT lower(trim(k)) AS k, code FROM (
        SELECT trim(code) AS code, unnest(list_concat([code, name], string_split(coalesce(aliases, ''), '|'))) AS k
        FROM read_csv(${q(join(dataDir, 'countries.csv'))}, header = true, all_varchar = true))
      WHERE trim(k) <> ''`);
    await con.run(`CREATE TEMP TABLE imap AS
      SELECT DISTINCT lower(trim(k)) AS k, name FROM (
        SELECT trim(name) AS name, unnest([name, trim(both '-' FROM regexp_replace(replace(lower(strip_accents(trim(name))), '&', ''), '[^a-z0-9]+', '-', 'g'))]) AS k
        FROM read_csv(${q(join(dataDir, 'industries.csv'))}, header = true, all_varchar = true))`);
  });
  const research: Record<string, number> = {};
  for (let b = 0; b < files.length; b += batch) {
    const list = files.slice(b, b + batch);
    // One pass over the CSV text into typed, resolved columns; the checks and aggregates then read the table.
    await timed('ingest+resolve', () =>
      con.run(`CREATE TEMP TABLE m AS
        SELECT regexp_extract(r.filename, '(\\d{4}-\\d{2})\\.csv', 1) AS month,
               trim(answer_id) AS answer_id, trim(collected_at) AS collected,
               lower(trim(model)) AS model, c.code AS country, i.name AS industry,
               trim(theme) AS theme, trim(question_id) AS question, trim(coalesce(company, '')) AS company,
               lower(trim(model)) IN ('chatgpt', 'google gemini', 'perplexity') AS scored
        FROM ${source(list)} r
        LEFT JOIN cmap c ON c.k = lower(trim(r.country))
        LEFT JOIN imap i ON i.k = lower(trim(r.industry))`),
    );
    const [rows] = await timed('row checks', () =>
      one(`SELECT count(*)::BIGINT AS rows,
          count(*) FILTER (WHERE coalesce(answer_id, '') = '' OR coalesce(model, '') = '' OR coalesce(theme, '') = '' OR coalesce(question, '') = ''
                           OR country IS NULL OR industry IS NULL OR try_cast(left(collected, 10) AS DATE) IS NULL)::BIGINT AS bad,
          count(*) FILTER (WHERE scored)::BIGINT AS scored,
          count(*) FILTER (WHERE NOT scored)::BIGINT AS research,
          count(*) FILTER (WHERE scored AND company = '')::BIGINT AS empty_company
        FROM m`),
    );
    const [agree] = await timed('answer agreement', () =>
      one(`SELECT count(*)::BIGINT AS answers, count(*) FILTER (WHERE n > 1)::BIGINT AS disagreeing FROM (
          SELECT month, answer_id, count(DISTINCT (model, country, industry, theme, question)) AS n FROM m GROUP BY month, answer_id)`),
    );
    const [ctx] = await timed('contexts (K, answers)', () =>
      one(`SELECT count(*)::BIGINT AS contexts, sum(k)::BIGINT AS combos, sum(scored_answers)::BIGINT AS scored_answers FROM (
          SELECT month, industry, country, count(DISTINCT (model, theme)) AS k, count(DISTINCT answer_id) AS scored_answers
          FROM m WHERE scored GROUP BY month, industry, country)`),
    );
    const [names] = await timed('names (distinct answers per folded name)', () =>
      one(`SELECT count(*)::BIGINT AS names, sum(n)::BIGINT AS naming FROM (
          SELECT month, industry, country, regexp_replace(lower(strip_accents(company)), '\\s+', ' ', 'g') AS name, count(DISTINCT answer_id) AS n
          FROM m WHERE scored AND company <> '' GROUP BY ALL)`),
    );
    const res = await timed('research models, latest dates', async () => {
      const r = await one(`SELECT model, count(*)::BIGINT AS n FROM m WHERE NOT scored GROUP BY model ORDER BY model`);
      await one(`SELECT month, max(left(collected, 10)) AS latest FROM m GROUP BY month`);
      return r;
    });
    for (const [k, v] of Object.entries({ ...rows, ...agree, ...ctx, ...names })) if (k !== 'month') add(k, v);
    for (const r of res) research[String(r.model)] = (research[String(r.model)] ?? 0) + Number(r.n);
    await con.run('DROP TABLE m');
  }
  out = {
    files: files.length,
    batch,
    rows: sum.rows,
    badRows: sum.bad,
    scoredRows: sum.scored,
    researchRows: sum.research,
    emptyCompanyRows: sum.empty_company,
    answers: sum.answers,
    disagreeingAnswers: sum.disagreeing,
    contexts: sum.contexts,
    combos: sum.combos,
    scoredAnswers: sum.scored_answers,
    names: sum.names,
    research,
  };
}
const seconds = (performance.now() - t0) / 1000;
con.closeSync();
db.closeSync();
console.log(JSON.stringify({ mode, threads: Number(threadsArg), seconds, timings, ...out }));
