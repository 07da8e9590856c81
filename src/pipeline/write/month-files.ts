/**
 * The files of one month that depend only on it and the months before: its leaderboards and
 * CSV download and (a past month) its company views. A job writes them once, into their cache
 * entry or straight into the output; the same function runs on the worker pool or this thread.
 */
import type { Company, Registry } from '../../core/registry.ts';
import { attachDetails, dropDetails, scoreMonth, universes, type MonthResult } from '../../core/score.ts';
import { encodeSearchRankings } from '../../core/search/rankings.ts';
import { boardViews, type SiteInput } from '../../core/views/build-views.ts';
import { companyRecords, HistoryLists, identityOf, searchRankingOfRecord, type CompanyIdentity, type CompanyRecord, type RecordTables } from '../../core/views/companies.ts';
import { encodeBoard } from '../../core/views/board-rows.ts';
import { OVERALL, shardOf, viewPaths, type MetaView, type SearchRankingsView } from '../../core/views/layout.ts';
import { compareKeys } from '../../core/text.ts';
import { writeCacheFolder } from '../cache/cache-file.ts';
import type { CacheEntryRef } from '../cache/caches.ts';
import { LeaderboardCsv, downloadPaths, leaderboardsGz, type CsvFacts } from './downloads.ts';
import { readColumns, type AggregateSource } from '../read/load-data.ts';
import { ByteBuilder } from './byte-builder.ts';
import { JsonWriter } from './write-json.ts';
import { readDetails, type DetailsFile } from './details-file.ts';

/** What every job of a build shares (sent once to each worker). */
export interface MonthContext {
  input: SiteInput;
  meta: MetaView;
}

/** Where a job's files go: a cache entry (folder), or the output folder without a cache. */
export type Target = { cache: CacheEntryRef } | { out: string };

export interface MonthJob {
  /** The month's index in the input's results. */
  i: number;
  /** Month i's leaderboards and CSV (paths under the site root). */
  boards?: Target;
  /** Month i's company views as a past month: from its packed scoring details, or its aggregate scored again. */
  views?: Target & ({ scored: { result: MonthResult; details: DetailsFile } } | { aggregate: AggregateSource });
}

/** What a job wrote: per part, its files and, for the boards, the CSV's facts. */
export interface MonthJobResult {
  boards?: Written & { info: BoardsInfo };
  views?: Written;
}
export interface Written {
  /** Written to a cache entry: each file's SHA-256 and identity too, for the ledger (known-digests.ts). */
  files: { path: string; bytes: number; sha256?: string; stat?: string }[];
}
export type BoardsInfo = CsvFacts & { boards: number };

/** The files of month `i`'s leaderboards and CSV (paths under the site root), and the CSV's facts. */
export function boardFiles(input: SiteInput, i: number): { files: [string, Uint8Array][]; info: BoardsInfo } {
  const files: [string, Uint8Array][] = [];
  const nameRank = nameRankOf(input.registry);
  const csv = new LeaderboardCsv();
  let boards = 0;
  for (const { country, industry, view } of boardViews(input, i)) {
    files.push([viewPaths.board(view.month, country, industry), Buffer.from(JSON.stringify(view))]);
    // the overall boards also in binary form, which the API reads one page at a time
    if (industry === OVERALL) files.push([viewPaths.overallBoardBinary(view.month, country), encodeBoard(view, nameRank)]);
    csv.add(view);
    boards++;
  }
  const { gz, facts } = leaderboardsGz(csv);
  files.push([downloadPaths.leaderboards(input.results[i]!.month), gz]);
  return { files, info: { ...facts, boards } };
}

/** A registry's name order by slug (encodeBoard's `nameRank`), once per thread. */
const nameRanks = new WeakMap<Registry, (slug: string) => number>();
function nameRankOf(reg: Registry): (slug: string) => number {
  let rank = nameRanks.get(reg);
  if (!rank) {
    const places = new Map(reg.companies.map((c) => [c.slug, c.nameOrder]));
    rank = (slug) => {
      const place = places.get(slug);
      if (place === undefined) throw new Error(`a leaderboard row names "${slug}", which is not in the registry`);
      return place;
    };
    nameRanks.set(reg, rank);
  }
  return rank;
}

/**
 * A month's company records as a past month's files: shards of records (RecordShard), each
 * with the tables its records name, and the month's search rankings.
 */
export class RecordShards {
  readonly #shards = new Map<number, { entries: ByteBuilder; themes: Set<number>; countries: Set<string> }>();
  readonly #rankings: SearchRankingsView;
  readonly #month: string;

  constructor(
    private readonly meta: MetaView,
    private readonly tables: RecordTables,
  ) {
    this.#month = tables.months[tables.months.length - 1]!;
    this.#rankings = { month: this.#month, companies: {} };
  }

  add(company: CompanyIdentity, record: CompanyRecord | null): void {
    if (!record) return;
    this.#rankings.companies[company.slug] = searchRankingOfRecord(company, record);
    const n = shardOf(company.slug, this.meta.companyShards);
    let shard = this.#shards.get(n);
    if (!shard) this.#shards.set(n, (shard = { entries: new ByteBuilder(), themes: new Set(), countries: new Set() }));
    shard.entries.append(`${shard.entries.length ? ',' : ''}${JSON.stringify(company.slug)}:${JSON.stringify(record)}`);
    for (const p of record[1]) {
      shard.themes.add(p[11]);
      shard.countries.add(p[0]);
    }
  }

/** The files, one shard at a time (its text let go once yielded). */
  *files(): Generator<[string, Uint8Array]> {
    const strip = (path: string) => path.slice('views/'.length);
    const months = JSON.stringify(this.tables.months);
    for (const [n, { entries, themes, countries }] of [...this.#shards].sort(([a], [b]) => a - b)) {
      this.#shards.delete(n);
      const lists: RecordTables['themes'] = {};
      for (const t of [...themes].sort((a, b) => a - b)) lists[t] = this.tables.themes[t]!;
      const names: RecordTables['countries'] = {};
      for (const code of [...countries].sort(compareKeys)) names[code] = this.tables.countries[code]!;
      const head = `{"months":${months},"themes":${JSON.stringify(lists)},"countries":${JSON.stringify(names)},"companies":{`;
      yield [strip(viewPaths.companyShard(this.#month, n)), Buffer.concat([Buffer.from(head), entries.view(), Buffer.from('}}')])];
    }
    yield [strip(viewPaths.monthSearchRankings(this.#month)), Buffer.from(JSON.stringify(this.#rankings))];
    // also in binary form, which the API reads in place
    yield [strip(viewPaths.monthSearchRankingsBinary(this.#month)), encodeSearchRankings(this.#rankings)];
  }
}

async function put(target: Target, files: Iterable<[string, Uint8Array]>, info?: BoardsInfo): Promise<Written> {
  if ('cache' in target) return { files: await writeCacheFolder(target.cache.path, target.cache.key, files, info) };
  const out = new JsonWriter(target.out);
  const written: Written['files'] = [];
  for (const [path, bytes] of files) {
    out.writeBytes(path, bytes);
    written.push({ path, bytes: bytes.byteLength });
  }
  return { files: written };
}

const NONE = new Int32Array(0);

/**
 * What a past month's views read of an earlier month: each board's order, hits and k. A worker
 * past the leaderboards jobs keeps this instead of each month's whole result.
 */
export function historyOnly(r: MonthResult): MonthResult {
  const boards: MonthResult['boards'] = new Map();
  for (const [key, b] of r.boards) boards.set(key, { industry: b.industry, industrySlug: b.industrySlug, country: b.country, k: b.k, answers: 0, order: b.order, hits: b.hits, mentions: NONE });
  return { month: r.month, boards, overall: new Map(), unresolved: new Map(), outOfUniverse: 0 };
}

/**
 * Moves each result's typed arrays, in place, onto one SharedArrayBuffer per month: the month
 * workers' copies of the results (their workerData) then share them, not one copy per thread.
 */
export function shareResults(results: MonthResult[]): void {
  for (const r of results) {
    const arrays: Int32Array[] = [];
    for (const b of r.boards.values()) arrays.push(b.order, b.hits, b.mentions);
    for (const o of r.overall.values()) arrays.push(o.order, o.pos);
    if (arrays.every((a) => a.buffer instanceof SharedArrayBuffer)) continue;
    const shared = new SharedArrayBuffer(arrays.reduce((n, a) => n + a.byteLength, 0));
    let at = 0;
    const share = (a: Int32Array): Int32Array => {
      const copy = new Int32Array(shared, at, a.length);
      copy.set(a);
      at += a.byteLength;
      return copy;
    };
    for (const b of r.boards.values()) {
      b.order = share(b.order);
      b.hits = share(b.hits);
      b.mentions = share(b.mentions);
    }
    for (const o of r.overall.values()) {
      o.order = share(o.order);
      o.pos = share(o.pos);
    }
  }
}

/** The companies' pools of a registry, once per thread (only a job that scores again needs them). */
const poolsOf = new WeakMap<Registry, Map<string, Company[]>>();
function poolsFor(reg: Registry): Map<string, Company[]> {
  let pools = poolsOf.get(reg);
  if (!pools) poolsOf.set(reg, (pools = universes(reg)));
  return pools;
}

/** The views' histories as text, kept between a context's views jobs, which come in month order. */
const historiesOf = new WeakMap<MonthContext, HistoryLists>();

/** The history numbers a context's views jobs keep. */
export const keptHistory = (ctx: MonthContext): number => historiesOf.get(ctx)?.length ?? 0;

export async function runMonthJob(ctx: MonthContext, job: MonthJob, log: (line: string) => void): Promise<MonthJobResult> {
  const reg = ctx.input.registry;
  const out: MonthJobResult = {};
  if (job.boards) {
    const { files, info } = boardFiles(ctx.input, job.i);
    out.boards = { ...(await put(job.boards, files, info)), info };
  }
  if (job.views) {
    const v = job.views;
    const detailed = 'scored' in v ? attachDetails(v.scored.result, readDetails(v.scored.details)) : scoreMonth(reg, await readColumns(v.aggregate, log), poolsFor(reg), true);
    const input: SiteInput = { ...ctx.input, results: [...ctx.input.results.slice(0, job.i), detailed] };
    let histories = historiesOf.get(ctx);
    if (!histories) historiesOf.set(ctx, (histories = new HistoryLists()));
    const { tables, records } = companyRecords(input, histories);
    const files = new RecordShards(ctx.meta, tables);
    for (const { company, record } of records) files.add(identityOf(company), record);
    out.views = await put(job.views, files.files());
    // Without worker threads the result is the build's own: drop the details it was lent.
    if ('scored' in v) dropDetails(detailed);
  }
  return out;
}
