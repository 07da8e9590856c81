// `npm run build`: scripts/build.ts from its bundle (src/build/bundle-file.mjs), one JavaScript
// file made by esbuild and kept while its inputs are unchanged, so that the build starts
// without loading TypeScript through tsx. Without a bundle (no esbuild, a read-only folder),
// through tsx.
import { pathToFileURL } from 'node:url';
import { buildBundle } from '../src/build/bundle-file.mjs';

const bundle = buildBundle();
if (bundle) await import(pathToFileURL(bundle).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./build.ts');
}
