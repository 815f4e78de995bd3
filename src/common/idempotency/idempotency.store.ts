import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { InjectConfig } from '../config/app-config';
import type { IdempotencyConfig } from '../config/idempotency-config';
import { Database } from '../database/database';
import { ConflictProblem, Problem } from '../problems/problem';

/** A stored answer, replayed as it was sent. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  /** The JSON body as sent. */
  body: string;
}

export type Claim = { kind: 'claimed'; claimId: string } | { kind: 'replay'; answer: StoredAnswer };

interface KeyRow {
  fingerprint: string;
  claim_id: string;
  state: 'pending' | 'done';
  status: number | string | null;
  headers: string | null;
  body: string | null;
  stale: number | string;
}

const PURGE_EVERY_MS = 15 * 60_000;

/**
 * The one door to `idempotency_keys`. A request claims its (caller, key) row before it does
 * its work (INSERT of a unique row, so exactly one request on any instance wins); the others
 * read the row until the winner stores its answer, then replay it. Rows expire after
 * IDEMPOTENCY_TTL_SECONDS; an expired row counts as absent and is purged periodically.
 */
@Injectable()
export class IdempotencyStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectConfig('idempotency') private readonly idempotencyConfig: IdempotencyConfig,
    private readonly db: Database,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge().catch(() => undefined), PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /**
   * Claims the key for this request, or answers the first request's stored answer. Same key,
   * other fingerprint: 422 `idempotency_key_reused`. Still running after IDEMPOTENCY_WAIT_MS:
   * 409 `idempotency_key_in_progress` (retry later).
   */
  async claim(caller: string, key: string, fingerprint: string): Promise<Claim> {
    const { waitMs } = this.idempotencyConfig;
    const deadline = Date.now() + waitMs;
    let pause = 50;
    for (;;) {
      const claimId = randomUUID();
      if (await this.insert(caller, key, fingerprint, claimId)) return { kind: 'claimed', claimId };
      const row = await this.find(caller, key);
      if (row) {
        if (row.fingerprint !== fingerprint) {
          throw new Problem(
            422,
            'idempotency_key_reused',
            'This Idempotency-Key was used with a different request body (or route); use a new key for a new request.',
          );
        }
        if (row.state === 'done') {
          return {
            kind: 'replay',
            answer: {
              status: Number(row.status),
              headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
              body: row.body ?? '',
            },
          };
        }
        if (Number(row.stale) === 1 && (await this.takeOver(caller, key, row.claim_id, claimId)))
          return { kind: 'claimed', claimId };
      }
      if (Date.now() >= deadline) {
        throw new ConflictProblem(
          'idempotency_key_in_progress',
          'A request with this Idempotency-Key is still being processed; retry later.',
        );
      }
      await sleep(Math.min(pause, Math.max(1, deadline - Date.now())));
      pause = Math.min(pause * 2, 500);
    }
  }

  /** Stores the answer of the request that holds the claim; retries replay it from now on. */
  async complete(
    caller: string,
    key: string,
    claimId: string,
    answer: StoredAnswer,
  ): Promise<void> {
    await this.db.write(({ sql }) =>
      sql.run(
        `UPDATE idempotency_keys SET state = 'done', status = ?, headers = ?, body = ?
         WHERE caller = ? AND idem_key = ? AND claim_id = ?`,
        [answer.status, JSON.stringify(answer.headers), answer.body, caller, key, claimId],
      ),
    );
  }

  /** Gives the key up (the request failed): the next retry runs the request again. */
  async release(caller: string, key: string, claimId: string): Promise<void> {
    await this.db.write(({ sql }) =>
      sql.run(
        `DELETE FROM idempotency_keys WHERE caller = ? AND idem_key = ? AND claim_id = ? AND state = 'pending'`,
        [caller, key, claimId],
      ),
    );
  }

  /** Drops expired keys. */
  async purge(now = new Date()): Promise<number> {
    const result = await this.db.write(({ sql }) =>
      sql.run('DELETE FROM idempotency_keys WHERE expires_at < ?', [now]),
    );
    return result.changes;
  }

  private async insert(
    caller: string,
    key: string,
    fingerprint: string,
    claimId: string,
  ): Promise<boolean> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.idempotencyConfig.ttlSeconds * 1000);
    return this.db.write(async ({ sql }) => {
      // An expired key is as good as absent.
      await sql.run(
        'DELETE FROM idempotency_keys WHERE caller = ? AND idem_key = ? AND expires_at < ?',
        [caller, key, now],
      );
      const result = await sql.run(
        `${sql.dialect.insertIgnore} INTO idempotency_keys
           (caller, idem_key, fingerprint, claim_id, state, claimed_at, expires_at)
         VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
        [caller, key, fingerprint, claimId, now, expiresAt],
      );
      return result.changes === 1;
    });
  }

  private async find(caller: string, key: string): Promise<KeyRow | undefined> {
    const staleBefore = new Date(Date.now() - this.idempotencyConfig.leaseSeconds * 1000);
    const [row] = await this.db.sql().all<KeyRow>(
      `SELECT fingerprint, claim_id, state, status, headers, body,
                CASE WHEN claimed_at < ? THEN 1 ELSE 0 END AS stale
         FROM idempotency_keys WHERE caller = ? AND idem_key = ?`,
      [staleBefore, caller, key],
    );
    return row;
  }

  /** A pending claim past its lease belongs to a request that died: the first to ask takes it. */
  private async takeOver(
    caller: string,
    key: string,
    oldClaim: string,
    newClaim: string,
  ): Promise<boolean> {
    const result = await this.db.write(({ sql }) =>
      sql.run(
        `UPDATE idempotency_keys SET claim_id = ?, claimed_at = ?
         WHERE caller = ? AND idem_key = ? AND claim_id = ? AND state = 'pending'`,
        [newClaim, new Date(), caller, key, oldClaim],
      ),
    );
    return result.changes === 1;
  }
}
