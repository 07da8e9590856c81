import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'rollup/parseAst';
import { describe, expect, it } from 'vitest';
import { ASTRO_RUNTIME, YOUNG, propertyFunctionLiterals, youngClosureSource, youngClosures } from './young-closures.ts';

type Ast = Parameters<typeof propertyFunctionLiterals>[0];
const spansOf = (code: string) => propertyFunctionLiterals(parseAst(code) as unknown as Ast);
const rewrite = (code: string) => youngClosureSource(code, spansOf(code));

describe('young closures', () => {
  it('finds the function literals assigned to a property, and only those', () => {
    const code = [
      'a.b = () => 1;',
      'a[k] = function named() { return 2; };',
      'x = () => 3;',
      'a.c += 1;',
      'a.d ||= () => 4;',
      'const o = { m() { return 5; }, n: () => 6 };',
      'f(() => 7);',
      'a.e = g;',
      'function outer() { this.v[name] = () => { a.w = async () => 8; }; }',
    ].join('\n');
    const found = spansOf(code).map(([s, e]) => code.slice(s, e));
    expect(found).toEqual(['() => 1', 'function named() { return 2; }', '() => 4', '() => { a.w = async () => 8; }', 'async () => 8']);
  });

  it('passes each through an identity function: the same values, by the same calls', () => {
    const code = 'export const a = {}; a.b = (x) => x + 1; a.c = function () { return this === a; }; a.d = () => { a.e = () => 9; return a.e(); };';
    const out = rewrite(code)!;
    expect(out).toContain(`a.b = ${YOUNG}((x) => x + 1)`);
    expect(out).toContain(`a.e = ${YOUNG}(() => 9)`);
    const run = (src: string) => new Function(`${src.replace('export const', 'const')}\nreturn [a.b(1), a.c(), a.d(), a.b.name, a.c.name];`)() as unknown[];
    expect(run(out)).toEqual(run(code));
    expect(run(out)).toEqual([2, true, 9, '', '']);
    expect(rewrite('const x = () => 1;')).toBeNull();
  });

  it("rewrites the slot closure of Astro's component instances, in the module the plugin is given", () => {
    const file = createRequire(import.meta.url).resolve('astro/runtime/server/render/astro/instance.js');
    expect(ASTRO_RUNTIME.test(file)).toBe(true);
    const code = readFileSync(file, 'utf8');
    const plugin = youngClosures();
    const result = plugin.transform.call({ parse: (c: string) => parseAst(c) }, code, `${file}?v=1`);
    expect(result?.code).toMatch(new RegExp(`this\\.slotValues\\[name\\] = ${YOUNG}\\(\\(\\) => \\{`));
    expect(spansOf(result!.code)).toEqual([]);
    expect(plugin.transform.call({ parse: (c: string) => parseAst(c) }, code, '/project/src/pages/x.astro')).toBeNull();
  });
});
