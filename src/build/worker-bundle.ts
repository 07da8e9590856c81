/**
 * A build worker's module as one JavaScript file, so that its thread starts without tsx.
 *
 * A worker thread that runs a TypeScript module through tsx registers tsx's hooks (a
 * thread of their own) and has each of its ~100 modules (zod's among them) resolved and
 * loaded through them: two parser workers took ~1.1 s to answer their first job so, on
 * this machine's two cores, against ~0.16 s for the same module bundled into one file and
 * started without the parent's loader flags (BENCHMARKS.md, "Build: control characters
 * checked in the text"). esbuild, which tsx itself uses to compile each module, bundles the
 * module with what it imports, packages included, into one ESM file; or, for Astro's compile
 * worker, the project's modules only (`packages: 'external'`): Astro's build and Vite are
 * imported from node_modules, where they load parts of themselves by path. The page worker's
 * bundle holds Astro's container and runtime (the compiled pages carry their own copy of
 * the runtime in their chunks): `import('astro/container')` from node_modules loads ~580
 * modules, ~0.9-1.1 s of CPU a thread, against ~0.2 s for the bundle (BENCHMARKS.md, "Build:
 * the page worker's bundle with Astro in it").
 *
 * The bundle is kept in node_modules/.cache (where build tools keep what they make), with
 * the list of its inputs and their SHA-256 (bundle-file.mjs, which also makes the build's own
 * bundle): it is used while every input is the same, and made again (~0.1-0.2 s) when one
 * changed. When it cannot be made or kept (no esbuild, a read-only folder), the caller starts
 * the module through tsx as before.
 */
import { BUILD_V8_FLAGS } from './build-command.ts';
import { BUNDLE_DIR, bundleOf, type Packages } from './bundle-file.mjs';

export { bundleOf, type Packages };

/** Each module's bundle (or null: none) made each way, looked up once a process. */
const known = new Map<string, string | null>();

/** The bundle of the TypeScript module at `path` (absolute), made if needed; null when there is none. */
export function workerBundle(path: string, packages: Packages = 'bundle'): string | null {
  const key = `${packages}:${path}`;
  let bundle = known.get(key);
  if (bundle === undefined) known.set(key, (bundle = bundleOf(path, BUNDLE_DIR, packages)));
  return bundle;
}

/**
 * The parent's Node options less those that load modules ahead (`--import tsx` and its kind):
 * a bundle needs none, and a worker inherits them otherwise (~0.1 s more for each to start);
 * less {@link BUILD_V8_FLAGS} too, which Node refuses there. The others (--cpu-prof, for one)
 * are kept.
 */
export function execArgvWithoutLoaders(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (/^(--import|--require|-r|--loader|--experimental-loader)$/.test(a)) {
      i++;
      continue;
    }
    if (/^(--import|--require|--loader|--experimental-loader)=/.test(a) || BUILD_V8_FLAGS.includes(a)) continue;
    out.push(a);
  }
  return out;
}
