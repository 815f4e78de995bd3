import {
  CanActivate,
  ExecutionContext,
  Injectable,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuthUser } from '../auth/auth-user';
import { clusterRateHit, inClusterWorker, serveRateStore } from '../cluster/cluster-worker';
import { InjectConfig } from '../config/app-config';
import type { RateLimitConfig } from '../config/rate-limit-config';
import { Database } from '../database/database';
import { TooManyRequestsProblem } from '../problems/problem';
import { CounterStore, DatabaseCounterStore, RedisCounterStore } from './counter-stores';
import {
  classOf,
  policyHeader,
  RateLimitClass,
  type RateLimitQuota,
  rateLimitHeader,
  windowAt,
} from './rate-limit-policy';
import { RateLimiter } from './rate-limiter';

/**
 * Per-person limits on every /api answer to an authenticated caller, with the IETF draft's RateLimit-Policy and RateLimit headers; over the quota: 429
 * `rate_limited` with Retry-After, before the handler runs.
 * A global guard registered after AuthGuard (it needs `request.user`), not an interceptor:
 * Nest wraps every handler in RxJS and async-hook bookkeeping per global interceptor, a
 * measurable part of a page read (docs/PERFORMANCE.md).
 */
@Injectable()
export class RateLimitGuard implements CanActivate, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly limiter: RateLimiter;
  /** In a cluster worker: the counters are the primary's; this worker serves it the store. */
  private readonly inCluster = inClusterWorker();
  private stopServing: (() => void) | null = null;

  constructor(
    @InjectConfig('rateLimit') private readonly rateLimitConfig: RateLimitConfig,
    db: Database,
  ) {
    const store: CounterStore = rateLimitConfig.redisUrl
      ? new RedisCounterStore(rateLimitConfig.redisUrl)
      : new DatabaseCounterStore(db);
    this.limiter = new RateLimiter(store, rateLimitConfig.syncMs);
    if (this.inCluster) this.stopServing = serveRateStore(store);
  }

  onApplicationBootstrap(): void {
    if (!this.inCluster) this.limiter.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopServing?.();
    await this.limiter.stop();
  }

  private hit(key: string, expiresAt: number): Promise<number> {
    return this.inCluster
      ? clusterRateHit(key, expiresAt, this.rateLimitConfig.syncMs)
      : this.limiter.hit(key, expiresAt);
  }

  /**
   * Counts one request of class `cls` against `user`'s quota: the headers to answer with and,
   * over the quota, the 429 problem (null when the class has no limit). Ways in that are not
   * an /api route (MCP tool calls) spend the same quotas through this method.
   */
  async spend(
    user: AuthUser,
    cls: RateLimitClass,
  ): Promise<{ policy: string; remaining: string; refused: TooManyRequestsProblem | null } | null> {
    const limit = this.rateLimitConfig.limits[cls];
    if (!limit) return null;
    // Per person, whatever the way in: a token acts as its owner and spends its owner's quota,
    // so making tokens does not make quotas (issue 28: 60 tokens were 60 search quotas).
    const subject = `u:${user.id}`;
    const now = Date.now();
    const window = windowAt(now, limit.windowSeconds);
    const count = await this.hit(`${cls}:${subject}:${window.index}`, window.endsAt);
    const resetSeconds = (window.endsAt - now) / 1000;
    return {
      policy: policyHeader(cls, limit),
      remaining: rateLimitHeader(cls, limit.quota - count, resetSeconds),
      refused:
        count > limit.quota
          ? new TooManyRequestsProblem(
              'rate_limited',
              `Too many ${cls} requests: at most ${limit.quota} per ${limit.windowSeconds} s. Try again later.`,
              resetSeconds,
            )
          : null,
    };
  }

  /**
   * Counts one use of something anonymous callers may do (a password reset request) against
   * `subject`'s quota in `scope`; answers the 429 problem over the quota, else null.
   */
  async spendOn(
    scope: string,
    subject: string,
    limit: RateLimitQuota | null,
  ): Promise<TooManyRequestsProblem | null> {
    if (!limit) return null;
    const now = Date.now();
    const window = windowAt(now, limit.windowSeconds);
    const count = await this.hit(`${scope}:${subject}:${window.index}`, window.endsAt);
    if (count <= limit.quota) return null;
    return new TooManyRequestsProblem(
      'rate_limited',
      `Too many requests: at most ${limit.quota} per ${limit.windowSeconds} s. Try again later.`,
      (window.endsAt - now) / 1000,
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const user = request.user;
    if (!user || !request.path.startsWith('/api/')) return true;
    const spent = await this.spend(user, classOf(request.method, request.path));
    if (!spent) return true;
    const response = context.switchToHttp().getResponse<Response>();
    response.setHeader('RateLimit-Policy', spent.policy);
    response.setHeader('RateLimit', spent.remaining);
    if (spent.refused) throw spent.refused;
    return true;
  }
}
