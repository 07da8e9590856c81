// Cloudflare Pages Functions: the downloads, joined from their parts when a build split them (as files otherwise).
export { onRequest } from '../../../../src/adapters/cloudflare/pages.ts';
