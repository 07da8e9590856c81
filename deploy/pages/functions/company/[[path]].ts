// Cloudflare Pages Functions: the profile pages, from the packs of a packed build (as files otherwise).
export { onRequest } from '../../../../src/adapters/cloudflare/pages.ts';
