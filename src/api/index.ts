/**
 * The thin function: one Web-standard handler for every endpoint of service-spec §4,
 * reading the precomputed views through a {@link ViewStore}, with the policy every
 * runtime applies around it (rate limit, kept answers, codings, request log; see
 * service.ts). This is the api's public entry: adapters import only this module.
 */
import { createApi } from './service.ts';
import type { ApiOptions, ClientEnv } from './service.ts';
import type { ViewStore } from './store.ts';

/** `fetch(Request, env)`: `env` carries what the runtime knows of the client (its address). */
export type Handler = (request: Request, env?: ClientEnv) => Promise<Response>;
export type HandlerOptions = ApiOptions;

/**
 * @example
 * const handle = createHandler(new MemoryStore(files));
 * const res = await handle(new Request('http://localhost/api/v1/health'));
 */
export function createHandler(store: ViewStore, options: HandlerOptions = {}): Handler {
  const api = createApi(store, options);
  return (request, env) => api.fetch(request, env);
}

export { createApi, errorAnswer, rateLimitedResponse, requestLogLine, toResponse } from './service.ts';
export type { Answer, Api, ApiOptions, ApiRequest, ClientEnv, RequestLogEntry } from './service.ts';
export { OPENAPI_PATH, companyCanon, currentCompanyAnswer, permalinkOf } from './app.ts';
/** Paths the handler answers outside `/api` (the HTML search results page), for adapters routing requests. */
export { isSearchPage } from '../core/urls.ts';
export { primeSearch } from '../core/search/prime.ts';
export { primeApi, primeHandler } from './prime.ts';
export { CACHE_NONE, RATE_LIMIT_PER_MINUTE } from '../core/policy.ts';
export { MIN_COMPRESS, negotiateEncoding } from './encoding.ts';
export type { Compressor, Encoding } from './encoding.ts';
export { ApiError, StoreError } from './errors.ts';
export { errorResponse } from './http.ts';
export { messages } from './messages.ts';
export { RateLimiter, clientKey } from './rate-limit.ts';
export type { RateLimitOptions, RateLimitResult } from './rate-limit.ts';
export { MemoryStore, ViewCache } from './store.ts';
export type { ViewStore } from './store.ts';
export { PackedStore } from './packed-store.ts';
export { packedAnswer, profilePage, splitFile } from './packed-answers.ts';
export { splitRoute } from '../core/views/packs.ts';
export type { PageAnswer } from './packed-answers.ts';
