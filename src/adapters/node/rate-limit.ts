/**
 * Rolling-window rate limit of data-and-rules §4 (60 requests per rolling minute
 * per client address): each client keeps the times of its counted requests within
 * the window; refused requests are not counted.
 *
 * A client is an IPv4 address or an IPv6 /64 (one host usually holds a whole /64),
 * whatever its spelling ({@link clientKey}). The table is an LRU of at most
 * `maxClients` entries, so a flood of new addresses evicts the least recently seen
 * clients instead of growing without end.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { LRUCache } from 'lru-cache';

/** The eight 16-bit groups of a canonical (WHATWG-serialised, hex-only) IPv6 address. */
function groups(canonical: string): number[] {
  const [head = '', tail] = canonical.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The rate-limit key of an address: IPv4 as dotted quad, IPv4-mapped IPv6
 * (`::ffff:1.2.3.4`, `::ffff:102:304`) as that IPv4, other IPv6 as its /64 prefix,
 * insensitive to case, zero padding, `::` placement, brackets, a port or a zone.
 * Anything else (a proxy's odd X-Forwarded-For entry) counts as itself, lower-cased.
 *
 * @example
 * clientKey('2001:DB8:0:0:1::7') === clientKey('[2001:db8::2]:443') // '2001:db8:0:0::/64'
 */
export function clientKey(address: string): string {
  let a = address.trim();
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1] as string;
  else if (/^[\d.]+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  a = a.replace(/%.*$/, '');
  if (isIPv4(a)) return a;
  if (isIPv6(a)) {
    // The URL parser gives the one canonical text of RFC 5952 (lower case, hex, no padding).
    const g = groups(new URL(`http://[${a}]/`).hostname.slice(1, -1));
    if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
      const [hi = 0, lo = 0] = g.slice(6);
      return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
    }
    return `${g.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64`;
  }
  return address.trim().toLowerCase().slice(0, 256);
}

export interface RateLimitOptions {
  /** Requests per window; 0 disables the limit. */
  limit: number;
  /** Window length in ms (default one minute). */
  windowMs?: number;
  /** Clients remembered at once (default 100,000); beyond it the least recently seen is forgotten. */
  maxClients?: number;
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
  readonly #clients: LRUCache<string, number[]>;
  readonly #policy: string;
  #lastSweep: number;

  constructor(options: RateLimitOptions) {
    this.limit = Math.max(0, Math.floor(options.limit));
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#policy = `"default";q=${this.limit};w=${Math.round(this.#windowMs / 1000)}`;
    this.#lastSweep = this.#now();
    this.#clients = new LRUCache({ max: Math.max(1, Math.floor(options.maxClients ?? 100_000)) });
  }

  /** Clients in the table now. */
  get size(): number {
    return this.#clients.size;
  }

  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Counts a request of `address` (any spelling; see {@link clientKey}). */
  check(address: string): RateLimitResult {
    const client = clientKey(address);
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
    const idle: string[] = [];
    for (const [client, times] of this.#clients.entries()) if ((times[times.length - 1] ?? 0) <= horizon) idle.push(client);
    for (const client of idle) this.#clients.delete(client);
    this.#lastSweep = now;
  }
}
