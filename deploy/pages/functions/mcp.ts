// Cloudflare Pages Functions: /mcp runs the MCP server (Streamable HTTP) over the API handler.
export { onRequest } from '../../../src/adapters/cloudflare/pages.ts';
