/**
 * Rolling-window rate limit of data-and-rules §4 (60 requests per rolling minute
 * per client address): each client keeps the times of its counted requests within
 * the window; refused requests are not counted.
 *
 * A client is an IPv4 address or an IPv6 /64 (one host usually holds a whole /64),
 * whatever its spelling ({@link clientKey}). The table is an LRU of at most
 * `maxClients` entries, so a flood of new addresses evicts the least recently seen
 * clients instead of growing without end. Runtime-neutral (no `node:*`): any adapter
 * gives the client's address and gets the decision and the headers.
 */
import { LRUCache } from 'lru-cache';

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;

/** The eight 16-bit groups of an IPv6 address, or `null` when it is not one (the WHATWG URL parser decides). */
function ipv6Groups(address: string): number[] | null {
  if (!address.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(address)) return null;
  let canonical: string;
  try {
    // The one canonical text of RFC 5952 (lower case, hex, no padding, embedded IPv4 as hex).
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
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
  if (IPV4.test(a)) return a;
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1] as string;
  else if (/^[\d.]+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  a = a.replace(/%.*$/, '');
  if (IPV4.test(a)) return a;
  const g = ipv6Groups(a);
  if (g) {
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
  readonly headers: Record<string, string>;
}

/**
 * A decision, its header fields written only when asked for: a kept answer carries
 * RateLimit-Policy alone, so most requests never need them. Writing them on every
 * check turned the ever-changing `remaining` into a new string per request, and V8
 * keeps number-to-string results in its number-string cache (old space): the Node
 * server's memory grew under load until a major GC (`bench:serve --soak` shows it).
 */
class Decision implements RateLimitResult {
  constructor(
    readonly allowed: boolean,
    readonly remaining: number,
    readonly reset: number,
    readonly policy: string,
  ) {}

  get headers(): Record<string, string> {
    const headers: Record<string, string> = { 'RateLimit-Policy': this.policy, RateLimit: `"default";r=${this.remaining};t=${this.reset}` };
    if (!this.allowed) headers['Retry-After'] = String(this.reset);
    return headers;
  }
}

/**
 * One client's counted requests within the window: request times (ms) with how many
 * requests fell on each, oldest first. Requests in the same millisecond share an
 * entry, so a client holds at most min(limit, window in ms) entries however fast it
 * asks; checking is amortised O(1).
 */
class Window {
  times: number[] = [];
  counts: number[] = [];
  head = 0;
  total = 0;

  expire(horizon: number): void {
    const { times, counts } = this;
    let head = this.head;
    while (head < times.length && (times[head] as number) <= horizon) this.total -= counts[head++] as number;
    if (head === times.length) {
      times.length = 0;
      counts.length = 0;
      head = 0;
    } else if (head > 64 && head * 2 > times.length) {
      times.splice(0, head);
      counts.splice(0, head);
      head = 0;
    }
    this.head = head;
  }

  add(now: number): void {
    const last = this.times.length - 1;
    if (last >= this.head && this.times[last] === now) (this.counts[last] as number)++;
    else {
      this.times.push(now);
      this.counts.push(1);
    }
    this.total++;
  }

  get oldest(): number | undefined {
    return this.head < this.times.length ? this.times[this.head] : undefined;
  }

  get newest(): number | undefined {
    return this.head < this.times.length ? this.times[this.times.length - 1] : undefined;
  }
}

/**
 * @example
 * const limiter = new RateLimiter({ limit: 60 });
 * if (!limiter.check('203.0.113.9').allowed) // answer 429
 */
export class RateLimiter {
  readonly limit: number;
  /** The RateLimit-Policy field: the same for every client, so cacheable answers may carry it. */
  readonly policy: string;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #clients: LRUCache<string, Window>;
  #lastSweep: number;
  /** The last address seen and its key: a keep-alive connection sends many requests in a row. */
  #lastAddress = '';
  #lastKey = '';

  constructor(options: RateLimitOptions) {
    this.limit = Math.max(0, Math.floor(options.limit));
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.policy = `"default";q=${this.limit};w=${Math.round(this.#windowMs / 1000)}`;
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
    if (address !== this.#lastAddress) {
      this.#lastKey = clientKey(address);
      this.#lastAddress = address;
    }
    const client = this.#lastKey;
    const now = this.#now();
    const horizon = now - this.#windowMs;
    if (now - this.#lastSweep > this.#windowMs) this.#sweep(horizon, now);
    let window = this.#clients.get(client);
    if (!window) this.#clients.set(client, (window = new Window()));
    window.expire(horizon);
    const allowed = window.total < this.limit;
    if (allowed) window.add(now);
    const oldest = window.oldest ?? now;
    const reset = Math.max(allowed ? 0 : 1, Math.ceil((oldest + this.#windowMs - now) / 1000));
    const remaining = Math.max(0, this.limit - window.total);
    return new Decision(allowed, remaining, reset, this.policy);
  }

  #sweep(horizon: number, now: number): void {
    const idle: string[] = [];
    for (const [client, window] of this.#clients.entries()) if ((window.newest ?? 0) <= horizon) idle.push(client);
    for (const client of idle) this.#clients.delete(client);
    this.#lastSweep = now;
  }
}
