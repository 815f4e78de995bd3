import { Env, IntRange } from './env-schema';

export class NotificationsConfig {
  /** REVIEW_CHECK_INTERVAL_SECONDS: how often pages past their review date are looked for (0: never). */
  @Env('REVIEW_CHECK_INTERVAL_SECONDS', 'int') @IntRange(0, 86_400) reviewCheckIntervalSeconds =
    300;
}
