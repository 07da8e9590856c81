/**
 * The routes of service-spec §4 with the open cases of data-and-rules §4.
 * Every body is shaped from the precomputed views; nothing is computed from raw data.
 */
import { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import type { Context } from 'hono';
import { cors } from 'hono/cors';
import { DEFAULT_COUNTRY, LIMITS } from '../core/policy.ts';
import type { CompanyProfile, SearchResponse } from '../core/schemas/responses.ts';
import { findCompanies } from '../core/search/index.ts';
import { foldKey, MONTH_RE, SLUG_RE } from '../core/text.ts';
import { OVERALL, OVERALL_LABEL, viewPaths } from '../core/views/layout.ts';
import type { BoardView, CompanyView, CountryRef, IndustryRef, MetaView } from '../core/views/layout.ts';
import type { BoardRows } from '../core/views/board-rows.ts';
import { compareBody, isProfileMiss, leadersBody, rankingsBody, searchBody, searchFilter, selectProfile } from '../core/views/shape.ts';
import { shapeView } from '../core/views/companies.ts';
import { ALL_ENDPOINTS, CACHE_POLICIES, MONTH_SCOPE, endpoint, routePath } from './endpoints.ts';
import { API_PREFIX, SEARCH_PAGE_PATH, fillPath, queryString, siteUrls } from '../core/urls.ts';
import type { QueryValues } from '../core/urls.ts';
import type { EndpointId } from './endpoints.ts';
import { ApiError, StoreError, badRequest, notFound } from './errors.ts';
import { ALLOW, ALLOWED_METHODS, EXPOSE_HEADERS, entity, errorResponse, htmlResponse, okResponse } from './http.ts';
import type { Entity } from './http.ts';
import { PromiseCache } from './promise-cache.ts';
import { packedStore } from './packed-store.ts';
import { SEARCH_PROMPT, SEARCH_TEMPLATE, searchPageHtml } from './search-page.ts';
import type { SearchOutcome } from './search-page.ts';
import { messages } from './messages.ts';
import {
  CompanyQuerySchema,
  CompareQuerySchema,
  LeadersQuerySchema,
  RankingsQuerySchema,
  SearchQuerySchema,
  parseParams,
  withSuggestions,
} from './params.ts';
import { MAX_SUGGESTIONS, closeMonths, closeValues } from '../core/suggest.ts';
import { ViewCache } from './store.ts';
import type { ViewStore } from './store.ts';
import { Views } from './views.ts';
import type { Catalog } from './views.ts';

export interface AppOptions {
  /** Where failures are reported; default `console.error`. */
  log?: (line: string) => void;
  /** Parsed views kept per instance (LRU), in bytes of their JSON text. */
  viewCacheBytes?: number;
  /** Serialized success bodies kept per instance (LRU, in bytes), keyed by their resolved parameters. */
  responseCacheBytes?: number;
}

const defaults = {
  log: (line: string) => console.error(line),
  // Safe within a Worker isolate's 128 MB; the Node server raises both.
  viewCacheBytes: 8 * 1024 * 1024,
  responseCacheBytes: 4 * 1024 * 1024,
} satisfies Required<AppOptions>;

/** Path of the OpenAPI document the build writes (served through the store). */
export const OPENAPI_PATH = endpoint('getOpenApi').static!.file;

/**
 * The Hono application answering every `/api` and `/api/v1` route.
 *
 * @example
 * const app = createApp(new MemoryStore({ 'views/meta.json': meta }));
 * const res = await app.request('/api/v1/health');
 */
export function createApp(store: ViewStore, options: AppOptions = {}): Hono {
  const opts = { ...defaults, ...options };
  const views = new Views(new ViewCache(packedStore(store), { maxBytes: opts.viewCacheBytes, log: opts.log }));
  const entities = new PromiseCache<Entity>(opts.responseCacheBytes);

  /** Views never change during an instance's life, so a body is serialized and hashed once per key. */
  async function cached(key: string, make: () => unknown | Promise<unknown>): Promise<Entity> {
    return entities.get(key, async () => entity(await make()), (done) => done.bytes.byteLength + key.length);
  }

  /** `cached` for month-dependent answers: the body is {@link answerBody}'s (a permalink; frozen at a month-addressed path). */
  async function cachedFor(c: Context, key: string, canon: Canonical, make: () => unknown | Promise<unknown>): Promise<Entity> {
    const cat = await views.catalog();
    const month = askedMonth.get(c) ?? cat.meta.month;
    canonicalOf.set(c, permanentPath(month, canon));
    const permanent = c.req.param('month') !== undefined;
    return cached(permanent ? `permanent|${key}` : key, async () => answerBody(cat.meta, month, canon, await make(), permanent));
  }

  /** One handler per entry of the endpoint table: the body; the route adds the headers of its cache policy. */
  const handlers: Record<EndpointId, (c: Context) => Promise<Entity>> = {
    // §4.1
    getIndex: () => cached('index', async () => (await views.catalog()).meta.index),

    // §4.2
    getHealth: () => cached('health', async () => (await views.catalog()).meta.health),

    // §4.3
    searchCompanies: async (c) => {
      const params = parseParams(SearchQuerySchema, c.req.query());
      const cat = await views.catalog();
      const country = params.country === undefined ? null : queryCountry(cat, params.country);
      const month = monthOf(cat, c, params.month);
      const canon = { below: '/search', query: { q: params.q, country: country?.code, limit: params.limit === LIMITS.search.default ? undefined : params.limit } };
      return cachedFor(c, `search|${month}|${params.limit}|${country?.code ?? ''}|${params.q}`, canon, async () => {
        const [index, rankings] = await Promise.all([views.searchIndex(), month === cat.meta.month ? views.searchRankings() : views.pastSearchRankings(month)]);
        const hits = findCompanies(index, params.q, { limit: params.limit, filter: searchFilter(rankings, country) });
        // With a country: is there a better match elsewhere? (the best hit among all ranked companies;
        // none when the first hit scores 1, the most there is: the answer names only a higher one)
        const elsewhere = country && (hits[0]?.score ?? 0) < 1 ? (findCompanies(index, params.q, { limit: 1, filter: searchFilter(rankings, null) })[0] ?? null) : null;
        await rankings.prepare([...hits, ...(elsewhere ? [elsewhere] : [])].map((hit) => hit.slug));
        return searchBody(cat.meta, params.q, hits, rankings, country, elsewhere);
      });
    },

    // §4.4
    getCompany: async (c) => {
      const params = parseParams(CompanyQuerySchema, c.req.query());
      const cat = await views.catalog();
      const country = params.country === undefined ? null : queryCountry(cat, params.country);
      const month = monthOf(cat, c, params.month);
      const slug = c.req.param('slug')!.trim().toLowerCase();
      return cachedFor(c, `company|${month}|${slug}|${country?.code ?? ''}`, companyCanon(slug, country?.code), async () => {
        const view = await companyView(cat, month, slug);
        if (!view) {
          const suggestions = await closeSlugs(slug);
          throw notFound(messages.unknownCompany(slug, suggestions), suggestions.length ? { suggestions } : {});
        }
        return pickProfile(cat, month, view, country);
      });
    },

    // §4.5
    getRankings: async (c) => {
      const params = parseParams(RankingsQuerySchema, c.req.query());
      const cat = await views.catalog();
      const country = queryCountry(cat, params.country);
      const month = monthOf(cat, c, params.month);
      const industry = params.industry === undefined ? overall : knownIndustry(cat, params.industry, 'industry');
      const { sort, page, limit } = params;
      const canon = {
        below: '/rankings',
        query: {
          industry: industry.slug === OVERALL ? undefined : industry.slug,
          country: country.code === DEFAULT_COUNTRY ? undefined : country.code,
          sort: sort === 'rank' ? undefined : sort,
          page: page === LIMITS.page.default ? undefined : page,
          limit: limit === LIMITS.rankings.default ? undefined : limit,
        },
      };
      return cachedFor(c, `rankings|${month}|${country.code}|${industry.slug}|${sort}|${page}|${limit}`, canon, async () => {
        const board = await requireBoard(cat, month, country, industry);
        return rankingsBody(cat.meta, board, { sort, page, limit });
      });
    },

    // §4.6
    getLeaders: async (c) => {
      const params = parseParams(LeadersQuerySchema, c.req.query());
      const { limit } = params;
      const cat = await views.catalog();
      const industry = knownIndustry(cat, c.req.param('industry')!, 'industry');
      const country = cat.countryByKey.get(foldKey(c.req.param('country')!));
      if (!country) throw unknownCountry(cat, c.req.param('country')!, notFound);
      const month = monthOf(cat, c, params.month);
      const canon = { below: `/rankings/${industry.slug}/${country.code}`, query: { limit: limit === LIMITS.leaders.default ? undefined : limit } };
      return cachedFor(c, `leaders|${month}|${country.code}|${industry.slug}|${limit}`, canon, async () => {
        const board = await requireBoard(cat, month, country, industry);
        return leadersBody(cat.meta, board, limit);
      });
    },

    // §4.7
    compareCompanies: async (c) => {
      const params = parseParams(CompareQuerySchema, c.req.query());
      const slugs = [
        ...new Set(
          params.companies
            .split(',')
            .map((s) => s.trim().toLowerCase())
            .filter((s) => s !== ''),
        ),
      ];
      if (slugs.length === 0) throw badRequest(messages.compareMissing, { parameter: 'companies' });
      if (slugs.length < LIMITS.compare.min || slugs.length > LIMITS.compare.max) {
        throw badRequest(messages.compareCount(slugs.length), { parameter: 'companies' });
      }
      const cat = await views.catalog();
      const country = params.country === undefined ? null : queryCountry(cat, params.country);
      const month = monthOf(cat, c, params.month);
      return cachedFor(c, `compare|${month}|${country?.code ?? ''}|${slugs.join(',')}`, { below: '/compare', query: { companies: slugs, country: country?.code } }, async () => {
        const found = await Promise.all(slugs.map((slug) => companyView(cat, month, slug)));
        const unknown = slugs.filter((_, i) => !found[i]);
        if (unknown.length > 0) throw notFound(messages.compareUnknown(unknown), { parameter: 'companies', unknown });
        return compareBody(cat.meta, month, (found as CompanyView[]).map((view) => pickProfile(cat, month, view, country)));
      });
    },

    getChangelog: () => cached('changelog', () => views.changelog()),

    getOpenApi: () =>
      cached('openapi', async () => {
        const text = await views.text(OPENAPI_PATH);
        if (text === null) throw notFound(messages.openapiMissing);
        return text;
      }),
  };

  // TrieRouter, not the default SmartRouter: the default's RegExpRouter compiles every route
  // into one expression on the first request, ~2 ms of CPU that a fresh Worker instance pays
  // on its first request (bench:worker); the trie is built as routes are added.
  const api = new Hono({ strict: false, router: new TrieRouter() });
  for (const e of ALL_ENDPOINTS) {
    const cacheControl = CACHE_POLICIES[e.cache];
    const handle = handlers[(e.handler ?? e.id) as EndpointId];
    api.get(routePath(e), async (c) => {
      const entity = await handle(c);
      // A corrected month's permanent answers name the correction (the changelog says what
      // changed) and are cached like current answers: caches that kept the answer before the
      // correction learn of it within the hour, not the year.
      const corrected = e.cache === 'month' ? (await views.catalog()).meta.corrected?.[c.req.param('month') ?? ''] : undefined;
      const response = okResponse(entity, corrected ? CACHE_POLICIES.release : cacheControl);
      if (corrected) {
        response.headers.set('EVI-Corrected', corrected);
        response.headers.set('Link', `<${siteUrls((await views.catalog()).meta.siteUrl).origin}${API_PREFIX}/changelog>; rel="corrections"`);
      }
      // A current answer names its permanent copy: the month-addressed form of the same request.
      const canonical = e.monthScoped && e.cache !== 'month' ? canonicalOf.get(c) : undefined;
      if (canonical) response.headers.set('Link', `<${canonical}>; rel="canonical"`);
      return response;
    });
  }

  /**
   * A company's view in a month; `null` for a slug not in the registry. Only well-formed
   * slugs reach the store (no path outside the views can be named). A past month's
   * shard holds only the companies with data that month: the others get a view
   * without profiles, which answers "no data in that month".
   */
  async function companyView(cat: Catalog, month: string, slug: string): Promise<CompanyView | null> {
    if (!SLUG_RE.test(slug)) return null;
    const current = await views.company(slug);
    if (!current || month === cat.meta.month) return current;
    const past = await views.pastRecord(month, slug, cat.meta.companyShards);
    if (!past) return { ...current, defaultCountry: null, profiles: {} };
    return shapeView(current, past.record, past.tables, cat.pastSite);
  }

  /** Up to 5 companies whose name is close to a slug that is not one (its words searched as a name). */
  async function closeSlugs(slug: string): Promise<string[]> {
    const words = slug.replace(/[^a-z0-9]+/gi, ' ').trim();
    if (words === '') return [];
    const index = await views.searchIndex();
    return findCompanies(index, words.slice(0, LIMITS.searchQuery), { limit: MAX_SUGGESTIONS }).map((hit) => hit.slug);
  }

  async function requireBoard(cat: Catalog, month: string, country: CountryRef, industry: IndustryRef): Promise<BoardView | BoardRows> {
    const available = cat.meta.boards[month]?.[country.code] ?? [];
    const exists = industry.slug === OVERALL ? available.length > 0 : available.includes(industry.slug);
    if (!exists) throw notFound(messages.noBoard(industry.name, country.name, month));
    const board = await views.board(month, country.code, industry.slug);
    if (!board) throw new StoreError(viewPaths.board(month, country.code, industry.slug), new Error('listed in meta.json but missing'));
    return board;
  }

  const app = new Hono({ strict: false, router: new TrieRouter() });
  // Every response builder sets the CORS headers itself; Hono's CORS middleware answers the preflight.
  // Other requests skip it: touching `c.res` before the route would make Hono copy every response.
  const preflight = cors({ origin: '*', allowMethods: [...ALLOWED_METHODS], exposeHeaders: EXPOSE_HEADERS, maxAge: 86400 });
  app.use(async (c, next) => {
    if (c.req.method !== 'OPTIONS') return next();
    c.res.headers.set('Allow', ALLOW);
    return preflight(c, next);
  });
  app.use(async (c, next) => {
    if (!(ALLOWED_METHODS as readonly string[]).includes(c.req.method)) {
      throw new ApiError(405, 'method_not_allowed', messages.methodNotAllowed(c.req.method));
    }
    await next();
  });
  // Validators (If-None-Match, 304) are answered around the app, with the kept answers (service.ts).
  app.route('/api/v1', api);
  app.route('/api', api);
  // The search results page for browsers without JavaScript: the search endpoint's body as HTML.
  app.get(SEARCH_PAGE_PATH, async (c) => {
    const q = (c.req.query('q') ?? '').trim();
    let outcome: SearchOutcome = { message: SEARCH_PROMPT };
    let status = 200;
    if (q) {
      try {
        outcome = { body: JSON.parse(new TextDecoder().decode((await handlers.searchCompanies(c)).bytes)) as SearchResponse };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        outcome = { message: error.message };
        status = error.status;
      }
    }
    return htmlResponse(searchPageHtml(await views.text(SEARCH_TEMPLATE), q, c.req.query('country')?.trim() || undefined, outcome), status);
  });
  app.notFound((c) => errorResponse(notFound(messages.notFoundPath(c.req.path))));
  app.onError((error, c) => toErrorResponse(error, c, opts.log));
  return app;
}

const overall: IndustryRef = { name: OVERALL_LABEL, slug: OVERALL };

/** A body with `lastUpdated` set to `date`, at the top and in each compared profile (keys keep their order). */
function freeze(body: Record<string, unknown>, date: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  if ('lastUpdated' in out) out.lastUpdated = date;
  if (Array.isArray(out.companies)) out.companies = (out.companies as Record<string, unknown>[]).map((p) => ({ ...p, lastUpdated: date }));
  return out;
}

/**
 * The month a request asks for: the `{month}` of a month-addressed path, else the
 * `month` parameter, else the current month; one not in the dataset is a 404 with
 * `validMonths` (data-and-rules §4).
 */
function monthOf(cat: Catalog, c: Context, asked: string | undefined): string {
  const month = c.req.param('month') ?? asked ?? cat.meta.month;
  if (!MONTH_RE.test(month)) {
    const suggestions = closeMonths(month, cat.meta.months);
    throw badRequest(messages.badMonth(month, suggestions), withSuggestions({ parameter: 'month' }, suggestions));
  }
  if (!cat.meta.months.includes(month)) {
    const suggestions = closeMonths(month, cat.meta.months);
    throw notFound(messages.unknownMonth(month, suggestions), withSuggestions({ parameter: 'month', validMonths: cat.meta.months }, suggestions));
  }
  askedMonth.set(c, month);
  return month;
}

/** The month each request was answered for. */
const askedMonth = new WeakMap<Context, string>();
/** The root-relative permanent path of each month-dependent answer (its Link rel=canonical and `permalink`). */
const canonicalOf = new WeakMap<Context, string>();

/** The month-addressed form of a request: the path below the month, and the resolved parameters that differ from their defaults. */
export interface Canonical {
  below: string;
  query: QueryValues;
}

/** The root-relative path of an answer's permanent copy (its `permalink` on the origin, its Link rel=canonical): the same for every spelling of the request. */
export function permanentPath(month: string, canon: Canonical): string {
  return `${API_PREFIX}${fillPath(MONTH_SCOPE, { month })}${canon.below}${queryString(canon.query)}`;
}

/**
 * A month-dependent answer's body as the handler serves it: the shaped `body` with its
 * `permalink`. At a month-addressed path (`permanent`) the answer is the permanent copy:
 * its `lastUpdated` (and its profiles') is the month's first publication date from the
 * release ledger, so the bytes stay the same from one release to the next; the current
 * forms keep the release's date (data-and-rules §4).
 */
export function answerBody(meta: MetaView, month: string, canon: Canonical, body: unknown, permanent: boolean): Record<string, unknown> {
  const withLink = { ...(body as Record<string, unknown>), permalink: permalinkOf(meta, month, canon) };
  const date = permanent ? meta.released?.[month] : undefined;
  return date ? freeze(withLink, date) : withLink;
}

/** An answer's `permalink`: the absolute URL of its permanent copy. */
export const permalinkOf = (meta: MetaView, month: string, canon: Canonical): string => `${siteUrls(meta.siteUrl).origin}${permanentPath(month, canon)}`;

/** The month-addressed form of GET /company/{slug}?country={code}. */
export const companyCanon = (slug: string, country: string | undefined): Canonical => ({ below: `/company/${slug}`, query: { country } });

/**
 * The body of GET /company/{slug}?country={code} (`country` null: no parameter) in the
 * current month, from the company's current view: what the handler answers, shaped by the
 * same functions, for the build to write without a request per company (the static files,
 * the profiles download). Null where the handler answers 404 (no profile to pick).
 * `permanent`: the month-addressed form's body (`/months/{month}/company/{slug}`).
 */
export function currentCompanyAnswer(meta: MetaView, view: CompanyView, country: string | null, permanent = false): Record<string, unknown> | null {
  const picked = selectProfile(view, country);
  return isProfileMiss(picked) ? null : answerBody(meta, meta.month, companyCanon(view.slug, country ?? undefined), picked, permanent);
}

/** data-and-rules §4: an unknown country in a query parameter is a 400. */
function queryCountry(cat: Catalog, value: string): CountryRef {
  const country = cat.countryByKey.get(foldKey(value));
  if (!country) throw unknownCountry(cat, value, badRequest);
  return country;
}

/** The error for a country that is none (a 400 in a query parameter, a 404 in a path), with the close ones. */
function unknownCountry(cat: Catalog, value: string, as: typeof badRequest): ApiError {
  const suggestions = closeValues(value, cat.meta.countries.map((c) => [c.name, c.code, ...c.aliases]));
  return as(messages.badCountry(value, suggestions), withSuggestions({ parameter: 'country', validCountries: cat.validCountries }, suggestions));
}

/** data-and-rules §4: an unknown industry is a 404 with the valid names and slugs. */
function knownIndustry(cat: Catalog, value: string, parameter: string): IndustryRef {
  const industry = cat.industryByKey.get(foldKey(value));
  if (!industry) {
    const suggestions = closeValues(value, cat.meta.industries.map((i) => [i.name, i.slug]));
    throw notFound(messages.unknownIndustry(value, suggestions), withSuggestions({ parameter, validIndustries: cat.validIndustries }, suggestions));
  }
  return industry;
}

/** data-and-rules §4: the asked country, else the company's default country; a 404 when there is none. */
function pickProfile(cat: Catalog, month: string, view: CompanyView, country: CountryRef | null): CompanyProfile {
  const picked = selectProfile(view, country?.code ?? null);
  if (!isProfileMiss(picked)) return picked;
  const { company, countries } = picked;
  const past = month === cat.meta.month ? null : month;
  if (!country) throw notFound(messages.companyNoData(company, past), { countries });
  const message = picked.reason === 'no-data' ? messages.companyNoData(company, past) : messages.companyNotInCountry(company, country.name, countries, past);
  throw notFound(message, { parameter: 'country', countries });
}

function toErrorResponse(error: unknown, c: Context, log: (line: string) => void): Response {
  if (error instanceof ApiError) return errorResponse(error);
  const path = c.req.path;
  if (error instanceof StoreError) {
    if (!error.reported) log(`[api] ${c.req.method} ${path}: ${error.message}`);
    return errorResponse(new ApiError(502, 'internal', messages.internal));
  }
  log(`[api] ${c.req.method} ${path}: unexpected ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return errorResponse(new ApiError(500, 'internal', messages.unexpected));
}
