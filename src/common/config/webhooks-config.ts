import { Env, IntRange, IsBool } from './env-schema';

/** Webhook deliveries (WEBHOOK_*) and the event stream. */
export class WebhooksConfig {
  /** The first retry waits this long; each further one twice as long as the one before. */
  @Env('WEBHOOK_RETRY_BASE_MS', 'int') @IntRange(1, 86_400_000) retryBaseMs = 5000;

  /** Attempts per delivery before it is given up (`failed`; redeliver to try again). */
  @Env('WEBHOOK_MAX_ATTEMPTS', 'int') @IntRange(1, 100) maxAttempts = 10;

  @Env('WEBHOOK_TIMEOUT_MS', 'int') @IntRange(100, 120_000) timeoutMs = 10_000;

  /** How often the outbox is polled for due deliveries (new events go out at once). */
  @Env('WEBHOOK_POLL_MS', 'int') @IntRange(10, 600_000) pollMs = 1000;

  /** EVENT_STREAM_POLL_MS: how often each process reads the event log for its open event streams. */
  @Env('EVENT_STREAM_POLL_MS', 'int') @IntRange(10, 60_000) streamPollMs = 500;

  /** Deliver to private and loopback addresses (off: refused, a server-side request forgery guard). */
  @Env('WEBHOOK_ALLOW_PRIVATE', 'bool') @IsBool() allowPrivate = false;
}
