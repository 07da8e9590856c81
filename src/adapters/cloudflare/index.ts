/**
 * The Cloudflare Worker: the same handler as the Node server, over the static
 * assets of `dist/`. wrangler.toml routes `/api`, `/api/*`, `/mcp` and the search
 * results page `/search/` here first; every other path is an asset.
 */
import { createHandler, isSearchPage } from '../../api/index.ts';
import type { Handler } from '../../api/index.ts';
import { AssetsStore } from './assets-store.ts';
import { MCP_PATH, handleMcp } from '../../mcp/server.ts';
import type { AssetsBinding } from './assets-store.ts';

export interface Env {
  ASSETS: AssetsBinding;
}

// One handler per isolate, so parsed views and the search index are reused across requests.
let handler: Handler | null = null;
let boundTo: AssetsBinding | null = null;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const { pathname } = url;
    const isMcp = pathname === MCP_PATH;
    if (!isMcp && !isSearchPage(pathname) && pathname !== '/api' && !pathname.startsWith('/api/')) return env.ASSETS.fetch(request);
    if (!handler || boundTo !== env.ASSETS) {
      handler = createHandler(new AssetsStore(env.ASSETS));
      boundTo = env.ASSETS;
    }
    return isMcp ? handleMcp(request, handler, url.origin) : handler(request);
  },
};
