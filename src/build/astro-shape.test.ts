/**
 * The page workers' `Astro` objects (render-share.ts, astroOfOneShape): objects of one
 * hidden class, where Astro's own createAstro turns every object after the first into a
 * dictionary-mode object (an own `slots` accessor with a new getter each time), which kept
 * every page's markup alive through V8's scavenges. Shapes are read with V8's own
 * %HasFastProperties and %HaveSameMap; what the objects answer is compared with Astro's.
 */
import { setFlagsFromString } from 'node:v8';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import type { SSRResult } from 'astro';
import { createAstro, createComponent, render } from 'astro/runtime/server/index.js';
import { describe, expect, it } from 'vitest';
import { astroOfOneShape } from './render-share.ts';

setFlagsFromString('--allow-natives-syntax');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const fast = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;

/** A page-level `result` as the page workers get it: from a probe the container renders. */
async function pageResult(): Promise<SSRResult> {
  const container = await AstroContainer.create();
  let result: SSRResult | undefined;
  const probe = createComponent((r: SSRResult) => {
    result = r;
    return render``;
  });
  await container.renderToString(probe);
  return result!;
}

describe('the Astro objects of the page workers', () => {
  it("share one hidden class, where Astro's own become dictionaries", async () => {
    const result = await pageResult();
    const global = createAstro('https://example.org');
    const slots = { default: () => 'x' };
    const astros = [1, 2, 3].map((n) => result.createAstro(global, { n }, slots));
    // Astro's: the second and later in dictionary mode (if this fails, Astro no longer makes
    // them so, and astroOfOneShape may go)
    expect(astros.map(fast)).toEqual([true, false, false]);
    const create = astroOfOneShape(result.createAstro);
    const ours = [1, 2, 3].map((n) => create(global, { n }, slots));
    expect(ours.map(fast)).toEqual([true, true, true]);
    expect(sameMap(ours[0]!, ours[1]!) && sameMap(ours[1]!, ours[2]!)).toBe(true);
  });

  it("answer what Astro's answer: props, self, the page-level part and the slots", async () => {
    const result = await pageResult();
    const global = createAstro('https://example.org');
    const slots = { default: () => 'x' };
    const theirs = result.createAstro(global, { n: 1 }, slots);
    const ours = astroOfOneShape(result.createAstro)(global, { n: 1 }, slots);
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect(ours.props).toEqual(theirs.props);
    expect(ours.self).toBe(theirs.self);
    for (const key of ['params', 'url', 'site', 'generator', 'request'] as const) expect(ours[key]).toBe(theirs[key]);
    expect(ours.slots.has('default')).toBe(true);
    expect(ours.slots.has('other')).toBe(false);
    expect(ours.slots).toBe(ours.slots);
  });
});
