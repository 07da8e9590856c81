import type { ErrorResponse } from '../core/schemas/responses.ts';

type ErrorCode = ErrorResponse['error'];
/** The optional fields of an error body (data-and-rules §4). */
export type ErrorExtra = Omit<ErrorResponse, 'error' | 'message'>;

/**
 * The one error type of the API: thrown anywhere in a request, turned into a
 * JSON `Response` by {@link errorResponse} only.
 *
 * @example
 * throw new ApiError(404, 'not_found', messages.unknownCompany(slug));
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 404 | 405 | 429 | 500 | 502,
    readonly code: ErrorCode,
    message: string,
    readonly extra: ErrorExtra = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get body(): ErrorResponse {
    return { error: this.code, message: this.message, ...this.extra };
  }
}

/** A view that could not be read or parsed: answered 502 `internal` (service-spec §7). */
export class StoreError extends Error {
  /** Set once the failure has been logged, so it is logged once. */
  reported = false;

  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`view ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreError';
  }
}

export const badRequest = (message: string, extra?: ErrorExtra) => new ApiError(400, 'bad_request', message, extra);
export const notFound = (message: string, extra?: ErrorExtra) => new ApiError(404, 'not_found', message, extra);
