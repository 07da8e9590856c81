// @ts-check
/**
 * The build's folders and what their names say, in plain JavaScript: `npm run build`'s
 * script (scripts/build.mjs) reads them before it loads the build, to decide how the build's
 * process starts (huge-pages.mjs), and the build reads them the same way.
 */
import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/**
 * The data and cache folders the environment names: EVI_DATA_DIR (default `data`),
 * EVI_CACHE_DIR (default `.cache/months`; `off`: no cache), from the current folder. Unset or
 * empty is the default (an empty value would otherwise be the current folder).
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ dataDir: string, cacheDir: string | null }}
 */
export function buildFolders(env) {
  const cache = env.EVI_CACHE_DIR || '.cache/months';
  return { dataDir: resolve(env.EVI_DATA_DIR || 'data'), cacheDir: cache === 'off' ? null : resolve(cache) };
}

/** A month file's name: YYYY-MM.csv or YYYY-MM.csv.gz. */
export const MONTH_FILE_RE = /^(\d{4}-(0[1-9]|1[0-2]))\.csv(\.gz)?$/;

/**
 * The month (YYYY-MM) of a month file, by its path or name, which MONTH_FILE_RE matched.
 * @param {string} path
 * @returns {string}
 */
export const monthOfFile = (path) => /** @type {string} */ (/** @type {RegExpExecArray} */ (MONTH_FILE_RE.exec(basename(path)))[1]);

/**
 * The month files' names in `dir`, oldest first (none without the folder).
 * @param {string} dir
 * @returns {string[]}
 */
export function monthFileNames(dir) {
  try {
    return readdirSync(dir).filter((n) => MONTH_FILE_RE.test(n)).sort();
  } catch {
    return [];
  }
}

/**
 * Whether a cache folder's file `name` is a parsed month's entry for `month` (caches.ts,
 * parsedMonthEntry: `{month}-{32 hex digits}.bin`), made from any lookups and content.
 * @param {string} name
 * @param {string} month
 * @returns {boolean}
 */
export const isParsedMonthEntry = (name, month) => name.length === month.length + 37 && name.startsWith(`${month}-`) && /^[0-9a-f]{32}\.bin$/.test(name.slice(month.length + 1));

/**
 * The newest month file and the one before it when the cache has an entry for the one before
 * (a monthly build, most likely, by the folders' names alone); null otherwise (a cold build,
 * most likely), or with fewer than two months.
 * @param {string} dataDir
 * @param {string} cacheDir
 * @param {string[]} [names] the month files' names in the data folder, when the caller has listed them
 * @returns {{ path: string, before: string } | null}
 */
export function likelyMonthly(dataDir, cacheDir, names = monthFileNames(join(dataDir, 'mentions'))) {
  const dir = join(dataDir, 'mentions');
  if (names.length < 2) return null;
  const [previous, newest] = /** @type {[string, string]} */ (names.slice(-2));
  const month = monthOfFile(previous);
  try {
    if (!readdirSync(cacheDir).some((n) => isParsedMonthEntry(n, month))) return null;
  } catch {
    return null; // no cache folder yet: a cold build
  }
  return { path: join(dir, newest), before: join(dir, previous) };
}
