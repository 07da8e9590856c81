/**
 * The Node server's settings from the environment, shared by `npm run serve` and
 * `npm run preview:nginx`: RATE_LIMIT_PER_MINUTE (default RATE_LIMIT_PER_MINUTE of
 * src/core/policy.ts; 0 disables) and TRUST_PROXY (number of trusted proxies; `true` = 1).
 * A malformed value stops the process with one line naming the variable.
 */
import { RATE_LIMIT_PER_MINUTE } from '../../api/index.ts';

export function integerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) {
    console.error(`${name} must be a non-negative integer; got "${raw}"`);
    process.exit(2);
  }
  return Number(raw);
}

export function trustProxyFromEnv(): number {
  const raw = process.env.TRUST_PROXY?.trim().toLowerCase() ?? '';
  if (raw === '' || raw === 'false' || raw === 'no') return 0;
  if (raw === 'true' || raw === 'yes') return 1;
  return integerFromEnv('TRUST_PROXY', 0);
}

export const rateLimitFromEnv = (): number => integerFromEnv('RATE_LIMIT_PER_MINUTE', RATE_LIMIT_PER_MINUTE);
