/**
 * Cloudflare Pages Functions: the Worker's fetch behind Pages' `onRequest`. The files in
 * `functions/` route `/api`, `/api/*`, `/mcp`, the profile pages `/company/*`, the downloads
 * and the views here; every other path is one of Pages' static assets and never invokes
 * the function.
 */
import worker from './index.ts';
import type { Env } from './index.ts';

/** The part of Pages' EventContext the function reads. */
export interface PagesContext {
  request: Request;
  env: Env;
}

export const onRequest = (context: PagesContext): Promise<Response> => worker.fetch(context.request, context.env);
