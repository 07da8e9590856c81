import { describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createHandler } from './index.ts';
import { fixtureStore, meta } from '../../test/lib/fixture.ts';
import { endpointDocs, openApiDocument } from './openapi.ts';

describe('openApiDocument', () => {
  const doc = openApiDocument(meta) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };

  it('is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('stays within the GPT Actions limits, declares HEAD, OPTIONS, 304 and 405 everywhere, and the valid values of country, industry and month', () => {
    for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, { summary?: string; parameters?: { name: string; description: string; schema: Record<string, unknown> }[]; responses: Record<string, unknown> }>][]) {
      expect(Object.keys(item).filter((k) => k !== 'parameters').sort(), path).toEqual(['get', 'head', 'options']);
      expect(Object.keys(item.get!.responses), path).toEqual(expect.arrayContaining(['200', '304', '405']));
      for (const op of [item.get!, item.head!, item.options!]) expect(op.summary!.length, path).toBeLessThanOrEqual(300);
      const params = [...((item as { parameters?: { name: string; description: string; schema: Record<string, unknown> }[] }).parameters ?? []), ...(item.get!.parameters ?? [])];
      for (const p of params) {
        expect(p.description.length, `${path} ${p.name}`).toBeLessThanOrEqual(700);
        if (p.name === 'country') expect(p.schema.examples, path).toEqual(meta.countries.map((c) => c.code));
        if (p.name === 'month') expect(p.schema).toMatchObject({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', examples: [...meta.months].reverse() });
        if (p.name === 'industry') expect(p.schema.examples).toEqual([...meta.industries.map((i) => i.slug), 'all']);
      }
    }
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
