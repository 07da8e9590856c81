/**
 * A build worker's module as one JavaScript file, so that its thread starts without tsx.
 *
 * A worker thread that runs a TypeScript module through tsx registers tsx's hooks (a
 * thread of their own) and has each of its ~100 modules (zod's among them) resolved and
 * loaded through them: two parser workers took ~1.1 s to answer their first job so, on
 * this machine's two cores, against ~0.16 s for the same module bundled into one file and
 * started without the parent's loader flags (BENCHMARKS.md, "Build: control characters
 * checked in the text"). esbuild, which tsx itself uses to compile each module, bundles the
 * module with what it imports, packages included, into one ESM file; or, for the page
 * worker, the project's modules only (`packages: 'external'`): Astro's runtime and container
 * are imported from node_modules, as the compiled pages import their packages. Its thread
 * then runs no tsx hooks thread beside it either (a monthly reference build: ~3 s less
 * user CPU, BENCHMARKS.md, "Build: the page worker from a bundle").
 *
 * The bundle is kept in node_modules/.cache (where build tools keep what they make), with
 * the list of its inputs and their SHA-256: it is used while every input is the same, and
 * made again (~0.1-0.2 s) when one changed. When it cannot be made or kept (no esbuild, a
 * read-only folder), the caller starts the module through tsx as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_V8_FLAGS } from './build-command.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIR = join(ROOT, 'node_modules', '.cache', 'employer-visibility-index', 'workers');

interface Manifest {
  bundle: string;
  /** Whether the packages (node_modules) are in the bundle or imported from node_modules as it runs. */
  packages?: Packages;
  /** Each input, relative to the project's folder, and its content's SHA-256. */
  inputs: Record<string, string>;
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * `bundle`: the packages the module imports are in the bundle (zod, PapaParse: loaded with it
 * in one file). `external`: they are imported from node_modules as the bundle runs (Astro's
 * runtime and container, which the page worker shares with the compiled pages it imports, and
 * which loads parts of itself by path): only the project's own modules are in the bundle.
 */
export type Packages = 'bundle' | 'external';

/** Each module's bundle (or null: none) made each way, looked up once a process. */
const known = new Map<string, string | null>();

/** The bundle of the TypeScript module at `path` (absolute), made if needed; null when there is none. */
export function workerBundle(path: string, packages: Packages = 'bundle'): string | null {
  const key = `${packages}:${path}`;
  let bundle = known.get(key);
  if (bundle === undefined) known.set(key, (bundle = bundleOf(path, DIR, packages)));
  return bundle;
}

/** The bundle of `path` kept in `dir` when its inputs are unchanged, else made now; null when that fails. */
export function bundleOf(path: string, dir = DIR, packages: Packages = 'bundle'): string | null {
  try {
    return kept(path, dir, packages) ?? make(path, dir, packages);
  } catch {
    return null;
  }
}

const manifestOf = (path: string, dir: string) => join(dir, `${basename(path, '.ts')}.json`);

/** The kept bundle when it was made the same way and each of its inputs is as it was bundled. */
function kept(path: string, dir: string, packages: Packages): string | null {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestOf(path, dir), 'utf8')) as Manifest;
  } catch {
    return null;
  }
  if ((manifest.packages ?? 'bundle') !== packages) return null;
  for (const [input, hash] of Object.entries(manifest.inputs)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(ROOT, input));
    } catch {
      return null;
    }
    if (sha256(bytes) !== hash) return null;
  }
  const bundle = join(dir, manifest.bundle);
  return existsSync(bundle) ? bundle : null;
}

/**
 * Bundles the module, writes the bundle and then its manifest (each by a rename); null (tsx
 * this time) when an input was written while it was bundled or in the second before, for
 * then the bundle may hold another version of it than the one hashed. The inputs are named
 * relative to the project's folder, so a manifest read from another checkout of the same
 * project is only ever taken for inputs with the same content.
 */
function make(path: string, dir: string, packages: Packages): string | null {
  // Loaded only when a bundle is made: esbuild starts its own process for each build.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const started = Date.now();
  const result = esbuild.buildSync({
    entryPoints: [path],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    packages: packages === 'external' ? 'external' : undefined,
    // CommonJS packages (PapaParse) require Node's modules: an ESM file has no `require` of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  const inputs: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    const file = join(ROOT, input);
    if (statSync(file).mtimeMs >= started - 1000) return null;
    inputs[input] = sha256(readFileSync(file));
  }
  const code = result.outputFiles[0]!.contents;
  const name = `${basename(path, '.ts')}-${sha256(code).slice(0, 16)}.mjs`;
  mkdirSync(dir, { recursive: true });
  const write = (file: string, content: string | Uint8Array) => {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, content);
    renameSync(tmp, file);
  };
  write(join(dir, name), code);
  write(manifestOf(path, dir), JSON.stringify({ bundle: name, packages, inputs } satisfies Manifest));
  return join(dir, name);
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
