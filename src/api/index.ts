/**
 * The thin function: one Web-standard handler for every endpoint of service-spec §4,
 * reading the precomputed views through a {@link ViewStore}. Runtimes (Node server,
 * Worker) only adapt to and from it.
 */
import { createApp } from './app.ts';
import type { AppOptions } from './app.ts';
import type { ViewStore } from './store.ts';

export type Handler = (request: Request) => Promise<Response>;
export type HandlerOptions = AppOptions;

/**
 * @example
 * const handle = createHandler(new MemoryStore(files));
 * const res = await handle(new Request('http://localhost/api/v1/health'));
 */
export function createHandler(store: ViewStore, options: HandlerOptions = {}): Handler {
  const app = createApp(store, options);
  return async (request) => app.fetch(request);
}

export { OPENAPI_PATH } from './app.ts';
export { ApiError, StoreError } from './errors.ts';
export { errorResponse } from './http.ts';
export { messages } from './messages.ts';
export { MemoryStore, ViewCache } from './store.ts';
export type { ViewStore } from './store.ts';
