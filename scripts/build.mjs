// `npm run build`: scripts/build.ts from its bundle (src/pipeline/workers/bundle-file.mjs), so the build
// starts without loading TypeScript through tsx; without a bundle, through tsx.
import { pathToFileURL } from 'node:url';
import { buildBundle } from '../src/pipeline/workers/bundle-file.mjs';

const bundle = buildBundle();
if (bundle) await import(pathToFileURL(bundle).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./build.ts');
}
