import {
  DEFAULT_RATE_LIMITS,
  parseRateLimit,
  type RateLimitClass,
  type RateLimits,
} from '../rate-limit/rate-limit-policy';
import { Env, IntRange, IsUrlOf, readGroup, Rule } from './env-schema';
import type { Env as EnvVars } from './env-values';

const quota = Rule((v: string) =>
  parseRateLimit(v) === undefined
    ? `must be requests/window such as 1200/60s, or 0 (off), got "${v}"`
    : undefined,
);

/** Per-caller request quotas by class (RATE_LIMIT_*) and the counters they share. */
export class RateLimitConfig {
  @Env('RATE_LIMIT_READ') @quota read = DEFAULT_RATE_LIMITS.read;

  @Env('RATE_LIMIT_WRITE') @quota write = DEFAULT_RATE_LIMITS.write;

  @Env('RATE_LIMIT_SEARCH') @quota search = DEFAULT_RATE_LIMITS.search;

  @Env('RATE_LIMIT_IMPORT') @quota import = DEFAULT_RATE_LIMITS.import;

  /** The quotas above, parsed. */
  limits = {} as RateLimits;

  /** RATE_LIMIT_SYNC_MS: how often an instance adds its counts to the shared counters and reads the others'. */
  @Env('RATE_LIMIT_SYNC_MS', 'int') @IntRange(10, 60_000) syncMs = 1000;

  /** REDIS_URL: Redis for the shared counters (else the database). */
  @Env('REDIS_URL') @IsUrlOf(['redis:', 'rediss:']) redisUrl?: string;
}

export function rateLimitConfig(env: EnvVars): RateLimitConfig {
  const rateLimit = readGroup(RateLimitConfig, env);
  for (const cls of ['read', 'write', 'search', 'import'] satisfies RateLimitClass[]) {
    rateLimit.limits[cls] = parseRateLimit(rateLimit[cls])!;
  }
  return rateLimit;
}
