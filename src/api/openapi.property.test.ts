/**
 * The OpenAPI document tested against the handler with generated requests (fast-check):
 * for every operation, valid, edge and invalid parameter values, other methods and
 * conditional requests. Every status answered must be declared for the operation, every
 * header sent must be declared for that status, and every JSON body must validate
 * against the schema declared for it.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureStore, meta } from '../../test/lib/fixture.ts';
import { createHandler } from './index.ts';
import { openApiDocument } from './openapi.ts';

type Obj = Record<string, unknown>;
const doc = openApiDocument(meta) as { paths: Record<string, Obj>; components: Obj };
const resolve = (o: Obj): Obj => (typeof o.$ref === 'string' ? resolve((o.$ref as string).slice(2).split('/').reduce<Obj>((a, k) => a[k] as Obj, doc as Obj)) : o);

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'https://openapi.test/doc', components: doc.components });

/** Headers every HTTP stack adds or that describe the body itself. */
const TRANSPORT = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Obj;
  example?: string;
}

const hostile = fc.constantFrom('', ' ', '0', '-1', '101', '1e3', '2026-13', '9999-99', '../..', '%00', 'ZZ', 'a'.repeat(300), '<script>', 'ü', '🙂', 'null', '1,2,3,4,5,6');
function valueOf(p: Param): fc.Arbitrary<string | undefined> {
  const examples = (p.schema.examples as unknown[] | undefined)?.map(String) ?? [];
  const valid = [p.example, ...examples].filter((v): v is string => typeof v === 'string' && v !== '');
  const options: fc.Arbitrary<string | undefined>[] = [hostile, fc.string({ maxLength: 12 })];
  if (valid.length) options.push(fc.constantFrom(...valid), fc.constantFrom(...valid).map((v) => v.toUpperCase()));
  if (p.schema.type === 'integer') options.push(fc.integer({ min: -5, max: 250 }).map(String));
  if (!p.required) options.push(fc.constant(undefined));
  return fc.oneof(...options);
}

describe('the OpenAPI document against generated requests', () => {
  const handle = createHandler(fixtureStore(), { log: () => {} });
  for (const [path, item] of Object.entries(doc.paths)) {
    it(path, async () => {
      const get = item.get as Obj;
      const params = [...((item.parameters as Param[] | undefined) ?? []), ...((get.parameters as Param[] | undefined) ?? [])];
      const request = fc.record({
        method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE'),
        values: fc.tuple(...params.map(valueOf)),
        typo: fc.boolean(),
        conditional: fc.boolean(),
        junk: fc.constantFrom(undefined, 'utm_source=x', '_=1'),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ method, values, typo, conditional, junk }) => {
          let url = path;
          const query = new URLSearchParams();
          params.forEach((p, i) => {
            const v = values[i];
            if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(v || 'x'));
            else if (v !== undefined) query.set(typo && i === params.length - 1 ? `${p.name.slice(0, -1)}x` : p.name, v);
          });
          if (junk) for (const [k, v] of new URLSearchParams(junk)) query.set(k, v);
          const qs = query.toString();
          const full = `${meta.siteUrl}${url}${qs ? `?${qs}` : ''}`;
          let res = await handle(new Request(full, { method, headers: method === 'OPTIONS' ? { Origin: 'https://x.example', 'Access-Control-Request-Method': 'GET' } : {} }));
          if (conditional && res.status === 200 && method === 'GET') {
            const etag = res.headers.get('etag')!;
            res = await handle(new Request(full, { headers: { 'If-None-Match': etag } }));
            expect(res.status, full).toBe(304);
          }
          const op = method === 'OPTIONS' ? (item.options as Obj) : method === 'HEAD' ? (item.head as Obj) : (get as Obj);
          const declared = op.responses as Record<string, Obj>;
          const status = method === 'POST' || method === 'DELETE' ? '405' : String(res.status);
          expect(Object.keys(declared), `${method} ${full} answered ${res.status}`).toContain(String(res.status));
          expect(String(res.status)).toBe(status === '405' ? '405' : String(res.status));
          const response = resolve(declared[String(res.status)]!);
          const headers = Object.keys((response.headers as Obj | undefined) ?? {}).map((h) => h.toLowerCase());
          for (const [name] of res.headers) if (!TRANSPORT.has(name) && !name.startsWith('access-control-allow-')) expect(headers, `${method} ${full} ${res.status}: header ${name}`).toContain(name);
          const text = await res.text();
          const content = (response.content as Obj | undefined)?.['application/json'] as Obj | undefined;
          if (method === 'GET' && content && text) {
            const body = JSON.parse(text);
            const schema = content.schema as Obj;
            const check = typeof schema.$ref === 'string' ? ajv.getSchema(`https://openapi.test/doc${schema.$ref as string}`)! : ajv.compile(schema);
            expect(check(body), `${full} ${res.status}: ${ajv.errorsText(check.errors)}`).toBe(true);
          }
        }),
        { numRuns: 60, seed: 20261122 },
      );
    });
  }
});
