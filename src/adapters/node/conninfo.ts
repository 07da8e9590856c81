import type { IncomingMessage } from 'node:http';

/**
 * The client address a request is counted against: the socket's peer, or, behind
 * `trustedProxies` reverse proxies, the address the outermost trusted proxy saw
 * (the `trustedProxies`-th `X-Forwarded-For` entry from the right).
 */
export function clientAddress(incoming: IncomingMessage, trustedProxies = 0): string {
  // Any spelling: the rate limiter normalises (IPv4-mapped, case, /64) through clientKey.
  const peer = incoming.socket.remoteAddress ?? 'unknown';
  if (trustedProxies <= 0) return peer;
  const header = incoming.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((h) => h.trim()).filter(Boolean);
  return hops[Math.max(0, hops.length - trustedProxies)] ?? peer;
}
