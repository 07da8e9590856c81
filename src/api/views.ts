/**
 * Typed access to the precomputed views (src/core/views/layout.ts) plus the
 * lookup tables the parameters are resolved against (data-and-rules §1.1, §1.2).
 */
import { OVERALL, OVERALL_LABEL, shardOf, viewPaths } from '../core/views/layout.ts';
import type { BoardView, CompanyView, CountryRef, IndustryRef, MetaView, SearchRankingsView } from '../core/views/layout.ts';
import { loadSearchIndex } from '../core/search/index.ts';
import type { SearchIndex, SerializedSearchIndex } from '../core/search/index.ts';
import { foldKey } from '../core/text.ts';
import { StoreError } from './errors.ts';
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
}

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
  };
}

/**
 * The views one handler instance reads. `meta.json` and the search index are
 * pinned once read; everything else goes through the LRU of {@link ViewCache}.
 */
export class Views {
  readonly #cache: ViewCache;
  #catalog: Promise<Catalog> | null = null;
  #search: Promise<{ index: SearchIndex; rankings: SearchRankingsView }> | null = null;

  constructor(cache: ViewCache) {
    this.#cache = cache;
  }

  catalog(): Promise<Catalog> {
    this.#catalog ??= this.#required<MetaView>(viewPaths.meta()).then(catalog);
    this.#catalog.catch(() => (this.#catalog = null));
    return this.#catalog;
  }

  /** `null` when the file is absent: the caller decides whether that is a 404. */
  board(month: string, country: string, industry: string): Promise<BoardView | null> {
    return this.#cache.json<BoardView>(viewPaths.board(month, country, industry));
  }

  company(slug: string): Promise<CompanyView | null> {
    return this.#cache.json<CompanyView>(viewPaths.company(slug));
  }

  changelog(): Promise<unknown> {
    return this.#required<unknown>(viewPaths.changelog());
  }

  /** A past month's company view from its shard; `null` when the company had no data that month. */
  async pastCompany(month: string, slug: string, shards: number): Promise<CompanyView | null> {
    const shard = await this.#cache.json<Record<string, CompanyView>>(viewPaths.companyShard(month, shardOf(slug, shards)));
    return shard?.[slug] ?? null;
  }

  /** A past month's search rankings (the build writes one per past month). */
  pastSearchRankings(month: string): Promise<SearchRankingsView> {
    return this.#required<SearchRankingsView>(viewPaths.monthSearchRankings(month));
  }

  search(): Promise<{ index: SearchIndex; rankings: SearchRankingsView }> {
    this.#search ??= Promise.all([
      this.#required<SerializedSearchIndex>(viewPaths.searchIndex()),
      this.#required<SearchRankingsView>(viewPaths.searchRankings()),
    ]).then(([serialized, rankings]) => {
      try {
        return { index: loadSearchIndex(serialized), rankings };
      } catch (cause) {
        throw new StoreError(viewPaths.searchIndex(), cause);
      }
    });
    this.#search.catch(() => (this.#search = null));
    return this.#search;
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
