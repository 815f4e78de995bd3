import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../common/config/app-config';
import { TooManyRequestsProblem } from '../common/problems/problem';
import { LoginThrottleEntity } from './entities/login-throttle.entity';

/**
 * Failed sign-ins are counted per account and per address in a fixed window. Past the limit,
 * sign-in answers 429 with Retry-After until the window ends, even with the right password.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    @InjectRepository(LoginThrottleEntity) private readonly rows: Repository<LoginThrottleEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private keys(username: string, ip: string) {
    return [
      { key: `user:${username.toLowerCase()}`.slice(0, 200), limit: this.config.loginMaxFailures },
      { key: `ip:${ip}`.slice(0, 200), limit: this.config.loginIpMaxFailures },
    ];
  }

  async assertAllowed(username: string, ip: string, now = new Date()): Promise<void> {
    const keys = this.keys(username, ip);
    const rows = await this.rows.findBy({ key: In(keys.map((k) => k.key)) });
    const windowMs = this.config.loginWindowSeconds * 1000;
    for (const { key, limit } of keys) {
      const row = rows.find((r) => r.key === key);
      if (!row) continue;
      const endsAt = row.windowStart.getTime() + windowMs;
      if (endsAt > now.getTime() && row.failures >= limit) {
        throw new TooManyRequestsProblem(
          'login_throttled',
          'Too many failed sign-ins for this account or address; try again later.',
          (endsAt - now.getTime()) / 1000,
        );
      }
    }
  }

  async recordFailure(username: string, ip: string, now = new Date()): Promise<void> {
    const windowMs = this.config.loginWindowSeconds * 1000;
    for (const { key } of this.keys(username, ip)) {
      await this.rows.manager.transaction(async (manager) => {
        const row = await manager.findOneBy(LoginThrottleEntity, { key });
        if (!row || row.windowStart.getTime() + windowMs <= now.getTime()) {
          await manager.upsert(LoginThrottleEntity, { key, failures: 1, windowStart: now }, ['key']);
        } else {
          await manager.increment(LoginThrottleEntity, { key }, 'failures', 1);
        }
      });
    }
  }

  async recordSuccess(username: string): Promise<void> {
    await this.rows.delete({ key: `user:${username.toLowerCase()}` });
  }

  /** Drops counters whose window has ended (they no longer throttle anyone). */
  async purgeExpired(now = new Date()): Promise<void> {
    await this.rows.delete({ windowStart: LessThan(new Date(now.getTime() - this.config.loginWindowSeconds * 1000)) });
  }
}
