import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldRows, sharedObjects } from './fields.ts';
import type { JsonSchema } from '../api/openapi.ts';

// The real response schemas, as the OpenAPI document turns them into components/schemas.
import '../core/schemas/responses.ts';
const schemas = (z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, JsonSchema> }).schemas;

describe('response field rows', () => {
  it('lists every field of a flat object with its type, optionality and meaning', () => {
    const rows = fieldRows(schemas.Health!, schemas);
    expect(rows.map((r) => r.name)).toEqual(['status', 'apiVersion', 'datasetVersion', 'month', 'lastUpdated', 'companies', 'industries', 'leaderboards', 'rankedCompanies', 'acceptedDrop']);
    expect(rows[0]).toEqual({ name: 'status', depth: 0, type: '"ok"', optional: false, meaning: 'Always ok when the service answers' });
    expect(rows.find((r) => r.name === 'acceptedDrop')).toMatchObject({ type: 'string', optional: true });
    for (const r of rows) expect(r.meaning.length, r.name).toBeGreaterThan(3);
  });

  it('expands nested objects, arrays of objects and maps below their parent, and names shared objects', () => {
    const rows = fieldRows(schemas.CompanyProfile!, schemas);
    const at = (name: string, depth = 0) => rows.find((r) => r.name === name && r.depth === depth);
    expect(at('evidence')).toMatchObject({ type: 'Evidence', ref: 'Evidence' });
    expect(at('evidence')!.meaning).toMatch(/Visibility Score is made of/);
    expect(at('visibilityScore')!.type).toBe('number 0–100');
    expect(at('overallRank')!.type).toBe('integer');
    expect(at('modelScores')!.type).toBe('object');
    expect(at('chatgpt', 1)).toMatchObject({ type: 'number 0–100 or null', meaning: 'null when the model was not asked in this industry and country' });
    expect(at('themes')!.type).toBe('object: key → object');
    expect(at('history')!.type).toBe('array of objects');
    const i = rows.indexOf(at('history')!);
    expect(rows.slice(i + 1, i + 4).map((r) => `${r.depth} ${r.name}`)).toEqual(['1 month', '1 rank', '1 visibilityScore']);
    expect(at('profileUrl')!.type).toBe('string (URL)');
    expect(fieldRows(schemas.SearchResponse!, schemas).find((r) => r.name === 'results')).toMatchObject({ type: 'array of', ref: 'SearchResult' });
  });

  it('finds the shared objects reachable from the responses, each once', () => {
    expect(sharedObjects(schemas, ['Compare'])).toEqual(['MethodologyShort', 'CompanyProfile', 'Evidence']);
  });
});
