/**
 * What Astro's `createAstro` did to V8's young generation, in plain JavaScript: objects of
 * one prototype, each given an own accessor by `Object.defineProperty` with a new getter
 * whose scope holds some short-lived markup (as `Astro.slots` holds a component's slots),
 * against the same objects and markup with a plain property. Prints V8's scavenges of each
 * (`--trace-gc-nvp`, in a child process):
 *
 *   node --import tsx bench/lib/accessor-promotion.ts
 */
import { spawnSync } from 'node:child_process';
import { gcByIsolate, gcLine } from './gc-trace.ts';

const OBJECTS = 20_000;

function run(mode: 'accessor' | 'plain'): number {
  const proto = {};
  let total = 0;
  for (let n = 0; n < OBJECTS; n++) {
    const markup = Array.from({ length: 200 }, (_, i) => `<tr><td>${n}</td><td>${i * 1.5}</td></tr>`);
    const o = Object.assign(Object.create(proto) as Record<string, unknown>, { props: n, self: null });
    if (mode === 'accessor') Object.defineProperty(o, 'slots', { get: () => markup });
    else o.slots = markup;
    total += (o.slots as string[]).length;
  }
  return total;
}

const mode = process.argv[2];
if (mode === 'accessor' || mode === 'plain') run(mode);
else
  for (const m of ['accessor', 'plain'] as const) {
    const child = spawnSync(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', import.meta.filename, m], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    console.log(`${m === 'accessor' ? 'an own accessor, a new getter each' : 'a plain property'} (${OBJECTS.toLocaleString('en-US')} objects): ${gcLine(gcByIsolate(child.stdout)[0]!)}`);
  }
