import { Injectable } from '@nestjs/common';
import { In, LessThan } from 'typeorm';
import { Database, Tx } from '../../common/database/database';
import { LoginThrottleEntity } from '../entities/login-throttle.entity';

/** The one door to `login_throttle` (failed sign-ins per account and per address). */
@Injectable()
export class LoginThrottleRepository {
  constructor(private readonly db: Database) {}

  find(keys: string[], tx?: Tx): Promise<LoginThrottleEntity[]> {
    return this.db.manager(tx).findBy(LoginThrottleEntity, { key: In(keys) });
  }

  /**
   * One statement, so concurrent attempts never lose a count: a new counter, or one whose
   * window started at or before `expiredBefore`, restarts at 1 with a window starting `now`;
   * otherwise it adds 1.
   */
  async increment(key: string, now: Date, expiredBefore: Date, tx?: Tx): Promise<void> {
    await this.db.write(async ({ sql }) => {
      const { dialect } = sql;
      await sql.run(
        dialect.upsert('login_throttle', ['key', 'failures', 'window_start'], ['key'], {
          failures: 'CASE WHEN window_start <= ? THEN 1 ELSE failures + 1 END',
          window_start: `CASE WHEN window_start <= ? THEN ${dialect.inserted('window_start')} ELSE window_start END`,
        }),
        [key, 1, now, expiredBefore, expiredBefore],
      );
    }, tx);
  }

  async delete(key: string, tx?: Tx): Promise<void> {
    await this.db.write((t) => t.manager.delete(LoginThrottleEntity, { key }), tx);
  }

  /** Gives one attempt back (a successful sign-in from the address). */
  async decrement(key: string, tx?: Tx): Promise<void> {
    await this.db.write(
      (t) => t.manager.decrement(LoginThrottleEntity, { key }, 'failures', 1),
      tx,
    );
  }

  /** Drops counters whose window started before `before`. */
  async deleteStartedBefore(before: Date, tx?: Tx): Promise<void> {
    await this.db.write(
      (t) => t.manager.delete(LoginThrottleEntity, { windowStart: LessThan(before) }),
      tx,
    );
  }
}
