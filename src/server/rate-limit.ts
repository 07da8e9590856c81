/**
 * Rolling-window rate limit of data-and-rules §4 (60 requests per rolling minute
 * per client address): each client keeps the times of its counted requests within
 * the window; refused requests are not counted.
 *
 * Clients are keyed by {@link clientKey}: every spelling of one address is one client
 * (parsed by ipaddr.js), and an IPv6 client is its /64, the smallest block a host
 * is usually given. The table is an `lru-cache` bounded by `maxClients`: when full,
 * the least recently seen client is evicted (it starts afresh if it comes back), so
 * a flood of distinct addresses costs bounded memory.
 */
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

export interface RateLimitOptions {
  /** Requests per window; 0 disables the limit. */
  limit: number;
  /** Window length in ms (default one minute). */
  windowMs?: number;
  /** Clients remembered at most (default 100,000: about 20 MB at 60 requests each). */
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
  /**
   * The IETF RateLimit / RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers), plus
   * Retry-After when refused. The server sends them on 429 only (which is `no-store`), so
   * that no shared cache stores one client's budget with a response it gives to others.
   */
  headers: Record<string, string>;
}

/** `[v6]:port`, `v4:port` (but not a bare IPv6 address). */
const WITH_PORT = /^\[([^\]]+)\](?::\d*)?$|^(\d{1,3}(?:\.\d{1,3}){3}):\d*$/;

/**
 * The rate-limit key of an address as a socket or `X-Forwarded-For` spells it: IPv4 in
 * dotted form (also when IPv4-mapped IPv6), IPv6 as its /64 prefix; case, zero padding,
 * `::` compression and a `:port` or brackets make no difference. Anything unparsable
 * is its own key, lower-cased.
 *
 * @example
 * clientKey('::ffff:192.0.2.1') === clientKey('192.0.2.1:5000') // '192.0.2.1'
 * clientKey('2001:DB8::1') === clientKey('[2001:db8:0:0:ffff::2]:443') // '2001:db8::/64'
 */
export function clientKey(address: string): string {
  let raw = address.trim();
  const port = WITH_PORT.exec(raw);
  if (port) raw = (port[1] ?? port[2]) as string;
  const zone = raw.indexOf('%');
  if (zone !== -1) raw = raw.slice(0, zone);
  if (!ipaddr.isValid(raw)) return raw.toLowerCase();
  const parsed = ipaddr.process(raw);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
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

  constructor(options: RateLimitOptions) {
    this.limit = Math.max(0, Math.floor(options.limit));
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#policy = `"default";q=${this.limit};w=${Math.round(this.#windowMs / 1000)}`;
    this.#clients = new LRUCache<string, number[]>({ max: Math.max(1, options.maxClients ?? 100_000) });
  }

  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Clients currently remembered (at most `maxClients`). */
  get size(): number {
    return this.#clients.size;
  }

  /** Counts a request of the client at `address` (any spelling; see {@link clientKey}). */
  check(address: string): RateLimitResult {
    const now = this.#now();
    const horizon = now - this.#windowMs;
    const key = clientKey(address);
    let times = this.#clients.get(key);
    if (!times) this.#clients.set(key, (times = []));
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
}
