// `npm run build`: scripts/build.ts from its bundle (src/build/bundle-file.mjs), one JavaScript
// file made by esbuild and kept while its inputs are unchanged, so that the build starts
// without tsx: through tsx's hooks, registering them and loading the build's ~220 modules took
// ~0.55 s, the bundle ~0.13 s (BENCHMARKS.md, "Build: the build's own modules from a bundle").
// Each module's `import.meta.url` in the bundle is that of a module of src/build, where every
// module of the build that finds a file from its own URL is. Without a bundle (no esbuild, a
// read-only folder, a source written while it was bundled), through tsx as before.
//
// A monthly build (by the folders' names, as for its spare parser worker) runs with glibc's
// large blocks on huge pages (src/build/huge-pages.mjs): this process, before it loads the
// build, starts itself again with that setting, which glibc reads only as a process starts,
// and ends as the new one does.
import { pathToFileURL } from 'node:url';
import { buildBundle } from '../src/build/bundle-file.mjs';
import { buildFolders, likelyMonthly } from '../src/build/build-folders.mjs';
import { hugePagesEnv, relaunch, thpSetting } from '../src/build/huge-pages.mjs';

// The environment first (the started process has the setting: no folder is read again), then the folders.
const hugePages = hugePagesEnv(process.env, process.platform, thpSetting());
const { dataDir, cacheDir } = buildFolders(process.env);
if (hugePages && cacheDir && likelyMonthly(dataDir, cacheDir)) await relaunch(hugePages);
const bundle = buildBundle();
if (bundle) await import(pathToFileURL(bundle).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./build.ts');
}
