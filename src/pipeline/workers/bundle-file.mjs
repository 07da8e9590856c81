// @ts-check
/**
 * A TypeScript module and its imports as one JavaScript file, kept in node_modules/.cache with
 * its inputs' SHA-256 and made again by esbuild when one changed. Plain JavaScript, so that
 * `npm run build` can find or make the build's own bundle before anything loads TypeScript.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The project's folder. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Where the bundles are kept. */
export const BUNDLE_DIR = join(ROOT, 'node_modules', '.cache', 'employer-visibility-index', 'workers');

/**
 * @typedef {'bundle' | 'external'} Packages `bundle`: the imported packages are in the bundle.
 * `external`: they are imported from node_modules (Astro's build and Vite load parts of
 * themselves by path).
 *
 * @typedef {object} Manifest
 * @property {string} bundle the bundle's file name
 * @property {Packages} [packages] whether the packages are in the bundle
 * @property {string | null} [anchor] the URL every module's `import.meta.url` is in the bundle (null: the bundle's own)
 * @property {Record<string, string>} inputs each input, relative to the project's folder, and its content's SHA-256
 */

/** @param {Uint8Array | string} bytes */
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** @param {string} path @param {string} dir */
const manifestOf = (path, dir) => join(dir, `${basename(path, '.ts')}.json`);

/**
 * The bundle of the module at `path`, kept when its inputs are unchanged, else made now; null
 * when that fails (the caller then uses tsx). With `anchor`, `import.meta.url` in every module
 * is that file's URL, so the modules still find their neighbours.
 *
 * @param {string} path
 * @param {string} [dir]
 * @param {Packages} [packages]
 * @param {string} [anchor]
 * @returns {string | null}
 */
export function bundleOf(path, dir = BUNDLE_DIR, packages = 'bundle', anchor) {
  const url = anchor === undefined ? null : pathToFileURL(anchor).href;
  try {
    return kept(path, dir, packages, url) ?? make(path, dir, packages, url);
  } catch {
    return null;
  }
}

/**
 * The build's own bundle: scripts/build.ts and all it imports, anchored at
 * src/pipeline/workers/worker-pool.ts, beside every module that finds a file from its own
 * URL (the workers' entries). Null: none.
 * @returns {string | null}
 */
export function buildBundle() {
  return bundleOf(join(ROOT, 'scripts', 'build.ts'), BUNDLE_DIR, 'bundle', join(ROOT, 'src', 'pipeline', 'workers', 'worker-pool.ts'));
}

/** @param {string} path the module's path, as bundleOf has it: its kept bundle's manifest */
export const manifestPath = (path) => manifestOf(path, BUNDLE_DIR);

/**
 * The kept bundle when it was made the same way and each of its inputs is as it was bundled.
 * @param {string} path @param {string} dir @param {Packages} packages @param {string | null} anchor
 * @returns {string | null}
 */
function kept(path, dir, packages, anchor) {
  /** @type {Manifest} */
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestOf(path, dir), 'utf8'));
  } catch {
    return null;
  }
  if ((manifest.packages ?? 'bundle') !== packages || (manifest.anchor ?? null) !== anchor) return null;
  for (const [input, hash] of Object.entries(manifest.inputs)) {
    let bytes;
    try {
      bytes = readFileSync(join(ROOT, input));
    } catch {
      return null;
    }
    if (sha256(bytes) !== hash) return null;
  }
  // The bundle's name carries its digest: a truncated or edited bundle is made again, not loaded.
  const bundle = join(dir, manifest.bundle);
  let code;
  try {
    code = readFileSync(bundle);
  } catch {
    return null;
  }
  const digest = /-([0-9a-f]{16})\.mjs$/.exec(manifest.bundle)?.[1];
  return digest && sha256(code).startsWith(digest) ? bundle : null;
}

/**
 * Bundles the module, writes the bundle and then its manifest (each by a rename); null when an
 * input changed while it was bundled, as the bundle may then not match the hashes.
 * @param {string} path @param {string} dir @param {Packages} packages @param {string | null} anchor
 * @returns {string | null}
 */
function make(path, dir, packages, anchor) {
  // Loaded only when a bundle is made.
  /** @type {typeof import('esbuild')} */
  const esbuild = createRequire(import.meta.url)('esbuild');
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
    define: anchor === null ? undefined : { 'import.meta.url': JSON.stringify(anchor) },
    // CommonJS packages (PapaParse) require Node's modules: an ESM file has no `require` of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  /** @type {Record<string, string>} */
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    const file = join(ROOT, input);
    if (statSync(file).mtimeMs >= started - 1000) return null;
    inputs[input] = sha256(readFileSync(file));
  }
  const code = /** @type {import("esbuild").OutputFile} */ (result.outputFiles[0]).contents;
  const name = `${basename(path, '.ts')}-${sha256(code).slice(0, 16)}.mjs`;
  mkdirSync(dir, { recursive: true });
  /** @param {string} file @param {string | Uint8Array} content */
  const write = (file, content) => {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, content);
    renameSync(tmp, file);
  };
  write(join(dir, name), code);
  /** @type {Manifest} */
  const manifest = { bundle: name, packages, anchor, inputs };
  write(manifestOf(path, dir), JSON.stringify(manifest));
  return join(dir, name);
}
