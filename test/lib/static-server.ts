/**
 * The built site over HTTP for the browser and page tests: the real Node server
 * (static files, the API through the same reader and caches as in production), on
 * an ephemeral loopback port, without rate limit or request log.
 */
import { startServer } from '../../src/adapters/node/index.ts';

export interface SiteServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

/**
 * @example
 * const server = await serveSite(await buildSite());
 * await fetch(`${server.url}/api/v1/health`);
 */
export async function serveSite(root: string): Promise<SiteServer> {
  const running = await startServer({ distDir: root, port: 0, rateLimitPerMinute: 0, log: null, logError: () => {} });
  return { url: running.url, close: () => running.close(100) };
}
