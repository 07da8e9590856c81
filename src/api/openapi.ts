/**
 * The OpenAPI 3.1 document of service-spec §4, generated from the zod schemas of
 * the parameters (`src/api/params.ts`) and of the responses (`schemas/responses.ts`,
 * whose `.meta({ id })` become `components/schemas`). Example values come from the
 * data (meta.examples), so every example URL answers. Pure: data in, document out.
 */
import { z } from 'zod';
import { ALL_ENDPOINTS, STATIC_NOTE, deploymentOf, exampleUrl, examplesOf, runsFunction, servedEndpoints, versionedPath } from './endpoints.ts';
import type { Endpoint, ErrorStatus } from './endpoints.ts';
import { messages } from './messages.ts';
import { LIMITS, RATE_LIMIT_PER_MINUTE } from '../core/policy.ts';
import { TEXT_LIMITS } from '../core/schemas/rows.ts';
import { MONTH_RE } from '../core/text.ts';
import { OVERALL } from '../core/views/layout.ts';
import { ErrorResponseSchema } from '../core/schemas/responses.ts';
import { siteUrls } from '../core/urls.ts';
import type { ErrorResponse } from '../core/schemas/responses.ts';
import type { MetaView } from '../core/views/layout.ts';

export type JsonSchema = Record<string, unknown>;

export interface ParamDoc {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  /** JSON Schema of the accepted input (type, default, minimum, maximum, enum). */
  schema: JsonSchema;
  /** A real value from the data. */
  example?: string;
}

export interface EndpointDoc {
  operationId: string;
  method: 'GET';
  path: string;
  summary: string;
  description: string;
  parameters: ParamDoc[];
  /** Id of the success body in components/schemas; null for the OpenAPI document itself. */
  response: string | null;
  errors: ErrorStatus[];
  /** Ready-to-run URL built from SITE_URL and real data. */
  exampleUrl: string;
}

const RATE_LIMIT = RATE_LIMIT_PER_MINUTE;
const COMPONENT = '#/components/schemas/';

type ZodObject = z.ZodObject;

const TABLE = ALL_ENDPOINTS;

const idOf = (schema: z.ZodType): string => {
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id !== 'string') throw new Error('openapi: a response schema has no .meta({ id })');
  return id;
};

/** Real example values for parameters, by name. */
function exampleValues(meta: MetaView): Record<string, string> {
  const e = meta.examples;
  return { q: e.search, slug: e.company, industry: e.industry, country: e.country, month: meta.month, companies: e.compare.join(',') };
}

/** What the build knows about a parameter's valid values, by name (service-spec §4, data-and-rules §4). */
function constraints(meta: MetaView, name: string): JsonSchema {
  const codes = meta.countries.map((c) => c.code);
  const slugs = meta.industries.map((i) => i.slug);
  switch (name) {
    case 'country':
      return { maxLength: TEXT_LIMITS.country, examples: codes };
    case 'industry':
      return { maxLength: TEXT_LIMITS.industry, examples: [...slugs, OVERALL] };
    case 'month':
      return { pattern: MONTH_RE.source, examples: [...meta.months].reverse() };
    case 'slug':
      return { minLength: 1, maxLength: TEXT_LIMITS.slug, pattern: '^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$' };
    case 'companies':
      return { minLength: 1, maxLength: LIMITS.compare.max * (TEXT_LIMITS.slug + 1) };
    default:
      return {};
  }
}

/** Blank-as-absent (data-and-rules §4), said once per optional parameter. */
const BLANK = ' An empty value counts as absent.';

function paramDocs(meta: MetaView, schema: ZodObject, where: 'path' | 'query', examples: Record<string, string>): ParamDoc[] {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(props).map(([name, raw]) => {
    const { description, example, ...rest } = raw;
    const real = examples[name] ?? (example === undefined ? undefined : String(example));
    const isRequired = where === 'path' || required.has(name);
    const text = String(description ?? '') + (isRequired ? '' : BLANK);
    const doc: ParamDoc = { name, in: where, required: isRequired, description: text, schema: { ...rest, ...constraints(meta, name) } };
    if (real) doc.example = real;
    return doc;
  });
}

/**
 * Every endpoint with its parameters and a ready-to-run example URL: what the
 * OpenAPI document and the /api-docs/ page are both made of.
 * @example
 * endpointDocs(meta).map((e) => `${e.method} ${e.path}`); // ['GET /api/v1', 'GET /api/v1/health', ...]
 */
export function endpointDocs(meta: MetaView): EndpointDoc[] {
  const examples = exampleValues(meta);
  const urls = siteUrls(meta.siteUrl);
  // A static deployment documents what its files answer: the endpoints with a static form, path parameters only.
  const target = deploymentOf(meta.index);
  const query = runsFunction(target);
  return servedEndpoints(target).map((e) => ({
    operationId: e.id,
    method: e.method,
    path: versionedPath(e),
    summary: e.summary,
    description: query ? e.description : `${e.summary}, in its default form only (this deployment answers no query parameters).`,
    parameters: [...(e.pathParams ? paramDocs(meta, e.pathParams, 'path', examples) : []), ...(query ? paramDocs(meta, e.query, 'query', examples) : [])],
    response: e.response ? idOf(e.response) : null,
    errors: query ? [...e.errors] : e.errors.filter((s) => s === 404),
    exampleUrl: exampleUrl(urls, e, examplesOf(meta), target),
  }));
}

/** `example` is OpenAPI's deprecated spelling; JSON Schema 2020-12 has `examples`. */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$schema' || k === '$id') continue;
    if (k === 'example') out.examples = [v];
    else out[k] = tidy(v);
  }
  return out;
}

/**
 * Explicit bounds on every response value, as clients and API linters ask (OWASP API4:
 * unbounded strings, arrays and integers). They are true bounds, not promises of size:
 * no string the API sends is longer than STRING_MAX (the longest are the methodology
 * text and summaries, about 1,000 characters), no array longer than ARRAY_MAX (the
 * longest, a month's companies added, is bounded by the registry), no integer beyond int32.
 */
const STRING_MAX = 10_000;
const ARRAY_MAX = 100_000;
const INT32 = { format: 'int32', maximum: 2_147_483_647 } as const;

function bounded(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(bounded);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === 'properties' || k === '$defs' ? Object.fromEntries(Object.entries(v as object).map(([n, s]) => [n, bounded(s)])) : bounded(v);
  const types = Array.isArray(out.type) ? (out.type as string[]) : [out.type];
  if (types.includes('string') && out.maxLength === undefined && out.enum === undefined && out.const === undefined) out.maxLength = STRING_MAX;
  if (types.includes('array') && out.maxItems === undefined) out.maxItems = ARRAY_MAX;
  if (types.includes('integer')) {
    if (out.format === undefined) out.format = INT32.format;
    if (out.maximum === undefined) out.maximum = INT32.maximum;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = -INT32.maximum - 1;
  }
  return out;
}

/** The response schemas reachable from the endpoints, keyed by their ids, in a stable order. */
function componentSchemas(): Record<string, JsonSchema> {
  const all = (z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12', unrepresentable: 'any', uri: (id) => `${COMPONENT}${id}` }) as { schemas: Record<string, JsonSchema> }).schemas;
  const keep = new Set<string>();
  const visit = (id: string) => {
    if (keep.has(id)) return;
    const schema = all[id];
    if (!schema) throw new Error(`openapi: schema ${id} not found`);
    keep.add(id);
    for (const m of JSON.stringify(schema).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) visit(m[1]!);
  };
  for (const e of TABLE) if (e.response) visit(idOf(e.response));
  visit(idOf(ErrorResponseSchema));
  return Object.fromEntries([...keep].sort().map((id) => [id, bounded(tidy(all[id])) as JsonSchema]));
}

/** An example body for each error status, worded by the API's own messages (service-spec §7). */
export function errorExamples(meta: MetaView): Record<ErrorStatus, ErrorResponse> {
  return {
    400: { error: 'bad_request', message: messages.badInteger('limit', 1, 100), parameter: 'limit' },
    404: { error: 'not_found', message: messages.unknownCompany(`not-${meta.examples.company}`) },
    429: { error: 'rate_limited', message: messages.rateLimited(RATE_LIMIT, 30) },
    502: { error: 'internal', message: messages.internal },
  };
}

const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'A parameter is missing or invalid, or a typo of a parameter (`bad_request`); the body names it and, where helpful, the valid values, and in `suggestions` the valid values close to a misspelt one (country, sort, month).' },
  404: { name: 'NotFound', description: 'Unknown company, industry, country or month, or no data for it (`not_found`); the body lists valid values where helpful, and in `suggestions` the close slugs, industries, countries or months.' },
  429: { name: 'RateLimited', description: `More than ${RATE_LIMIT} requests per minute from one address (\`rate_limited\`, on the service's own server); retry after the number of seconds in \`Retry-After\`. Never stored by a cache.` },
  502: { name: 'Internal', description: 'Transient failure reading the data (`internal`); retry. Never stored by a cache.' },
};

/** Operation groups (OpenAPI tags), by endpoint id; the month-addressed forms get their base's tag and `Permanent month URLs`. */
const TAGS = [
  { name: 'Dataset', description: 'The index, health, releases and corrections, and this document.', ids: ['getIndex', 'getHealth', 'getChangelog', 'getOpenApi'] },
  { name: 'Companies', description: 'Find companies, read and compare their profiles.', ids: ['searchCompanies', 'getCompany', 'compareCompanies'] },
  { name: 'Leaderboards', description: 'Rankings of an industry or of all industries in a country.', ids: ['getRankings', 'getLeaders'] },
  { name: 'Permanent month URLs', description: 'The same answers for a named month, immutable.', ids: [] as string[] },
];
function tagsOf(operationId: string): string[] {
  const base = operationId.replace(/ForMonth$/, '');
  const tag = TAGS.find((t) => t.ids.includes(base))?.name ?? 'Dataset';
  return base === operationId ? [tag] : [tag, 'Permanent month URLs'];
}

/** Every response header the API sends, declared once (components/headers). */
const HEADERS: Record<string, { name: string; description: string; schema: JsonSchema }> = {
  CacheControl: { name: 'Cache-Control', description: 'Cache life: current answers 30 minutes in browsers and 60 in shared caches (plus 5 minutes stale); month-addressed answers a year, immutable (those of a corrected month as current answers, with EVI-Corrected naming the date of the correction); 400/404/405 one minute; 429 and 5xx no-store.', schema: { type: 'string' } },
  ETag: { name: 'ETag', description: 'Strong validator of the body; send it back in If-None-Match for a 304.', schema: { type: 'string', pattern: '^"[^"]+"$' } },
  'Access-Control-Allow-Origin': { name: 'Access-Control-Allow-Origin', description: 'CORS: always `*`.', schema: { type: 'string', const: '*' } },
  ExposeHeaders: { name: 'Access-Control-Expose-Headers', description: 'Headers a browser script may read.', schema: { type: 'string' } },
  Vary: { name: 'Vary', description: 'The body varies with Accept-Encoding only.', schema: { type: 'string' } },
  NoSniff: { name: 'X-Content-Type-Options', description: '`nosniff`.', schema: { type: 'string', const: 'nosniff' } },
  Link: { name: 'Link', description: 'On current answers of month-dependent endpoints: `<month-addressed path>; rel="canonical"`, the permanent copy of this answer.', schema: { type: 'string' } },
  Allow: { name: 'Allow', description: 'The methods of every path: `GET, HEAD, OPTIONS`.', schema: { type: 'string', const: 'GET, HEAD, OPTIONS' } },
  RetryAfter: { name: 'Retry-After', description: 'Seconds to wait before retrying.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 60 } },
  RateLimit: { name: 'RateLimit', description: 'Remaining quota of the window (IETF RateLimit fields draft), on the service\'s own server.', schema: { type: 'string' } },
  RateLimitPolicy: { name: 'RateLimit-Policy', description: 'The quota policy (IETF RateLimit fields draft), on the service\'s own server.', schema: { type: 'string' } },
  AllowMethods: { name: 'Access-Control-Allow-Methods', description: 'CORS preflight: `GET, HEAD, OPTIONS`.', schema: { type: 'string' } },
  MaxAge: { name: 'Access-Control-Max-Age', description: 'CORS preflight: seconds the answer may be kept (86400).', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 86400 } },
};
const header = (...ids: string[]) => Object.fromEntries(ids.map((id) => [HEADERS[id]!.name, { $ref: `#/components/headers/${id}` }]));
const COMMON = ['CacheControl', 'Access-Control-Allow-Origin', 'ExposeHeaders', 'NoSniff', 'Vary'];

/** The OpenAPI document's own shape, loosely: what a client can rely on. */
const OPENAPI_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: { openapi: { type: 'string', maxLength: 16 }, info: { type: 'object' }, paths: { type: 'object' }, components: { type: 'object' } },
  additionalProperties: true,
};

/**
 * The OpenAPI 3.1 document the build writes to `api/v1/openapi.json`: every status an
 * operation can answer (304 for If-None-Match, 405 for other methods), every header of
 * every response, HEAD and OPTIONS beside each GET, and each parameter's valid values.
 * @example
 * await api.write('api/v1/openapi.json', openApiDocument(meta));
 */
export function openApiDocument(meta: MetaView): Record<string, unknown> {
  const site = meta.siteUrl;
  const json = (schema: JsonSchema, example?: unknown) => ({ 'application/json': example === undefined ? { schema } : { schema, example } });
  const errorBodies = errorExamples(meta);
  const paths: Record<string, unknown> = {};
  const monthScoped = new Set(TABLE.filter((e) => e.monthScoped).map((e) => e.id));
  for (const e of endpointDocs(meta)) {
    const ok = [...COMMON, 'ETag', ...(monthScoped.has(e.operationId) ? ['Link'] : [])];
    const responses: Record<string, unknown> = {
      200: {
        description: 'Success, with a strong ETag.',
        headers: header(...ok),
        content: json(e.response ? { $ref: `${COMPONENT}${e.response}` } : OPENAPI_SCHEMA),
      },
      304: { $ref: '#/components/responses/NotModified' },
    };
    for (const status of e.errors) responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
    responses[405] = { $ref: '#/components/responses/MethodNotAllowed' };
    const declared = e.parameters.map((p) => ({ name: p.name, in: p.in, required: p.required, description: p.description, schema: bounded(tidy(p.schema)), ...(p.example ? { example: p.example } : {}) }));
    // Path parameters belong to the path (every method has them); query parameters to GET and HEAD.
    const inPath = declared.filter((p) => p.in === 'path');
    const parameters = declared.filter((p) => p.in === 'query');
    const headResponses = Object.fromEntries(
      Object.entries(responses).map(([status, r]) => [status, status === '200' ? { description: 'As GET, without a body.', headers: header(...ok) } : r]),
    );
    paths[e.path] = {
      ...(inPath.length ? { parameters: inPath } : {}),
      get: {
        tags: tagsOf(e.operationId),
        operationId: e.operationId,
        summary: e.summary,
        description: `${e.description}\n\nExample: ${e.exampleUrl}`,
        parameters,
        responses,
      },
      head: {
        tags: tagsOf(e.operationId),
        operationId: `${e.operationId}Head`,
        summary: `${e.summary} (headers only)`,
        description: 'The headers GET would send, without the body.',
        parameters,
        responses: headResponses,
      },
      options: {
        tags: tagsOf(e.operationId),
        operationId: `${e.operationId}Options`,
        summary: `${e.summary} (CORS preflight)`,
        description: 'Answers a CORS preflight: any origin, methods GET, HEAD and OPTIONS.',
        responses: { 204: { $ref: '#/components/responses/Preflight' } },
      },
    };
  }
  const errorResponses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    const extra = status === '429' ? ['RetryAfter', 'RateLimit', 'RateLimitPolicy'] : [];
    errorResponses[r.name] = {
      description: r.description,
      headers: header(...COMMON, ...extra),
      content: json({ $ref: `${COMPONENT}${idOf(ErrorResponseSchema)}` }, errorBodies[Number(status) as ErrorStatus]),
    };
  }
  errorResponses.MethodNotAllowed = {
    description: 'A method other than GET, HEAD or OPTIONS (`method_not_allowed`).',
    headers: header(...COMMON, 'Allow'),
    content: json({ $ref: `${COMPONENT}${idOf(ErrorResponseSchema)}` }, { error: 'method_not_allowed', message: messages.methodNotAllowed('POST') }),
  };
  errorResponses.NotModified = {
    description: 'Not Modified: If-None-Match named the current ETag. No body; the validators and cache headers of the 200 are kept.',
    headers: header('ETag', 'CacheControl', 'Vary', 'Access-Control-Allow-Origin', 'ExposeHeaders', 'NoSniff'),
  };
  errorResponses.Preflight = {
    description: 'CORS preflight answer, no body.',
    headers: header('Access-Control-Allow-Origin', 'AllowMethods', 'MaxAge', 'Allow', 'ExposeHeaders'),
  };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: meta.name,
      version: meta.apiVersion,
      summary: 'Free, public, read-only JSON API ranking companies by employer visibility in AI answers.',
      description:
        `${meta.index.description}\n\n` +
        `Dataset ${meta.month}, last updated ${meta.lastUpdated}; methodology version ${meta.methodology.version} (${meta.methodology.url}). ` +
        `Only GET (and HEAD, OPTIONS) exists; no authentication; CORS is open. \`/api/...\` and \`/api/v1/...\` are equivalent: pin \`/api/v1\`. ` +
        (runsFunction(deploymentOf(meta.index))
          ? `A query parameter given empty counts as absent; a typo of a parameter name is a 400; other unknown parameters are ignored. `
          : `${STATIC_NOTE} `) +
        `Please credit "${meta.name}" with a link to ${site}/.`,
      contact: { name: meta.name, url: `${site}/api-docs/` },
      license: meta.index.license ? { name: meta.index.license.name, url: meta.index.license.url } : undefined,
    },
    // A public API: every server is for everyone. First the origin that serves this document
    // (OpenAPI 3.1 §4.8.5: a relative URL resolves against the document's own location), so the
    // paths are right on any host it is served from (a local preview on another port, a second
    // domain); then the canonical deployment the build was made for (SITE_URL).
    servers: [
      { url: '/', description: 'The origin serving this document: production, or a local preview.', 'x-internal': false },
      { url: site, description: 'The production deployment the build was made for (its SITE_URL).', 'x-internal': false },
    ],
    tags: TAGS.map((t) => ({ name: t.name, description: t.description })),
    externalDocs: { description: 'Human documentation and methodology', url: `${site}/api-docs/` },
    paths,
    components: {
      schemas: componentSchemas(),
      responses: errorResponses,
      headers: Object.fromEntries(Object.entries(HEADERS).map(([id, h]) => [id, { description: h.description, schema: bounded(h.schema) }])),
    },
  };
}
