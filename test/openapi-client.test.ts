/**
 * A typed client generated from the OpenAPI document (the openapi-typescript CLI, as third-party
 * clients do) compiles under `--strict` against code that reads every endpoint's answer,
 * including the 304 and the error statuses a conditional or bad request gets.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/api/openapi.ts';
import { meta as fixtureMeta } from './lib/fixture.ts';

const root = resolve(import.meta.dirname, '..');
const dir = join(root, '.cache', 'openapi-client-test');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('typed client', () => {
  it('openapi-typescript types compile under --strict, with every status of every operation', async () => {
    const doc = openApiDocument(fixtureMeta);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
    // The CLI, as a client author runs it.
    execFileSync(process.execPath, [join(root, 'node_modules/openapi-typescript/bin/cli.js'), join(dir, 'openapi.json'), '-o', join(dir, 'api.d.ts')], { stdio: 'pipe' });
    // What a client author writes against the generated types (kept as text: it only compiles beside them).
    copyFileSync(join(root, 'test/fixtures/openapi-client/use.ts.txt'), join(dir, 'use.ts'));
    // The generated declarations checked too (skipLibCheck off); TypeScript's own lib and the
    // project's @types packages, which a client author's project does not have, left out.
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', lib: ['ES2022'], module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: false, skipDefaultLibCheck: true, types: [] }, files: ['use.ts'] }),
    );
    let out = '';
    try {
      execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(out).toBe('');
  });
});
