/**
 * The MCP tools of the API: one per data endpoint of the endpoint table
 * (`src/api/endpoints.ts`), each a thin mapping from tool arguments to the
 * endpoint's URL. Input schemas are the JSON Schemas of the endpoint's zod parameter
 * schemas (path and query, `src/api/params.ts`), output schemas those of its
 * response schema; answers are the endpoint's JSON, never recomputed here.
 */
import { z } from 'zod';
import { endpoint } from '../api/endpoints.ts';
import type { Endpoint, EndpointId } from '../api/endpoints.ts';
import { API_PREFIX } from '../core/urls.ts';

export type JsonObject = Record<string, unknown>;

/** A JSON Schema object as MCP `tools/list` carries it (`type: "object"` at the root). */
export interface ObjectSchema {
  type: 'object';
  properties?: Record<string, JsonObject>;
  required?: string[];
  [key: string]: unknown;
}

/** What a tool adds to its endpoint: a name, a text for assistants and a summary of the answer. */
interface ToolDef {
  name: string;
  endpoint: EndpointId;
  title: string;
  description: string;
  /** One or a few lines for the model to read beside the structured JSON. */
  summarize(body: JsonObject): string;
}

export interface ToolSpec extends ToolDef {
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
  /** Argument names that are path segments rather than query parameters. */
  pathParams: readonly string[];
  /** The endpoint's path below the API prefix, OpenAPI style (`/company/{slug}`). */
  path: string;
}

/** JSON Schema of a zod object, without the `$schema` key (MCP clients do not need it). */
function jsonSchema(io: 'input' | 'output', ...schemas: z.ZodObject[]): ObjectSchema {
  const properties: Record<string, JsonObject> = {};
  const required: string[] = [];
  for (const schema of schemas) {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', reused: 'inline' }) as JsonObject;
    Object.assign(properties, (json.properties ?? {}) as Record<string, JsonObject>);
    required.push(...((json.required ?? []) as string[]));
  }
  return required.length ? { type: 'object', properties, required } : { type: 'object', properties };
}

/**
 * JSON Schema of a response: the root definition hoisted to the top (MCP wants
 * `type: "object"` there) with the other definitions kept beside it. Additional
 * properties are allowed, so a field added to the API is not a client-side error.
 */
function output(schema: z.ZodObject): ObjectSchema {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  const defs = { ...((json.$defs ?? {}) as Record<string, JsonObject>) };
  let root: JsonObject = json;
  const ref = typeof json.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(json.$ref)?.[1] : undefined;
  if (ref !== undefined && defs[ref]) {
    root = { ...defs[ref] };
    delete defs[ref];
  } else {
    delete root.$defs;
  }
  const open = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(open);
    if (typeof node !== 'object' || node === null) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) if (!(key === 'additionalProperties' && value === false)) out[key] = open(value);
    return out;
  };
  const result = open(root) as ObjectSchema;
  // A definition the root refers to (through another definition) must stay reachable.
  if (ref !== undefined && JSON.stringify(defs).includes(`"#/$defs/${ref}"`)) defs[ref] = root;
  if (Object.keys(defs).length) result.$defs = open(defs);
  return result;
}

const list = (items: unknown, format: (item: JsonObject) => string, max = 10) => {
  const array = Array.isArray(items) ? (items as JsonObject[]) : [];
  const shown = array.slice(0, max).map(format);
  if (array.length > max) shown.push(`… and ${array.length - max} more`);
  return shown.join('\n');
};
const rankOf = (entry: JsonObject) => {
  const ranking = entry.latestRanking as JsonObject | undefined;
  return ranking ? `#${String(ranking.rank)} overall, #${String(ranking.industryRank)} in ${String(entry.industry)} (${String(entry.country)}), score ${String(ranking.visibilityScore)}` : '';
};
const profileLine = (p: JsonObject) =>
  `${String(p.company)} (${String(p.slug)}): #${String(p.overallRank)} of ${String(p.totalCompaniesInCountry)} in ${String(p.country)}, #${String(p.industryRank)} of ${String(p.totalCompaniesInIndustry)} in ${String(p.industry)}, visibility score ${String(p.visibilityScore)} (${String(p.month)})`;

const DEFS: readonly ToolDef[] = [
  {
    name: 'get_index',
    endpoint: 'getIndex',
    title: 'Dataset index',
    description:
      'The dataset index: the current month, every valid country, industry and month, the methodology, and links to every endpoint. Call it first to learn the valid values of `country`, `industry` and `month`.',
    summarize: (b) => {
      const d = (b.dataset ?? {}) as JsonObject;
      const n = (k: string) => (Array.isArray(d[k]) ? (d[k] as unknown[]).length : 0);
      return `Employer Visibility Index, month ${String(b.month)}: ${String(d.totalCompanies)} companies, ${n('industries')} industries, ${n('countries')} countries, ${n('months')} months. Valid values are in structuredContent.dataset.`;
    },
  },
  {
    name: 'get_health',
    endpoint: 'getHealth',
    title: 'Health',
    description: 'Liveness and freshness: the current dataset month, the date of the last update and how many companies and industries it ranks.',
    summarize: (b) => `${String(b.status)}: month ${String(b.month)}, updated ${String(b.lastUpdated)}, ${String(b.companies)} companies, ${String(b.industries)} industries.`,
  },
  {
    name: 'search_companies',
    endpoint: 'searchCompanies',
    title: 'Search companies',
    description:
      'Find companies by name, alias or subsidiary (approximate matches included). Returns each match with its slug (for the profile and compare tools) and its latest ranking.',
    summarize: (b) => {
      const results = Array.isArray(b.results) ? b.results : [];
      if (!results.length) return `No company matches "${String(b.query)}".`;
      return `${results.length} result(s) for "${String(b.query)}" (${String(b.month)}):\n${list(results, (r) => `- ${String(r.company)} (${String(r.slug)}): ${rankOf(r)}`)}`;
    },
  },
  {
    name: 'get_company',
    endpoint: 'getCompany',
    title: 'Company profile',
    description:
      "A company's employer-visibility profile in one country: overall and industry rank, visibility score, per-model scores, themes, other industries and monthly history. The slug comes from search_companies.",
    summarize: (b) => `${profileLine(b)}.${typeof b.summary === 'string' ? ` ${b.summary}` : ''}`,
  },
  {
    name: 'get_rankings',
    endpoint: 'getRankings',
    title: 'Leaderboard',
    description:
      'The leaderboard of one country and month, overall or of one industry, paged and sortable (rank, score, mentions, name, change since the previous month).',
    summarize: (b) =>
      `${String(b.industry)} leaderboard, ${String(b.country)}, ${String(b.month)} (page ${String(b.page)} of ${String(b.totalPages)}, ${String(b.totalCompanies)} companies, sort ${String(b.sort)}):\n${list(
        b.rankings,
        (e) => `${String(e.rank)}. ${String(e.company)} (${String(e.slug)}), score ${String(e.visibilityScore)}`,
      )}`,
  },
  {
    name: 'get_leaders',
    endpoint: 'getLeaders',
    title: 'Top employers of an industry in a country',
    description:
      'The top N companies of one industry in one country this month (industry `all` for every industry), e.g. "top fintech employers in Germany" is industry=fintech, country=de.',
    summarize: (b) =>
      `Top ${Array.isArray(b.topCompanies) ? b.topCompanies.length : 0} of ${String(b.totalCompanies)} in ${String(b.industry)}, ${String(b.country)}, ${String(b.month)}:\n${list(
        b.topCompanies,
        (e) => `${String(e.rank)}. ${String(e.company)} (${String(e.slug)}), score ${String(e.score)}`,
        100,
      )}`,
  },
  {
    name: 'compare_companies',
    endpoint: 'compareCompanies',
    title: 'Compare companies',
    description: 'The profiles of 2 to 5 companies side by side (slugs from search_companies), optionally all in one country.',
    summarize: (b) => `Comparison (${String(b.month)}):\n${list(b.companies, (p) => `- ${profileLine(p)}`)}`,
  },
  {
    name: 'get_changelog',
    endpoint: 'getChangelog',
    title: 'Releases and corrections',
    description:
      'Every monthly release (publication date, counts, companies added and removed, methodology version) and every correction made to a published month.',
    summarize: (b) =>
      `${Array.isArray(b.releases) ? b.releases.length : 0} monthly release(s), current month ${String(b.month)}:\n${list(
        b.releases,
        (r) =>
          `- ${String(r.month)}: published ${String(r.published)}, ${String(r.rankedCompanies)} ranked companies, ${Array.isArray(r.corrections) ? r.corrections.length : 0} correction(s)`,
        24,
      )}`,
  },
];

function toolSpec(def: ToolDef): ToolSpec {
  const e: Endpoint = endpoint(def.endpoint);
  if (!e.response) throw new Error(`mcp: endpoint ${e.id} has no JSON response schema`);
  const path = e.pathParams ? [e.pathParams, e.query] : [e.query];
  return {
    ...def,
    inputSchema: jsonSchema('input', ...path),
    outputSchema: output(e.response),
    pathParams: e.pathParams ? Object.keys(e.pathParams.shape) : [],
    path: e.path,
  };
}

export const TOOLS: readonly ToolSpec[] = DEFS.map(toolSpec);

/**
 * The API URL a tool call asks for: path arguments into the path, every other
 * argument (numbers and booleans as their text) into the query string, so the
 * handler validates exactly what it would over HTTP.
 *
 * @example
 * toolUrl(tool, { q: 'kestrel', limit: 3 }, 'http://localhost:4321') // http://localhost:4321/api/v1/search?q=kestrel&limit=3
 */
export function toolUrl(tool: ToolSpec, args: Record<string, unknown>, base: string): URL {
  const text: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    text[key] = Array.isArray(value) ? value.map(String).join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
  }
  const missing = tool.pathParams.filter((name) => (text[name] ?? '').trim() === '');
  if (missing.length) throw new ToolArgumentError(`Missing required argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`);
  const path = tool.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(text[name] ?? ''));
  const url = new URL(`${base.replace(/\/+$/, '')}${API_PREFIX}${path}`);
  for (const [key, value] of Object.entries(text)) if (!tool.pathParams.includes(key)) url.searchParams.set(key, value);
  return url;
}

/** A tool call whose arguments cannot make a request (a path argument is missing). */
export class ToolArgumentError extends Error {
  override name = 'ToolArgumentError';
}
