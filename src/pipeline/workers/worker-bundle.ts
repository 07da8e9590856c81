/**
 * A build worker's module as one JavaScript file, so that its thread starts without tsx's
 * slow hooks (bundle-file.mjs); when it cannot be made, the caller uses tsx.
 */
import { BUILD_V8_FLAGS } from './build-command.ts';
import { BUNDLE_DIR, bundleOf, type Packages } from './bundle-file.mjs';

export { bundleOf, type Packages };

/** Each module's bundle (or null: none), looked up once a process. */
const known = new Map<string, string | null>();

/** The bundle of the TypeScript module at `path` (absolute), made if needed; null when there is none. */
export function workerBundle(path: string, packages: Packages = 'bundle'): string | null {
  const key = `${packages}:${path}`;
  let bundle = known.get(key);
  if (bundle === undefined) known.set(key, (bundle = bundleOf(path, BUNDLE_DIR, packages)));
  return bundle;
}

/** The parent's Node options less module preloads and {@link BUILD_V8_FLAGS}, which Node refuses in a worker. */
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
