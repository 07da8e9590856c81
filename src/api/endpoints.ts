/**
 * The endpoint table: every endpoint of service-spec §4 once, with its method, path,
 * parameter and response schemas, error cases, texts, example, cache policy and the
 * static file that answers its default form. The Hono routes (`app.ts`), the OpenAPI
 * document (`src/api/openapi.ts`), the index's `endpoints` and `links`, the static
 * default files and the host rewrites are all derived from it.
 *
 * Adding an endpoint: one entry here, its schemas (`params.ts`, `responses.ts`), its
 * handler in `app.ts` (the compiler asks for it) and its tests.
 */
import type { z } from 'zod';
import { CACHE_IMMUTABLE, CACHE_SUCCESS, DEFAULT_DEPLOY } from '../core/policy.ts';
import type { DeployTarget } from '../core/policy.ts';
import {
  ChangelogResponseSchema,
  CompanyProfileSchema,
  CompareResponseSchema,
  HealthResponseSchema,
  IndexResponseSchema,
  LeadersResponseSchema,
  RankingsResponseSchema,
  SearchResponseSchema,
} from '../core/schemas/responses.ts';
import type { IndexResponse } from '../core/schemas/responses.ts';
import { API_PREFIX, API_PREFIX_UNVERSIONED, fillPath, siteUrls } from '../core/urls.ts';
import type { QueryValues, SiteUrls } from '../core/urls.ts';
import type { ApiDescription, MetaView } from '../core/views/layout.ts';
import {
  ChangelogQuerySchema,
  MonthPathSchema,
  CompanyPathSchema,
  CompanyQuerySchema,
  CompareQuerySchema,
  HealthQuerySchema,
  IndexQuerySchema,
  LeadersPathSchema,
  LeadersQuerySchema,
  OpenApiQuerySchema,
  RankingsQuerySchema,
  SearchQuerySchema,
} from './params.ts';

/** The error answers of service-spec §7 an endpoint can give (405 and 500 apply to every path). */
export type ErrorStatus = 400 | 404 | 429 | 502;

/**
 * How long an answer may be kept: `release` answers change with the next monthly build;
 * `month` answers name their month in the path and never change (service-spec §9,
 * the frozen months of the release ledger).
 */
export const CACHE_POLICIES = {
  release: CACHE_SUCCESS,
  month: CACHE_IMMUTABLE,
} as const;
export type CachePolicy = keyof typeof CACHE_POLICIES;

/** Real values from the data, from which each endpoint's example request is made. */
export type Examples = MetaView['examples'] & { month: string };

/** What the build knows when it enumerates the static default files. */
export interface StaticContext {
  meta: MetaView;
  /** Every company slug of the registry. */
  slugs: Iterable<string>;
}

export interface StaticForm {
  /**
   * File under `dist/` with `{name}` placeholders filled from the path parameters.
   * Its body is the handler's answer to the parameter-less request (`from: 'handler'`),
   * or the file is the source the handler serves (`from: 'build'`, the OpenAPI document).
   */
  file: string;
  from: 'handler' | 'build';
  /** The path-parameter values to write a file for; one empty set when the path has none. A 404 writes no file. */
  instances?: (ctx: StaticContext) => Iterable<Record<string, string>>;
}

export interface Endpoint {
  /** OpenAPI operationId, and the key of the endpoint's handler. */
  id: string;
  method: 'GET';
  /** Path below the API prefix, OpenAPI style (`/company/{slug}`); `''` is the prefix itself. */
  path: string;
  /** Key of the example URL in the index's `links` (service-spec §2.1); none for the month-addressed forms. */
  link?: keyof IndexResponse['links'];
  /** The entry whose handler answers (a month-addressed form answers like its current form). */
  handler?: EndpointId;
  /** Also answers at `/months/{month}` + its path, with that month's data and the `month` cache policy. */
  monthScoped?: boolean;
  summary: string;
  /** One line: the index's `endpoints` text and the start of the OpenAPI description. */
  description: string;
  pathParams?: z.ZodObject;
  query: z.ZodObject;
  /** Success body; null for the OpenAPI document (a document of its own kind). */
  response: z.ZodObject | null;
  errors: readonly ErrorStatus[];
  /** Parameters of the example request: path ones fill the path, the others form the query. */
  example: (ex: Examples) => QueryValues;
  cache: CachePolicy;
  /** How a pure static host answers the parameter-less form, or null when it cannot. */
  static: StaticForm | null;
}

/** service-spec §4, in its order. */
export const ENDPOINTS = [
  {
    id: 'getIndex',
    method: 'GET',
    path: '',
    link: 'self',
    summary: 'Dataset index',
    description: 'Dataset index: valid industries, countries and months, methodology, example links.',
    query: IndexQuerySchema,
    response: IndexResponseSchema,
    errors: [429, 502],
    example: () => ({}),
    cache: 'release',
    static: { file: 'api/v1/index.json', from: 'handler' },
  },
  {
    id: 'getHealth',
    method: 'GET',
    path: '/health',
    link: 'health',
    summary: 'Health',
    description: 'Liveness and freshness check.',
    query: HealthQuerySchema,
    response: HealthResponseSchema,
    errors: [429, 502],
    example: () => ({}),
    cache: 'release',
    static: { file: 'api/v1/health.json', from: 'handler' },
  },
  {
    id: 'searchCompanies',
    monthScoped: true,
    method: 'GET',
    path: '/search',
    link: 'search',
    summary: 'Search companies',
    description: "Find companies by approximate name (q, country, limit 1-20) with each one's latest ranking.",
    query: SearchQuerySchema,
    response: SearchResponseSchema,
    errors: [400, 429, 502],
    example: (ex) => ({ q: ex.search }),
    cache: 'release',
    static: null,
  },
  {
    id: 'getCompany',
    monthScoped: true,
    method: 'GET',
    path: '/company/{slug}',
    link: 'company',
    summary: 'Company profile',
    description: 'Company profile: score, ranks, model and theme scores, other industries, history (country).',
    pathParams: CompanyPathSchema,
    query: CompanyQuerySchema,
    response: CompanyProfileSchema,
    errors: [400, 404, 429, 502],
    example: (ex) => ({ slug: ex.company }),
    cache: 'release',
    static: { file: 'api/v1/company/{slug}.json', from: 'handler', instances: ({ slugs }) => [...slugs].map((slug) => ({ slug })) },
  },
  {
    id: 'getRankings',
    monthScoped: true,
    method: 'GET',
    path: '/rankings',
    link: 'rankings',
    summary: 'Leaderboard',
    description: 'Leaderboards (industry, country, month, limit 1-100, page, sort: rank|score|mentions|name|change).',
    query: RankingsQuerySchema,
    response: RankingsResponseSchema,
    errors: [400, 404, 429, 502],
    example: (ex) => ({ industry: ex.industry, country: ex.country }),
    cache: 'release',
    static: { file: 'api/v1/rankings.json', from: 'handler' },
  },
  {
    id: 'getLeaders',
    monthScoped: true,
    method: 'GET',
    path: '/rankings/{industry}/{country}',
    link: 'leaders',
    summary: 'Compact leaders',
    description: 'Compact current leaders of one industry and country (limit, default 10).',
    pathParams: LeadersPathSchema,
    query: LeadersQuerySchema,
    response: LeadersResponseSchema,
    errors: [400, 404, 429, 502],
    example: (ex) => ({ industry: ex.industry, country: ex.country }),
    cache: 'release',
    static: {
      file: 'api/v1/rankings/{industry}/{country}.json',
      from: 'handler',
      instances: function* ({ meta }) {
        for (const [country, industries] of Object.entries(meta.boards[meta.month] ?? {}))
          for (const industry of industries) yield { industry, country };
      },
    },
  },
  {
    id: 'compareCompanies',
    monthScoped: true,
    method: 'GET',
    path: '/compare',
    link: 'compare',
    summary: 'Compare companies',
    description: 'Side-by-side profiles of 2 to 5 companies (companies=slug,slug; country).',
    query: CompareQuerySchema,
    response: CompareResponseSchema,
    errors: [400, 404, 429, 502],
    example: (ex) => ({ companies: ex.compare }),
    cache: 'release',
    static: null,
  },
  {
    id: 'getChangelog',
    method: 'GET',
    path: '/changelog',
    link: 'changelog',
    summary: 'Releases and corrections',
    description: 'Every monthly release (date, counts, companies added and removed, methodology version) and every correction to a published month; also as an Atom feed at /feed.xml.',
    query: ChangelogQuerySchema,
    response: ChangelogResponseSchema,
    errors: [429, 502],
    example: () => ({}),
    cache: 'release',
    static: { file: 'api/v1/changelog.json', from: 'handler' },
  },
  {
    id: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    link: 'openapi',
    summary: 'OpenAPI document',
    description: 'OpenAPI 3.1 description of this API.',
    query: OpenApiQuerySchema,
    response: null,
    errors: [429, 502],
    example: () => ({}),
    cache: 'release',
    static: { file: 'api/v1/openapi.json', from: 'build' },
  },
] as const satisfies readonly Endpoint[];

export type EndpointId = (typeof ENDPOINTS)[number]['id'];

/** `/months/{month}`: the prefix of every month-addressed path. */
export const MONTH_SCOPE = '/months/{month}';

/**
 * The month-addressed form of each month-scoped entry (issue of immutable month URLs):
 * the same parameters less `month`, which moves into the path; the same handler; the
 * `month` cache policy; no static form (a static file per month and company would
 * exceed a static host's file limit, so the function answers them, once per CDN).
 */
export const MONTH_ENDPOINTS: readonly Endpoint[] = (ENDPOINTS as readonly Endpoint[])
  .filter((e) => e.monthScoped)
  .map((e) => ({
    ...e,
    id: `${e.id}ForMonth`,
    handler: e.id as EndpointId,
    link: undefined,
    monthScoped: false,
    path: `${MONTH_SCOPE}${e.path}`,
    summary: `${e.summary} (one month, permanent URL)`,
    description: `${e.description} For the month in the path; the answer never changes, so it may be cached for a year.`,
    pathParams: MonthPathSchema.extend(e.pathParams?.shape ?? {}),
    query: e.query.omit({ month: true }),
    example: (ex: Examples) => ({ month: ex.month, ...e.example(ex) }),
    cache: 'month' as const,
    static: null,
  }));

/** Every endpoint the handler answers: the table, then the month-addressed forms. */
export const ALL_ENDPOINTS: readonly Endpoint[] = [...(ENDPOINTS as readonly Endpoint[]), ...MONTH_ENDPOINTS];

const placeholders = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** The table entry of an id. */
export function endpoint(id: EndpointId): Endpoint {
  return ENDPOINTS.find((e) => e.id === id)!;
}

/** Versioned public path in OpenAPI style: `/api/v1/company/{slug}`. */
export const versionedPath = (e: Endpoint): string => `${API_PREFIX}${e.path}`;
/** Unversioned public path (service-spec §9: equivalent): `/api/company/{slug}`. */
export const unversionedPath = (e: Endpoint): string => `${API_PREFIX_UNVERSIONED}${e.path}`;
/** Route pattern below the prefix, in Hono's (and most routers') style: `/company/:slug`. */
export const routePath = (e: Endpoint): string => e.path.replace(/\{([^}]+)\}/g, ':$1') || '/';

/**
 * The URL of a request to an endpoint: path parameters fill the path, the others
 * become the query (in the order given).
 * @example endpointUrl(urls, endpoint('getLeaders'), { industry: 'retail', country: 'us', limit: 3 })
 * // 'https://…/api/v1/rankings/retail/us?limit=3'
 */
export function endpointUrl(urls: SiteUrls, e: Endpoint, params: QueryValues = {}): string {
  const inPath = new Set(placeholders(e.path));
  const query: QueryValues = {};
  for (const [name, value] of Object.entries(params)) if (!inPath.has(name)) query[name] = value;
  return urls.api(fillPath(e.path, params), query);
}

/** Whether a deployment runs the function: every target but `static`. */
export const runsFunction = (target: DeployTarget): boolean => target !== 'static';

/** The deployment a build's index describes (`deployment` is written only for `static`). */
export const deploymentOf = (index: Pick<IndexResponse, 'deployment'>): DeployTarget => index.deployment?.target ?? DEFAULT_DEPLOY;

/**
 * The endpoints a deployment answers: all of them (the month-addressed forms included)
 * where the function runs; on a static host only those with a static form (`staticForm`).
 */
export function servedEndpoints(target: DeployTarget): readonly Endpoint[] {
  return runsFunction(target) ? ALL_ENDPOINTS : ALL_ENDPOINTS.filter((e) => staticForm(e, target));
}

/** The parameters a deployment answers: on a static host only the path ones (files know no query). */
export function answeredParams(e: Endpoint, params: QueryValues, target: DeployTarget): QueryValues {
  if (runsFunction(target)) return params;
  const inPath = new Set(placeholders(e.path));
  return Object.fromEntries(Object.entries(params).filter(([name]) => inPath.has(name)));
}

/** The ready-to-run example request of an endpoint, on real data, in a form the deployment answers. */
export function exampleUrl(urls: SiteUrls, e: Endpoint, examples: Examples, target: DeployTarget = DEFAULT_DEPLOY): string {
  return endpointUrl(urls, e, answeredParams(e, e.example(examples), target));
}

/** Example values of the dataset, as the table's examples read them. */
export function examplesOf(meta: Pick<MetaView, 'examples' | 'month'>): Examples {
  return { ...meta.examples, month: meta.month };
}

/**
 * The index's `links` (service-spec §2.1): one ready-to-call URL per endpoint the
 * deployment answers, then the documentation.
 * @example indexLinks(siteUrls(origin), examples).leaders // 'https://…/api/v1/rankings/aerospace/us'
 */
export function indexLinks(urls: SiteUrls, examples: Examples, target: DeployTarget = DEFAULT_DEPLOY): IndexResponse['links'] {
  const links: Partial<IndexResponse['links']> = {};
  const served = new Set(servedEndpoints(target));
  for (const e of ENDPOINTS as readonly Endpoint[]) if (e.link && served.has(e)) links[e.link] = exampleUrl(urls, e, examples, target);
  links.feed = urls.feed;
  links.downloads = urls.downloads;
  links.documentation = urls.docs;
  return links as IndexResponse['links'];
}

/** The index's `endpoints` (service-spec §2.1): "METHOD path" -> description, of what the deployment answers. */
export function indexEndpoints(target: DeployTarget = DEFAULT_DEPLOY): Record<string, string> {
  return Object.fromEntries(servedEndpoints(target).map((e) => [`${e.method} ${versionedPath(e)}`, runsFunction(target) ? e.description : `${e.summary}, in its default form only.`]));
}

/**
 * Whether the deployment an index describes answers a URL the build made: where the function
 * runs, every one; on a static host only the path forms, which carry no query (a query form
 * would get the default file: other data than asked). Pages link an API URL only when it holds.
 */
export const answeredHere = (index: Pick<IndexResponse, 'deployment'>, url: string): boolean => runsFunction(deploymentOf(index)) || !url.includes('?');

/** What a deployment without the function says about itself, plainly (index, llms.txt, docs, OpenAPI). */
export const STATIC_NOTE =
  'This deployment serves static files only: query parameters are not answered (a query-parameter form returns the default answer or an error, never the filtered data), and search, compare and past months are absent (the current month’s permanent URLs are files too). ' +
  'Use the path forms listed here; the full API runs wherever the function is deployed (Node server, Cloudflare Worker or Pages).';

/** The index's `deployment`: present only for a static deployment. */
export function deploymentNote(target: DeployTarget): IndexResponse['deployment'] {
  return runsFunction(target) ? undefined : { target, queryParameters: false, note: STATIC_NOTE };
}

/** What the core's index builder needs from the table for one deployment (the core may not import the api layer). */
export function apiDescriptionFor(target: DeployTarget): ApiDescription {
  return {
    links: (urls, examples, month) => indexLinks(urls, { ...examples, month }, target),
    endpoints: () => indexEndpoints(target),
    deployment: deploymentNote(target),
  };
}

/** The description of a deployment that runs the function (the default). */
export const apiDescription: ApiDescription = apiDescriptionFor(DEFAULT_DEPLOY);

/** One static default file: where it goes and the request whose answer it holds. */
export interface StaticFile {
  endpoint: Endpoint;
  file: string;
  /** Absolute request URL, on the site origin. */
  url: string;
}

/**
 * The static form of an endpoint on a deployment. Where the function runs, only the table's
 * own (the default answers). On a static host also each month-addressed form of an entry
 * that has one, for the current month only (`/api/v1/months/{month}/company/{slug}.json`):
 * the `permalink` and `Link` of every static answer name that URL, so it must answer there.
 */
export function staticForm(e: Endpoint, target: DeployTarget): StaticForm | null {
  if (e.static || runsFunction(target) || !e.handler) return e.static;
  const base = endpoint(e.handler);
  if (!base.static || !e.path.startsWith(MONTH_SCOPE)) return null;
  return {
    file: base.static.file.replace(/^api\/v1\//, `api/v1${MONTH_SCOPE}/`),
    from: base.static.from,
    instances: function* (ctx) {
      for (const params of base.static!.instances?.(ctx) ?? [{}]) yield { ...params, month: ctx.meta.month };
    },
  };
}

/** The endpoints that have a static form on a deployment, in table order then the month forms. */
const withStaticForm = (target: DeployTarget) => ALL_ENDPOINTS.flatMap((e) => (staticForm(e, target) ? [{ e, form: staticForm(e, target)! }] : []));

/**
 * Every static file of the build, in table order. Files `from: 'handler'` are written with
 * the handler's answer to `url`, so a static host and the function answer the same bytes.
 */
export function* staticFiles(ctx: StaticContext, target: DeployTarget = DEFAULT_DEPLOY): Generator<StaticFile> {
  const urls = siteUrls(ctx.meta.siteUrl);
  for (const { e, form } of withStaticForm(target)) {
    for (const params of form.instances?.(ctx) ?? [{}]) {
      yield { endpoint: e, file: fillPath(form.file, params), url: endpointUrl(urls, e, params) };
    }
  }
}

/** A host rewrite: a public path pattern (`:name` segments) -> the static file pattern that answers it. */
export interface StaticRewrite {
  from: string;
  to: string;
  /** The versioned public path pattern `from` is a spelling of. */
  canonical: string;
  endpoint: Endpoint;
}

/**
 * The rewrites a static host needs so that every public path of an endpoint with a
 * static form reaches its file: versioned and unversioned, each with and without a
 * trailing slash. For `_redirects` and `serve.json`.
 */
export function staticRewrites(target: DeployTarget = DEFAULT_DEPLOY): StaticRewrite[] {
  const out: StaticRewrite[] = [];
  const colon = (p: string) => p.replace(/\{([^}]+)\}/g, ':$1');
  for (const prefix of [API_PREFIX, API_PREFIX_UNVERSIONED])
    for (const { e, form } of withStaticForm(target)) {
      const to = `/${colon(form.file)}`;
      // service-spec §4: a trailing slash names the same resource (the function ignores it).
      const canonical = `${API_PREFIX}${colon(e.path)}`;
      out.push({ from: `${prefix}${colon(e.path)}`, to, canonical, endpoint: e }, { from: `${prefix}${colon(e.path)}/`, to, canonical, endpoint: e });
    }
  return out;
}
