/**
 * Rolling-window rate limit of data-and-rules §4 (60 requests per rolling minute
 * per client address): each client keeps the times of its counted requests within
 * the window; refused requests are not counted.
 *
 * Clients are keyed by {@link clientKey}: every spelling of one address is one client,
 * and an IPv6 client is its /64, the smallest block a host is usually given. (The
 * address parsing is Node's `net.isIPv6` plus a few lines of expansion: ipaddr.js was
 * taken out of the dependencies, and `node:net` validates as strictly.) The table is an `lru-cache` bounded by `maxClients`: when full,
 * the least recently seen client is evicted (it starts afresh if it comes back), so
 * a flood of distinct addresses costs bounded memory.
 */
import { isIPv6 } from 'node:net';
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
  const v4 = dottedQuad(raw);
  if (v4) return v4;
  if (!isIPv6(raw)) return raw.toLowerCase();
  const parts = expandIPv6(raw);
  // IPv4-mapped (::ffff:a.b.c.d) is the IPv4 client.
  if (parts.slice(0, 5).every((p) => p === 0) && parts[5] === 0xffff) {
    const [hi = 0, lo = 0] = parts.slice(6);
    return `${hi >>> 8}.${hi & 255}.${lo >>> 8}.${lo & 255}`;
  }
  return `${compressIPv6([...parts.slice(0, 4), 0, 0, 0, 0])}/64`;
}

/** `a.b.c.d` with each part 0-255 in decimal (leading zeros allowed and dropped), else null. */
function dottedQuad(text: string): string | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets.join('.') : null;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an IPv4 tail converted). */
function expandIPv6(text: string): number[] {
  let body = text.toLowerCase();
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(body);
  if (tail) {
    const [a = 0, b = 0, c = 0, d = 0] = (tail[1] as string).split('.').map(Number);
    body = `${body.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = body.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const fill = rest === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

/** RFC 5952 text of eight groups: lower case, no leading zeros, the longest run of zeros as `::`. */
function compressIPv6(parts: number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (parts[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && parts[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = parts.map((p) => p.toString(16));
  if (best === -1) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
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
