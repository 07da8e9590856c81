import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { runMonthJob, type MonthJob } from '../read/parse-month.ts';
import { bundleOf, execArgvWithoutLoaders, workerBundle } from './worker-bundle.ts';
import { tsWorker } from './worker-pool.ts';

const tmp = mkdtempSync(join(tmpdir(), 'evi-bundle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes a file dated a minute ago: a bundle is only kept for inputs not written while it was made. */
function write(file: string, text: string) {
  writeFileSync(file, text);
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);
}

/** What the module at `file` posts first, run as a worker thread without the parent's loader flags. */
function answer(file: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const w = new Worker(file, { execArgv: execArgvWithoutLoaders() });
    w.once('message', (m) => void w.terminate().then(() => resolve(m)));
    w.once('error', reject);
  });
}

describe('worker bundles', () => {
  it('bundle a TypeScript module with its imports, keep it while they are unchanged, and make it again when one changes', async () => {
    const src = join(tmp, 'src');
    const dir = join(tmp, 'bundles');
    mkdirSync(src);
    write(join(src, 'part.ts'), 'export const part: string = "one";\n');
    write(join(src, 'main.ts'), 'import { parentPort } from "node:worker_threads";\nimport { part } from "./part.ts";\nparentPort!.postMessage(part satisfies string);\n');
    const first = bundleOf(join(src, 'main.ts'), dir);
    expect(first).not.toBeNull();
    expect(await answer(first!)).toBe('one');
    const manifest = JSON.parse(readFileSync(join(dir, 'main.json'), 'utf8')) as { inputs: Record<string, string> };
    expect(Object.keys(manifest.inputs).map((p) => p.split('/').at(-1)).sort()).toEqual(['main.ts', 'part.ts']);
    // Unchanged: the same file, not made again (a bundle made again would be a new file).
    const made = statSync(first!);
    expect(bundleOf(join(src, 'main.ts'), dir)).toBe(first);
    expect(statSync(first!)).toMatchObject({ ino: made.ino, mtimeMs: made.mtimeMs });
    // An import changed: made again, with the new code.
    write(join(src, 'part.ts'), 'export const part: string = "two";\n');
    const second = bundleOf(join(src, 'main.ts'), dir);
    expect(second).not.toBe(first);
    expect(await answer(second!)).toBe('two');
  });

  it('leave the packages out of a bundle made with packages external, imported from node_modules as it runs', async () => {
    // The module and its bundles in a folder under the project, as the kept bundles are, so that a package's name resolves to node_modules.
    const dir = fileURLToPath(new URL(`../../../node_modules/.cache/evi-bundle-test-${process.pid}`, import.meta.url));
    try {
      const src = join(dir, 'src');
      mkdirSync(src, { recursive: true });
      write(join(src, 'main.ts'), 'import { parentPort } from "node:worker_threads";\nimport { z } from "zod";\nparentPort!.postMessage(z.string().parse("checked by zod"));\n');
      const external = bundleOf(join(src, 'main.ts'), dir, 'external');
      expect(external).not.toBeNull();
      const text = readFileSync(external!, 'utf8');
      expect(text).toMatch(/from "zod"/);
      expect(text.length).toBeLessThan(2000);
      expect(await answer(external!)).toBe('checked by zod');
      // Kept for the same way of bundling only: with the packages in, another bundle, holding zod's code.
      expect(bundleOf(join(src, 'main.ts'), dir, 'external')).toBe(external);
      const inside = bundleOf(join(src, 'main.ts'), dir, 'bundle');
      expect(inside).not.toBe(external);
      expect(readFileSync(inside!, 'utf8').length).toBeGreaterThan(50 * text.length);
      expect(await answer(inside!)).toBe('checked by zod');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("give each module of a bundle made with an anchor the anchor's import.meta.url, and keep it for that anchor only", async () => {
    const src = join(tmp, 'anchored');
    const dir = join(tmp, 'anchored-bundles');
    mkdirSync(join(src, 'lib'), { recursive: true });
    write(join(src, 'lib', 'where.ts'), 'export const where = (): string => new URL("./neighbour.txt", import.meta.url).href;\n');
    write(join(src, 'main.ts'), 'import { parentPort } from "node:worker_threads";\nimport { where } from "./lib/where.ts";\nparentPort!.postMessage([where(), import.meta.url]);\n');
    const anchor = join(src, 'lib', 'where.ts');
    const bundle = bundleOf(join(src, 'main.ts'), dir, 'bundle', anchor);
    expect(bundle).not.toBeNull();
    expect(await answer(bundle!)).toEqual([pathToFileURL(join(src, 'lib', 'neighbour.txt')).href, pathToFileURL(anchor).href]);
    expect(bundleOf(join(src, 'main.ts'), dir, 'bundle', anchor)).toBe(bundle);
    // Another anchor (another checkout's files, say): another bundle; none: the bundle's own URL.
    const other = bundleOf(join(src, 'main.ts'), dir, 'bundle', join(src, 'main.ts'));
    expect(other).not.toBe(bundle);
    expect(await answer(other!)).toEqual([pathToFileURL(join(src, 'neighbour.txt')).href, pathToFileURL(join(src, 'main.ts')).href]);
    const plain = bundleOf(join(src, 'main.ts'), dir);
    expect(await answer(plain!)).toEqual([pathToFileURL(join(dir, 'neighbour.txt')).href, pathToFileURL(plain!).href]);
  });

  it('give no bundle (the caller starts the module through tsx) for a module that does not compile, or one written while it is bundled', () => {
    const bad = join(tmp, 'bad.ts');
    write(bad, 'import { nothing } from "./missing.ts";\nconsole.log(nothing);\n');
    expect(bundleOf(bad, join(tmp, 'bad-bundles'))).toBeNull();
    const fresh = join(tmp, 'fresh.ts');
    writeFileSync(fresh, 'export {};\n');
    expect(bundleOf(fresh, join(tmp, 'fresh-bundles'))).toBeNull();
  });

  it('run the parser worker from its bundle with the result of the same job in this thread', async () => {
    // The build's workers have a bundle (a failure to make one would only show as slower starts).
    for (const w of ['./parse-worker.ts', './score-worker.ts', './month-worker.ts']) expect(workerBundle(fileURLToPath(new URL(w, import.meta.url))), w).not.toBeNull();
    // The page worker's as the page pool makes it (Astro in it): made another way here, into the
    // same folder, it would replace the one the builds of other test files keep.
    expect(workerBundle(fileURLToPath(new URL('./render-worker.ts', import.meta.url))), 'the page worker').not.toBeNull();
    expect(workerBundle(fileURLToPath(new URL('./compile-worker.ts', import.meta.url)), 'external'), 'the compile worker').not.toBeNull();
    const month = join(tmp, '2026-04.csv');
    writeFileSync(month, 'answer_id,collected_at,model,country,industry,theme,question_id,company\na1,2026-04-02,ChatGPT,us,Aerospace,Leadership,q1,Kestrel Aero\na1,2026-04-02,ChatGPT,us,Aerospace,Leadership,q1,Société Générale\na2,2026-04-03,Claude,US,aerospace,Pay,q2,\n');
    const job: MonthJob = { path: month, display: 'mentions/2026-04.csv', month: '2026-04', lookups: { countries: [{ code: 'us', name: 'United States', aliases: [] }], industries: [{ name: 'Aerospace', slug: 'aerospace' }] }, store: null };
    const w = tsWorker('./parse-worker.ts');
    const fromWorker = await new Promise((resolve) => {
      w.once('message', (m: { parsed: unknown }) => resolve(m.parsed));
      w.postMessage(job);
    });
    await w.terminate();
    const here = await runMonthJob(job);
    expect({ ...(fromWorker as object), seconds: 0 }).toEqual({ ...here, seconds: 0 });
  });

  it("leave out the options that load modules ahead and the build's V8 flags, and keep the others", () => {
    expect(execArgvWithoutLoaders(['--single-threaded', '--import', 'tsx', '--cpu-prof', '--require=./x.cjs', '-r', 'y', '--loader', 'z', '--experimental-loader=w', '--enable-source-maps'])).toEqual(['--cpu-prof', '--enable-source-maps']);
  });
});
