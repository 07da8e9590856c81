/**
 * The OpenAPI 3.1 document of service-spec §4, generated from the zod schemas of
 * the parameters (`src/api/params.ts`) and of the responses (`schemas/responses.ts`,
 * whose `.meta({ id })` become `components/schemas`). Example values come from the
 * data (meta.examples), so every example URL answers. Pure: data in, document out.
 */
import { z } from 'zod';
import { ALL_ENDPOINTS, exampleUrl, examplesOf, versionedPath } from '../api/endpoints.ts';
import type { Endpoint, ErrorStatus } from '../api/endpoints.ts';
import { messages } from '../api/messages.ts';
import { RATE_LIMIT_PER_MINUTE } from '../core/policy.ts';
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

function paramDocs(schema: ZodObject, where: 'path' | 'query', examples: Record<string, string>): ParamDoc[] {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(props).map(([name, raw]) => {
    const { description, example, ...rest } = raw;
    const real = examples[name] ?? (example === undefined ? undefined : String(example));
    const doc: ParamDoc = { name, in: where, required: where === 'path' || required.has(name), description: String(description ?? ''), schema: rest };
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
  return TABLE.map((e) => ({
    operationId: e.id,
    method: e.method,
    path: versionedPath(e),
    summary: e.summary,
    description: e.description,
    parameters: [...(e.pathParams ? paramDocs(e.pathParams, 'path', examples) : []), ...paramDocs(e.query, 'query', examples)],
    response: e.response ? idOf(e.response) : null,
    errors: [...e.errors],
    exampleUrl: exampleUrl(urls, e, examplesOf(meta)),
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
  return Object.fromEntries([...keep].sort().map((id) => [id, tidy(all[id]) as JsonSchema]));
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
  400: { name: 'BadRequest', description: 'A parameter is missing or invalid (`bad_request`); the body names it and, where helpful, the valid values.' },
  404: { name: 'NotFound', description: 'Unknown company, industry, country or month, or no data for it (`not_found`); the body lists valid values where helpful.' },
  429: { name: 'RateLimited', description: `More than ${RATE_LIMIT} requests per minute from one address (\`rate_limited\`); retry after the number of seconds in \`Retry-After\`.` },
  502: { name: 'Internal', description: 'Transient failure reading the data (`internal`); retry.' },
};

/**
 * The OpenAPI 3.1 document the build writes to `api/v1/openapi.json`.
 * @example
 * await api.write('api/v1/openapi.json', openApiDocument(meta));
 */
export function openApiDocument(meta: MetaView): Record<string, unknown> {
  const site = meta.siteUrl;
  const json = (schema: JsonSchema, example?: unknown) => ({ 'application/json': example === undefined ? { schema } : { schema, example } });
  const errorBodies = errorExamples(meta);
  const paths: Record<string, unknown> = {};
  for (const e of endpointDocs(meta)) {
    const responses: Record<string, unknown> = {
      200: {
        description: 'Success. Cached by the CDN for 30 to 60 minutes; carries a strong ETag.',
        headers: { 'Cache-Control': { $ref: '#/components/headers/CacheControl' }, ETag: { $ref: '#/components/headers/ETag' }, 'Access-Control-Allow-Origin': { $ref: '#/components/headers/AllowOrigin' } },
        content: json(e.response ? { $ref: `${COMPONENT}${e.response}` } : { type: 'object' }),
      },
    };
    for (const status of e.errors) responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
    paths[e.path] = {
      get: {
        operationId: e.operationId,
        summary: e.summary,
        description: `${e.description}\n\nExample: ${e.exampleUrl}`,
        parameters: e.parameters.map((p) => ({ name: p.name, in: p.in, required: p.required, description: p.description, schema: tidy(p.schema), ...(p.example ? { example: p.example } : {}) })),
        responses,
      },
    };
  }
  const errorResponses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    errorResponses[r.name] = {
      description: r.description,
      ...(status === '429' ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
      content: json({ $ref: `${COMPONENT}${idOf(ErrorResponseSchema)}` }, errorBodies[Number(status) as ErrorStatus]),
    };
  }
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
        `Only GET exists; no authentication; CORS is open. \`/api/...\` and \`/api/v1/...\` are equivalent: pin \`/api/v1\`. ` +
        `Please credit "${meta.name}" with a link to ${site}/.`,
    },
    servers: [{ url: site }],
    externalDocs: { description: 'Human documentation and methodology', url: `${site}/api-docs/` },
    paths,
    components: {
      schemas: componentSchemas(),
      responses: errorResponses,
      headers: {
        CacheControl: { description: 'CDN and browser cache lifetime.', schema: { type: 'string' } },
        ETag: { description: 'Strong validator of the body; send it back in If-None-Match for a 304.', schema: { type: 'string' } },
        AllowOrigin: { description: 'CORS: always `*`.', schema: { type: 'string', const: '*' } },
        RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
      },
    },
  };
}
