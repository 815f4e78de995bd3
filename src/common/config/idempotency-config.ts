import { Env, IntRange } from './env-schema';

/** Idempotency-Key requests (IDEMPOTENCY_*). */
export class IdempotencyConfig {
  /** How long a key and its stored answer live (24 h). */
  @Env('IDEMPOTENCY_TTL_SECONDS', 'int') @IntRange(1, 30 * 86_400) ttlSeconds = 86_400;

  /** How long a retry waits for the first request with its key before answering 409. */
  @Env('IDEMPOTENCY_WAIT_MS', 'int') @IntRange(0, 3_600_000) waitMs = 120_000;

  /** A first request that has not finished after this long is taken as dead: a retry runs again. */
  @Env('IDEMPOTENCY_LEASE_SECONDS', 'int') @IntRange(1, 86_400) leaseSeconds = 900;
}
