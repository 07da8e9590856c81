import { describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createHandler } from '../api/index.ts';
import { fixtureStore, meta } from '../../test/lib/fixture.ts';
import { endpointDocs, openApiDocument } from './openapi.ts';

describe('openApiDocument', () => {
  const doc = openApiDocument(meta) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };

  it('is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('is the same for the same input', () => {
    expect(JSON.stringify(openApiDocument(meta))).toBe(JSON.stringify(doc));
  });

  it('uses the data for examples and the zod ids for components', () => {
    const docs = endpointDocs(meta);
    expect(docs.map((e) => e.exampleUrl)).toEqual(expect.arrayContaining(Object.values(meta.index.links).filter((u) => u.includes('/api/'))));
    const slug = docs.find((e) => e.operationId === 'getCompany')!.parameters.find((p) => p.name === 'slug')!;
    expect(slug).toMatchObject({ in: 'path', required: true, example: meta.examples.company });
    const limit = docs.find((e) => e.operationId === 'searchCompanies')!.parameters.find((p) => p.name === 'limit')!;
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 20, default: 5 });
    expect(Object.keys(doc.components.schemas)).toEqual(['Changelog', 'Compare', 'CompanyProfile', 'DatasetIndex', 'Error', 'Evidence', 'Health', 'LeaderEntry', 'LeaderboardEntry', 'Leaders', 'MethodologyShort', 'Methodology', 'Rankings', 'SearchResponse', 'SearchResult'].sort());
    expect(JSON.stringify(doc.components.schemas)).not.toMatch(/"\$id"|"\$schema"|"example":/);
  });

  it('describes what the handler answers', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'https://openapi.test/doc', components: doc.components });
    const handle = createHandler(fixtureStore(), { log: () => {} });
    for (const e of endpointDocs(meta)) {
      if (!e.response) continue;
      const res = await handle(new Request(e.exampleUrl));
      expect(res.status, e.exampleUrl).toBe(200);
      const check = ajv.getSchema(`https://openapi.test/doc#/components/schemas/${e.response}`)!;
      expect(check(await res.json()), `${e.exampleUrl}: ${ajv.errorsText(check.errors)}`).toBe(true);
    }
  });
});
