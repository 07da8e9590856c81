// @ts-check
import { defineConfig } from 'astro/config';
import { youngClosures } from './src/pipeline/pages/young-closures.ts';

// The build (scripts/build.ts) passes outDir and site; SITE_URL is the absolute base of every URL.
export default defineConfig({
  site: (process.env.SITE_URL || 'http://localhost:4321').replace(/\/+$/, ''),
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
  // Astro's runtime with its slot closures allocated young (src/pipeline/pages/young-closures.ts).
  vite: { plugins: [youngClosures()] },
});
