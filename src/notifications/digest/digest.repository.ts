import { Injectable } from '@nestjs/common';
import { Database } from '../../common/database/database';
import { toDate } from '../../common/database/column-defs';

/** A subscriber to the digest, with what the last digest covered. */
export interface DigestSubscriber {
  userId: string;
  coveredUntil: Date;
}

/** The one door to `digest_subscriptions` and `scheduler_leases`. */
@Injectable()
export class DigestRepository {
  constructor(private readonly db: Database) {}

  async isSubscribed(userId: string): Promise<boolean> {
    const rows = await this.db
      .sql()
      .all('SELECT 1 AS found FROM digest_subscriptions WHERE user_id = ?', [userId]);
    return rows.length > 0;
  }

  /** Subscribes (from now: older notices are not mailed) or unsubscribes; idempotent. */
  async set(userId: string, enabled: boolean, now: Date): Promise<void> {
    await this.db.write(({ sql }) =>
      enabled
        ? sql.run(
            `${sql.dialect.insertIgnore} INTO digest_subscriptions (user_id, created_at, covered_until) VALUES (?, ?, ?)`,
            [userId, now, now],
          )
        : sql.run('DELETE FROM digest_subscriptions WHERE user_id = ?', [userId]),
    );
  }

  /** Subscribers after `afterUserId`, by user id (a run goes through them in batches). */
  async listSubscribers(afterUserId: string, limit: number): Promise<DigestSubscriber[]> {
    const rows = await this.db
      .sql()
      .all<{ user_id: string; covered_until: unknown }>(
        `SELECT user_id, covered_until FROM digest_subscriptions WHERE user_id > ? ORDER BY user_id LIMIT ${Number(limit)}`,
        [afterUserId],
      );
    return rows.map((r) => ({ userId: r.user_id, coveredUntil: toDate(r.covered_until)! }));
  }

  async markCovered(userId: string, until: Date): Promise<void> {
    await this.db.write(({ sql }) =>
      sql.run('UPDATE digest_subscriptions SET covered_until = ? WHERE user_id = ?', [
        until,
        userId,
      ]),
    );
  }

  /**
   * Takes the job `name` when its next run is due and no live lease holds it: a guarded UPDATE,
   * so of several instances asking at once exactly one gets it. `leaseMs` bounds a run whose
   * process died.
   */
  async claim(name: string, owner: string, now: Date, leaseMs: number): Promise<boolean> {
    return this.db.write(async ({ sql }) => {
      await sql.run(
        `${sql.dialect.insertIgnore} INTO scheduler_leases (name, lease_owner, lease_until, next_run_at, last_run_at) VALUES (?, NULL, NULL, ?, NULL)`,
        [name, new Date(0)],
      );
      const result = await sql.run(
        'UPDATE scheduler_leases SET lease_owner = ?, lease_until = ? WHERE name = ? AND next_run_at <= ? AND (lease_until IS NULL OR lease_until < ?)',
        [owner, new Date(now.getTime() + leaseMs), name, now, now],
      );
      return result.changes === 1;
    });
  }

  /** Ends `owner`'s lease on `name`; the next run is due at `nextRunAt`. */
  async release(name: string, owner: string, ranAt: Date, nextRunAt: Date): Promise<void> {
    await this.db.write(({ sql }) =>
      sql.run(
        'UPDATE scheduler_leases SET lease_owner = NULL, lease_until = NULL, last_run_at = ?, next_run_at = ? WHERE name = ? AND lease_owner = ?',
        [ranAt, nextRunAt, name, owner],
      ),
    );
  }
}
