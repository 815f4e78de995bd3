import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../common/config/app-config';
import type { AuthConfig } from '../common/config/auth-config';
import { audit } from '../common/logging/audit';
import { TooManyRequestsProblem } from '../common/problems/problem';
import { canonicalUsername } from '../common/text/username';
import { LoginThrottleRepository } from './store/login-throttle.repository';

/**
 * Sign-in attempts are counted per account and per address in a fixed window, in the database
 * so every instance agrees. An attempt is counted BEFORE the password is checked, with one
 * atomic statement, so concurrent guesses can never exceed the limit; a success clears the
 * account's counter and gives the address its attempt back. Past the limit, sign-in answers
 * 429 with Retry-After until the window ends, even with the right password.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    private readonly rows: LoginThrottleRepository,
    @InjectConfig('auth') private readonly authConfig: AuthConfig,
  ) {}

  private get windowMs(): number {
    return this.authConfig.loginWindowSeconds * 1000;
  }

  private keys(username: string, ip: string) {
    return [
      { key: userKey(username), limit: this.authConfig.loginMaxFailures },
      { key: `ip:${ip}`.slice(0, 200), limit: this.authConfig.loginIpMaxFailures },
    ];
  }

  /** Counts one attempt for the account and the address; 429 when either is over its limit. */
  async registerAttempt(username: string, ip: string, now = new Date()): Promise<void> {
    const keys = this.keys(username, ip);
    try {
      await this.assertAllowed(keys, now);
      for (const { key } of keys) await this.increment(key, now);
      await this.assertAllowed(keys, now, true);
    } catch (error) {
      if (error instanceof TooManyRequestsProblem) {
        audit('auth.throttled', {
          actorId: null,
          target: `username:${canonicalUsername(username)}`,
          ip,
          retryAfter: Number(error.headers['Retry-After']),
        });
      }
      throw error;
    }
  }

  /**
   * Which of these accounts (by username) the throttle holds now: as many failures as the limit
   * within a window that has not ended, so their next sign-in would answer 429.
   */
  async lockedAccounts(usernames: string[], now = new Date()): Promise<Set<string>> {
    if (usernames.length === 0) return new Set();
    const keyOf = new Map(usernames.map((name) => [userKey(name), name]));
    const rows = await this.rows.find([...keyOf.keys()]);
    const locked = new Set<string>();
    for (const row of rows) {
      const live = row.windowStart.getTime() + this.windowMs > now.getTime();
      if (live && row.failures >= this.authConfig.loginMaxFailures) locked.add(keyOf.get(row.key)!);
    }
    return locked;
  }

  /** Clears an account's counter (an administrator unlocks it); addresses keep theirs. */
  async clearAccount(username: string): Promise<void> {
    await this.rows.delete(userKey(username));
  }

  /** A successful sign-in: the account starts afresh, the address gets its attempt back. */
  async recordSuccess(username: string, ip: string): Promise<void> {
    await this.clearAccount(username);
    await this.rows.decrement(`ip:${ip}`.slice(0, 200));
  }

  /** Drops counters whose window has ended (they no longer throttle anyone). */
  async purgeExpired(now = new Date()): Promise<void> {
    await this.rows.deleteStartedBefore(new Date(now.getTime() - this.windowMs));
  }

  /** Before counting, `failures` may reach the limit; after counting, it may not pass it. */
  private async assertAllowed(
    keys: { key: string; limit: number }[],
    now: Date,
    counted = false,
  ): Promise<void> {
    const rows = await this.rows.find(keys.map((k) => k.key));
    for (const { key, limit } of keys) {
      const row = rows.find((r) => r.key === key);
      if (!row) continue;
      const endsAt = row.windowStart.getTime() + this.windowMs;
      const over = counted ? row.failures > limit : row.failures >= limit;
      if (endsAt > now.getTime() && over) {
        throw new TooManyRequestsProblem(
          'login_throttled',
          'Too many failed sign-ins for this account or address; try again later.',
          (endsAt - now.getTime()) / 1000,
        );
      }
    }
  }

  /** One statement: a new or expired counter restarts at 1 with a new window, else it adds 1. */
  private async increment(key: string, now: Date): Promise<void> {
    await this.rows.increment(key, now, new Date(now.getTime() - this.windowMs));
  }
}

/** Every form of a name counts against one counter: its canonical form (as users.username_key). */
function userKey(username: string): string {
  return `user:${canonicalUsername(username)}`.slice(0, 200);
}
