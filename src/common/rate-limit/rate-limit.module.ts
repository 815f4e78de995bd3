import { Module } from '@nestjs/common';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * The rate limits for every route (see RateLimitGuard). app.factory.ts installs the guard as a
 * global guard after AuthGuard, which resolves the caller it counts against.
 */
@Module({
  providers: [RateLimitGuard],
  exports: [RateLimitGuard],
})
export class RateLimitModule {}
