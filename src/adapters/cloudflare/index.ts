/**
 * The Cloudflare Worker: the same handler as the Node server, over the static
 * assets of `dist/`. wrangler.toml routes `/api`, `/api/*`, `/mcp`, the search
 * results page `/search/`, the profile pages `/company/*`, the downloads and the public
 * views here first (a packed build keeps profiles in packs and a file too large for one
 * asset in parts; otherwise they are assets); every other path is an asset.
 */
import { PackedStore, RATE_LIMIT_PER_MINUTE, clientKey, createHandler, isSearchPage, packedAnswer, primeApi, primeSearch, rateLimitedResponse, splitRoute } from '../../api/index.ts';
import type { Handler } from '../../api/index.ts';
import { AssetsStore } from './assets-store.ts';
import { MCP_PATH, handleMcp } from '../../mcp/server.ts';
import { primeMcp } from '../../mcp/prime.ts';
import type { AssetsBinding } from './assets-store.ts';

/** Cloudflare's Rate Limiting binding (`[[ratelimits]]` in wrangler.toml): counts per key, per Cloudflare location. */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

export interface Env {
  ASSETS: AssetsBinding;
  /** Absent (a deployment without the binding, the tests' default): requests are not counted. */
  RATE_LIMITER?: RateLimitBinding;
  /**
   * `0` turns the limit off, for a client's own tests against a local preview: `npm run
   * preview:edge` and `npm run preview:pages` pass RATE_LIMIT_PER_MINUTE of their environment
   * as this variable. A deployment has none (unless its operator sets one): the binding counts.
   */
  RATE_LIMIT_PER_MINUTE?: string;
}

/**
 * service-spec §5: 60 requests a minute per client. The binding counts per client key
 * (an IPv4 address, an IPv6 /64: `clientKey`), from the address Cloudflare names; it
 * tells only whether a request is within the limit, so a refusal asks the client to wait
 * the binding's whole period. Preflights are not counted, as on the Node server.
 */
async function overLimit(request: Request, env: Env): Promise<Response | null> {
  const address = request.headers.get('cf-connecting-ip');
  if (!env.RATE_LIMITER || env.RATE_LIMIT_PER_MINUTE?.trim() === '0' || address === null || request.method === 'OPTIONS') return null;
  const { success } = await env.RATE_LIMITER.limit({ key: clientKey(address) });
  return success ? null : rateLimitedResponse(RATE_LIMIT_PER_MINUTE, 60);
}

// One handler per isolate, so parsed views and the search index are reused across requests.
// It is made at startup (global scope, which Cloudflare limits separately as startup time, 1 s)
// over the binding of the first request, and made again if a request brings another.
let boundTo: AssetsBinding | null = null;
const lateAssets: AssetsBinding = { fetch: (request) => (boundTo as AssetsBinding).fetch(request) };
let store = new PackedStore(new AssetsStore(lateAssets));
let handler: Handler = createHandler(store);
// Also at startup: the search code runs over a synthetic index, and the handler once per
// endpoint over a tiny in-memory store (its own instance), so that a fresh instance's first
// request does not run that code for the first time. No I/O: the priming is microtasks only,
// which the runtime runs to the end after evaluating the module, before any request (tried
// under workerd). Not awaited: wrangler's Pages Functions bundle cannot hold a top-level
// await. Under workerd the primed requests stop where a Response with a body would be
// made, which its global scope forbids (see src/api/prime.ts). The MCP tools and the SDK's
// message schemas too (src/mcp/prime.ts), not the SDK's server, which workerd refuses there.
primeSearch();
void primeApi();
void primeMcp();

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const { pathname } = url;
    const isMcp = pathname === MCP_PATH;
    const isPage = pathname.startsWith('/company/') || splitRoute(pathname) !== null;
    if (!isMcp && !isPage && !isSearchPage(pathname) && pathname !== '/api' && !pathname.startsWith('/api/')) return env.ASSETS.fetch(request);
    if (boundTo !== env.ASSETS) {
      if (boundTo !== null) {
        store = new PackedStore(new AssetsStore(lateAssets));
        handler = createHandler(store);
      }
      boundTo = env.ASSETS;
    }
    if (isPage) {
      const page = await packedAnswer(store, request.method, pathname, request.headers.get('if-none-match'));
      return page ? new Response((page.body ?? null) as BodyInit | null, { status: page.status, headers: page.headers }) : env.ASSETS.fetch(request);
    }
    const refused = await overLimit(request, env);
    if (refused) return refused;
    return isMcp ? handleMcp(request, handler, url.origin) : handler(request);
  },
};
