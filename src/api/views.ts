/**
 * Typed access to the precomputed views (src/core/views/layout.ts) plus the
 * lookup tables the parameters are resolved against (data-and-rules §1.1, §1.2).
 */
import { OVERALL, OVERALL_LABEL, shardOf, viewPaths } from '../core/views/layout.ts';
import { shapeSite, type CompanyRecord, type RecordShard, type RecordTables, type ShapeSite } from '../core/views/companies.ts';
import type { BoardView, CompanyView, CountryRef, IndustryRef, MetaView, SearchRankingsView } from '../core/views/layout.ts';
import { decodeSearchIndex, loadSearchIndex } from '../core/search/index.ts';
import { BinarySearchRankings, JsonSearchRankings, type SearchRankings } from '../core/search/rankings.ts';
import type { SearchIndex, SerializedSearchIndex } from '../core/search/index.ts';
import { foldKey } from '../core/text.ts';
import { BinaryBoard, type BoardRows } from '../core/views/board-rows.ts';
import { StoreError } from './errors.ts';
import { PromiseCache } from './promise-cache.ts';
import type { ViewCache } from './store.ts';

export interface Catalog {
  meta: MetaView;
  countryByKey: Map<string, CountryRef>;
  countryByCode: Map<string, CountryRef>;
  industryByKey: Map<string, IndustryRef>;
  /** Names, then codes (data-and-rules §4: "with validCountries"). */
  validCountries: string[];
  /** Names, then slugs (data-and-rules §4: "names and slugs"). */
  validIndustries: string[];
  /** What a past month's profiles are shaped with: this build's site, and its release's date as their lastUpdated. */
  pastSite: ShapeSite;
}

/** Memory for past months' search rankings (a Worker isolate has 128 MB). */
const PAST_RANKINGS_BYTES = 12 * 1024 * 1024;

/** Memory for the overall boards' binary form. */
const BINARY_BOARDS_BYTES = 8 * 1024 * 1024;

/** The overall leaderboard answers to `all` and to its label as an industry value. */
const OVERALL_REF: IndustryRef = { name: OVERALL_LABEL, slug: OVERALL };

function catalog(meta: MetaView): Catalog {
  const countryByKey = new Map<string, CountryRef>();
  const countryByCode = new Map<string, CountryRef>();
  for (const country of meta.countries) {
    countryByCode.set(country.code, country);
    for (const key of [country.code, country.name, ...country.aliases]) {
      if (!countryByKey.has(foldKey(key))) countryByKey.set(foldKey(key), country);
    }
  }
  const industryByKey = new Map<string, IndustryRef>();
  for (const industry of [...meta.industries, OVERALL_REF]) {
    industryByKey.set(foldKey(industry.slug), industry);
    industryByKey.set(foldKey(industry.name), industry);
  }
  return {
    meta,
    countryByKey,
    countryByCode,
    industryByKey,
    validCountries: [...meta.countries.map((c) => c.name), ...meta.countries.map((c) => c.code)],
    validIndustries: [...meta.industries.map((i) => i.name), ...meta.industries.map((i) => i.slug)],
    pastSite: shapeSite(meta, meta.lastUpdated),
  };
}

/**
 * The views one handler instance reads. `meta.json` and the search index are
 * pinned once read; everything else goes through the LRU of {@link ViewCache}.
 */
export class Views {
  readonly #cache: ViewCache;
  #catalog: Promise<Catalog> | null = null;
  #searchIndex: Promise<SearchIndex> | null = null;
  #searchRankings: Promise<SearchRankings> | null = null;
  /** Past months' search rankings, by the size of their file (a month is ~5 MB at 10,000 companies). */
  readonly #pastRankings = new PromiseCache<SearchRankings>(PAST_RANKINGS_BYTES);
  /** Overall boards in binary form, by the size of their file (~0.8 MB for a country of 10,000 companies). */
  readonly #boards = new PromiseCache<BoardView | BoardRows | null>(BINARY_BOARDS_BYTES);

  constructor(cache: ViewCache) {
    this.#cache = cache;
  }

  catalog(): Promise<Catalog> {
    this.#catalog ??= this.#required<MetaView>(viewPaths.meta()).then(catalog);
    this.#catalog.catch(() => (this.#catalog = null));
    return this.#catalog;
  }

  /**
   * `null` when the file is absent: the caller decides whether that is a 404. An overall
   * board is read in its binary form where there is one (rows parsed only for the page
   * asked); the JSON view otherwise.
   */
  board(month: string, country: string, industry: string): Promise<BoardView | BoardRows | null> {
    if (industry !== OVERALL) return this.#cache.json<BoardView>(viewPaths.board(month, country, industry));
    return this.#boards.get(`${month}/${country}`, async () => {
      const path = viewPaths.overallBoardBinary(month, country);
      const bytes = await this.#cache.bytes(path);
      if (!bytes) return this.#cache.json<BoardView>(viewPaths.board(month, country, industry));
      try {
        return new BinaryBoard(bytes);
      } catch (cause) {
        throw new StoreError(path, cause);
      }
    }, (board) => (board instanceof BinaryBoard ? board.bytes : 0));
  }

  company(slug: string): Promise<CompanyView | null> {
    return this.#cache.json<CompanyView>(viewPaths.company(slug));
  }

  changelog(): Promise<unknown> {
    return this.#required<unknown>(viewPaths.changelog());
  }

  /**
   * A past month's record of a company and the tables it is read with, from its shard;
   * `null` when the company had no data that month.
   */
  async pastRecord(month: string, slug: string, shards: number): Promise<{ record: CompanyRecord; tables: RecordTables } | null> {
    const shard = await this.#cache.json<RecordShard>(viewPaths.companyShard(month, shardOf(slug, shards)));
    return shard && Object.hasOwn(shard.companies, slug) ? { record: shard.companies[slug]!, tables: shard } : null;
  }

  /** A past month's search rankings (the build writes one per past month); kept per month once read. */
  pastSearchRankings(month: string): Promise<SearchRankings> {
    return this.#pastRankings.get(month, () => this.#readSearchRankings(viewPaths.monthSearchRankings(month), viewPaths.monthSearchRankingsBinary(month)), (r) => r.bytes);
  }

  /** The search index, kept once read. */
  searchIndex(): Promise<SearchIndex> {
    this.#searchIndex ??= this.#readSearchIndex();
    this.#searchIndex.catch(() => (this.#searchIndex = null));
    return this.#searchIndex;
  }

  /** The current month's search rankings, kept once read (a search of a past month reads only that month's). */
  searchRankings(): Promise<SearchRankings> {
    this.#searchRankings ??= this.#readSearchRankings(viewPaths.searchRankings(), viewPaths.searchRankingsBinary());
    this.#searchRankings.catch(() => (this.#searchRankings = null));
    return this.#searchRankings;
  }

  /**
   * A month's search rankings: the binary file, read in place from the chunks it is stored
   * in (entries parsed only for the hits; from a file kept in small parts, only the parts
   * holding them read); the JSON where there is none (a store that reads no bytes).
   */
  async #readSearchRankings(jsonPath: string, binaryPath: string): Promise<SearchRankings> {
    const parts = await this.#cache.partsOf(binaryPath);
    const binary = parts ?? (await this.#cache.chunks(binaryPath));
    if (!binary) return new JsonSearchRankings(await this.#required<SearchRankingsView>(jsonPath));
    try {
      return 'ends' in binary ? await BinarySearchRankings.open(binary) : new BinarySearchRankings(binary);
    } catch (cause) {
      throw new StoreError(binaryPath, cause);
    }
  }

  /**
   * The binary index, queried in place from the chunks it is stored in (no load work, no
   * copy: a fresh Worker instance answers its first search within its CPU budget); the
   * JSON form where the store reads no bytes or the build wrote no binary file.
   */
  async #readSearchIndex(): Promise<SearchIndex> {
    const binary = await this.#cache.chunks(viewPaths.searchIndexBinary());
    const path = binary ? viewPaths.searchIndexBinary() : viewPaths.searchIndex();
    try {
      return binary ? decodeSearchIndex(binary) : loadSearchIndex(await this.#required<SerializedSearchIndex>(path));
    } catch (cause) {
      throw cause instanceof StoreError ? cause : new StoreError(path, cause);
    }
  }

  text(path: string): Promise<string | null> {
    return this.#cache.text(path);
  }

  /** A view the build always writes: its absence is a broken deployment (502), not a 404. */
  async #required<T>(path: string): Promise<T> {
    const value = await this.#cache.json<T>(path);
    if (value === null) throw new StoreError(path, new Error('missing'));
    return value;
  }
}
