// Cloudflare Pages Functions: /api and every path below it run the API handler.
export { onRequest } from '../../../../src/adapters/cloudflare/pages.ts';
