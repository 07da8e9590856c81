/**
 * The service's policy in one place: defaults, bounds, the rate limit, cache lifetimes
 * and the scored models (service-spec §1, §4, §8; data-and-rules §1.4, §4). Every layer
 * reads these; none repeats them.
 */

/** service-spec §4.4, §4.5: the country a request without one is answered for. */
export const DEFAULT_COUNTRY = 'us';

/** service-spec §8, with the open bounds of data-and-rules §4. */
export const LIMITS = {
  search: { min: 1, max: 20, default: 5 },
  rankings: { min: 1, max: 100, default: 25 },
  /** The spec gives no upper bound; capped like the leaderboard's. */
  leaders: { min: 1, max: 100, default: 10 },
  page: { min: 1, default: 1 },
  compare: { min: 2, max: 5 },
  /** Characters of a search query, after trimming. */
  searchQuery: 100,
} as const;

/** Where a build's output is deployed (`EVI_DEPLOY`): every target but `static` (files only) runs the function. */
export const DEPLOY_TARGETS = ['node', 'worker', 'pages', 'nginx', 'static'] as const;
export type DeployTarget = (typeof DEPLOY_TARGETS)[number];
export const DEFAULT_DEPLOY: DeployTarget = 'node';

/**
 * The most files a build for a deployment that runs the function writes (`EVI_MAX_FILES`):
 * Cloudflare's free plan for a Worker's assets and a Pages site. A larger site is packed.
 */
export const MAX_FILES = 20_000;

/** service-spec §8: requests per minute per client address. */
export const RATE_LIMIT_PER_MINUTE = 60;

/**
 * service-spec §8: a CDN keeps responses within the spec's window; a current answer may
 * outlive a release by at most s-maxage plus the short stale-while-revalidate.
 */
export const CACHE_SUCCESS = 'public, max-age=1800, s-maxage=3600, stale-while-revalidate=300';
/** A month-addressed answer never changes (its month is frozen by the release ledger). */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** 400/404/405 are as stable as the data, but kept briefly in case of a fix. */
export const CACHE_ERROR = 'public, max-age=60';
/** 429 is per client and 5xx transient: never stored. */
export const CACHE_NONE = 'no-store';
/** The raw view files a function reads: no stale-while-revalidate (they change with each release). */
export const CACHE_VIEWS = 'public, max-age=1800, s-maxage=3600';

/** data-and-rules §1.4: the scored models (folded spelling -> display name), matched case-insensitively. */
export const SCORED_MODELS = { chatgpt: 'ChatGPT', 'google gemini': 'Google Gemini', perplexity: 'Perplexity' } as const;
export const MODEL_NAMES = Object.values(SCORED_MODELS);
/** service-spec §2.5: the key of each scored model in `modelScores`. */
export const MODEL_KEYS: Record<string, 'chatgpt' | 'googleAi' | 'perplexity'> = {
  [SCORED_MODELS.chatgpt]: 'chatgpt',
  [SCORED_MODELS['google gemini']]: 'googleAi',
  [SCORED_MODELS.perplexity]: 'perplexity',
};

/** The text the index carries as `rateLimit` (service-spec §2.1, §8). */
export const RATE_LIMIT_TEXT = `${RATE_LIMIT_PER_MINUTE} requests per minute per IP address; beyond it HTTP 429 with a Retry-After header. Responses are cached by a CDN for 30 to 60 minutes.`;
