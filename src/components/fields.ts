/**
 * The response field tables of /api-docs/: each response object's fields (name,
 * type, meaning) read from the JSON Schemas of the OpenAPI document, which are
 * generated from the zod response schemas (`src/core/schemas/responses.ts`), so
 * their `.describe()` texts are the meanings. Pure: schemas in, rows out.
 */
import type { JsonSchema } from '../api/openapi.ts';

export interface FieldRow {
  /** The field's own name; nested fields follow their parent row with `depth` + 1. */
  name: string;
  depth: number;
  /** Type in words: `string (URL)`, `integer or null`, `array of objects`, `"ok"`. */
  type: string;
  /** A shared object the field holds (an id of components/schemas), shown as a link. */
  ref?: string;
  optional: boolean;
  meaning: string;
}

const REF = /^#\/components\/schemas\/(.+)$/;
const refOf = (s: JsonSchema): string | undefined => (typeof s.$ref === 'string' ? REF.exec(s.$ref)?.[1] : undefined);
const props = (s: JsonSchema): Record<string, JsonSchema> => (s.properties ?? {}) as Record<string, JsonSchema>;
const isObject = (s: JsonSchema): boolean => s.type === 'object';

/** A number's range when it is a real bound (not the int32 or safe-integer bound every integer carries). */
function range(s: JsonSchema): string {
  const min = s.minimum;
  const max = s.maximum;
  return typeof min === 'number' && typeof max === 'number' && max <= 1000 ? ` ${min}–${max}` : '';
}

function primitive(s: JsonSchema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return `one of ${(s.enum as unknown[]).join(', ')}`;
  if (s.type === 'string') return s.format === 'uri' ? 'string (URL)' : 'string';
  if (s.type === 'integer' || s.type === 'number') return `${s.type}${range(s)}`;
  return String(s.type ?? 'any');
}

interface Typed {
  type: string;
  ref?: string;
  /** The object whose fields come next, one level deeper. */
  children?: JsonSchema;
  description?: string;
}

function typeOf(s: JsonSchema): Typed {
  const ref = refOf(s);
  if (ref) return { type: ref, ref };
  if (Array.isArray(s.anyOf)) {
    const options = s.anyOf as JsonSchema[];
    const inner = options.find((o) => o.type !== 'null');
    if (inner && options.length === 2) {
      const t = typeOf(inner);
      return { ...t, type: `${t.type} or null`, description: inner.description as string | undefined };
    }
  }
  if (s.type === 'array') {
    const items = (s.items ?? {}) as JsonSchema;
    const ref = refOf(items);
    if (ref) return { type: 'array of', ref };
    if (isObject(items) && items.properties) return { type: 'array of objects', children: items };
    return { type: `array of ${primitive(items)}` };
  }
  if (isObject(s)) {
    if (s.properties) return { type: 'object', children: s };
    const values = s.additionalProperties;
    if (values && typeof values === 'object') {
      const v = values as JsonSchema;
      if (isObject(v) && v.properties) return { type: 'object: key → object', children: v };
      return { type: `object: key → ${primitive(v)}` };
    }
    return { type: 'object' };
  }
  return { type: primitive(s) };
}

/**
 * The rows of one object schema, its nested anonymous objects expanded below their
 * parent (shared objects are named, not expanded).
 * @example
 * fieldRows(doc.components.schemas.Health, doc.components.schemas)[0]; // { name: 'status', depth: 0, type: '"ok"', optional: false, meaning: 'Always ok when the service answers' }
 */
export function fieldRows(schema: JsonSchema, shared: Record<string, JsonSchema> = {}, depth = 0): FieldRow[] {
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props(schema)).flatMap(([name, s]) => {
    const t = typeOf(s);
    // A field holding a shared object says what that object is.
    const meaning = String(s.description ?? t.description ?? (t.ref ? (shared[t.ref]?.description ?? '') : ''));
    const row: FieldRow = { name, depth, type: t.type, optional: !required.has(name), meaning };
    if (t.ref) row.ref = t.ref;
    return [row, ...(t.children ? fieldRows(t.children, shared, depth + 1) : [])];
  });
}

/**
 * The shared objects reachable from the given schema ids (their `$ref`s, transitively),
 * in first-seen order, the given ids left out.
 */
export function sharedObjects(schemas: Record<string, JsonSchema>, ids: string[]): string[] {
  const seen = new Set<string>(ids);
  const out: string[] = [];
  const visit = (id: string) => {
    for (const m of JSON.stringify(schemas[id] ?? {}).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
      const ref = m[1]!;
      if (seen.has(ref)) continue;
      seen.add(ref);
      out.push(ref);
      visit(ref);
    }
  };
  ids.forEach(visit);
  return out;
}
