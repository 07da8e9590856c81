/**
 * Rolling-window rate limit of data-and-rules §4 (60 requests per rolling minute
 * per client address): each client keeps the times of its counted requests within
 * the window; refused requests are not counted.
 */
export interface RateLimitOptions {
  /** Requests per window; 0 disables the limit. */
  limit: number;
  /** Window length in ms (default one minute). */
  windowMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (a unit frees up). */
  reset: number;
  /** The IETF RateLimit / RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers), plus Retry-After when refused. */
  headers: Record<string, string>;
}

/**
 * @example
 * const limiter = new RateLimiter({ limit: 60 });
 * if (!limiter.check('203.0.113.9').allowed) // answer 429
 */
export class RateLimiter {
  readonly limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #clients = new Map<string, number[]>();
  readonly #policy: string;
  #lastSweep: number;

  constructor(options: RateLimitOptions) {
    this.limit = Math.max(0, Math.floor(options.limit));
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#policy = `"default";q=${this.limit};w=${Math.round(this.#windowMs / 1000)}`;
    this.#lastSweep = this.#now();
  }

  get enabled(): boolean {
    return this.limit > 0;
  }

  check(client: string): RateLimitResult {
    const now = this.#now();
    const horizon = now - this.#windowMs;
    if (now - this.#lastSweep > this.#windowMs) this.#sweep(horizon, now);
    let times = this.#clients.get(client);
    if (!times) this.#clients.set(client, (times = []));
    let expired = 0;
    while (expired < times.length && (times[expired] as number) <= horizon) expired++;
    if (expired > 0) times.splice(0, expired);
    const allowed = times.length < this.limit;
    if (allowed) times.push(now);
    const oldest = times[0] ?? now;
    const reset = Math.max(allowed ? 0 : 1, Math.ceil((oldest + this.#windowMs - now) / 1000));
    const remaining = Math.max(0, this.limit - times.length);
    const headers: Record<string, string> = {
      'RateLimit-Policy': this.#policy,
      RateLimit: `"default";r=${remaining};t=${reset}`,
    };
    if (!allowed) headers['Retry-After'] = String(reset);
    return { allowed, remaining, reset, headers };
  }

  #sweep(horizon: number, now: number): void {
    for (const [client, times] of this.#clients) {
      if ((times[times.length - 1] ?? 0) <= horizon) this.#clients.delete(client);
    }
    this.#lastSweep = now;
  }
}
