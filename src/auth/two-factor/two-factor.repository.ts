import { Injectable } from '@nestjs/common';
import { Database, Tx } from '../../common/database/database';

export interface TotpRow {
  secret: string;
  enabledAt: Date | null;
  lastStep: number | null;
}

export interface PasskeyRow {
  id: string;
  userId: string;
  name: string;
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type ChallengeKind = 'second_factor' | 'enrol' | 'passkey_register' | 'passkey_login';

export interface Challenge {
  kind: ChallengeKind;
  userId: string | null;
  /** The pending sign-in's first step (`password`), or the challenge a passkey flow answers. */
  method: string | null;
}

/** Every user's factors in one list read: which of them has TOTP, how many passkeys. */
export interface FactorSummary {
  totp: boolean;
  passkeys: number;
}

interface PasskeyDbRow {
  id: string;
  user_id: string;
  name: string;
  public_key: string;
  counter: number | string;
  transports: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function toPasskey(row: PasskeyDbRow): PasskeyRow {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports ? row.transports.split(',') : [],
    createdAt: date(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : date(row.last_used_at),
  };
}

/** The one door to `user_totp`, `user_recovery_codes`, `passkeys` and `auth_challenges`. */
@Injectable()
export class TwoFactorRepository {
  constructor(private readonly db: Database) {}

  /** One statement: in `tx`, or as a write of its own (on SQLite, a turn at the one writer). */
  private run(sql: string, params: unknown[], tx?: Tx): Promise<{ changes: number }> {
    return this.db.write((t) => t.sql.run(sql, params), tx);
  }

  async findTotp(userId: string, tx?: Tx): Promise<TotpRow | null> {
    const [row] = await this.db.sql(tx).all<{
      secret: string;
      enabled_at: Date | string | null;
      last_step: number | string | null;
    }>('SELECT secret, enabled_at, last_step FROM user_totp WHERE user_id = ?', [userId]);
    if (!row) return null;
    return {
      secret: row.secret,
      enabledAt: row.enabled_at === null ? null : date(row.enabled_at),
      lastStep: row.last_step === null ? null : Number(row.last_step),
    };
  }

  /** A new, unconfirmed secret replaces an unconfirmed one; a confirmed one stays (no change). */
  async startTotp(userId: string, secret: string, tx?: Tx): Promise<boolean> {
    return this.db.transaction(async (t) => {
      await t.sql.run('DELETE FROM user_totp WHERE user_id = ? AND enabled_at IS NULL', [userId]);
      const [row] = await t.sql.all<{ n: number }>(
        'SELECT COUNT(*) AS n FROM user_totp WHERE user_id = ?',
        [userId],
      );
      if (Number(row.n) > 0) return false;
      await t.sql.run(
        'INSERT INTO user_totp (user_id, secret, created_at, enabled_at, last_step) VALUES (?, ?, ?, NULL, NULL)',
        [userId, secret, new Date()],
      );
      return true;
    }, tx);
  }

  async enableTotp(userId: string, step: number, codeHashes: string[], tx?: Tx): Promise<boolean> {
    return this.db.transaction(async (t) => {
      const done = await t.sql.run(
        'UPDATE user_totp SET enabled_at = ?, last_step = ? WHERE user_id = ? AND enabled_at IS NULL',
        [new Date(), step, userId],
      );
      if (done.changes !== 1) return false;
      await this.replaceRecoveryCodes(userId, codeHashes, t);
      return true;
    }, tx);
  }

  /**
   * Moves the last accepted step forward only: of two requests with the same code (on any
   * instance) one changes the row, the other is a replay.
   */
  async acceptStep(userId: string, step: number, tx?: Tx): Promise<boolean> {
    const done = await this.run(
      'UPDATE user_totp SET last_step = ? WHERE user_id = ? AND enabled_at IS NOT NULL AND (last_step IS NULL OR last_step < ?)',
      [step, userId, step],
      tx,
    );
    return done.changes === 1;
  }

  async replaceRecoveryCodes(userId: string, codeHashes: string[], tx?: Tx): Promise<void> {
    await this.db.transaction(async (t) => {
      await t.sql.run('DELETE FROM user_recovery_codes WHERE user_id = ?', [userId]);
      const now = new Date();
      for (const hash of codeHashes) {
        await t.sql.run(
          'INSERT INTO user_recovery_codes (code_hash, user_id, created_at) VALUES (?, ?, ?)',
          [hash, userId, now],
        );
      }
    }, tx);
  }

  /** Whoever deletes the row used the code: a second use (on any instance) finds nothing. */
  async consumeRecoveryCode(userId: string, codeHash: string, tx?: Tx): Promise<boolean> {
    const done = await this.run(
      'DELETE FROM user_recovery_codes WHERE user_id = ? AND code_hash = ?',
      [userId, codeHash],
      tx,
    );
    return done.changes === 1;
  }

  async countRecoveryCodes(userId: string, tx?: Tx): Promise<number> {
    const [row] = await this.db.sql(tx).all<{
      n: number | string;
    }>('SELECT COUNT(*) AS n FROM user_recovery_codes WHERE user_id = ?', [userId]);
    return Number(row.n);
  }

  /** Drops TOTP and the recovery codes; answers whether TOTP was on. */
  async deleteTotp(userId: string, tx?: Tx): Promise<boolean> {
    return this.db.transaction(async (t) => {
      const done = await t.sql.run(
        'DELETE FROM user_totp WHERE user_id = ? AND enabled_at IS NOT NULL',
        [userId],
      );
      await t.sql.run('DELETE FROM user_totp WHERE user_id = ?', [userId]);
      await t.sql.run('DELETE FROM user_recovery_codes WHERE user_id = ?', [userId]);
      return done.changes > 0;
    }, tx);
  }

  async listPasskeys(userId: string, tx?: Tx): Promise<PasskeyRow[]> {
    const rows = await this.db
      .sql(tx)
      .all<PasskeyDbRow>(
        'SELECT id, user_id, name, public_key, counter, transports, created_at, last_used_at FROM passkeys WHERE user_id = ? ORDER BY created_at, id',
        [userId],
      );
    return rows.map(toPasskey);
  }

  async findPasskey(id: string, tx?: Tx): Promise<PasskeyRow | null> {
    const [row] = await this.db
      .sql(tx)
      .all<PasskeyDbRow>(
        'SELECT id, user_id, name, public_key, counter, transports, created_at, last_used_at FROM passkeys WHERE id = ?',
        [id],
      );
    return row ? toPasskey(row) : null;
  }

  async insertPasskey(passkey: Omit<PasskeyRow, 'lastUsedAt'>, tx?: Tx): Promise<void> {
    await this.run(
      'INSERT INTO passkeys (id, user_id, name, public_key, counter, transports, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)',
      [
        passkey.id,
        passkey.userId,
        passkey.name,
        passkey.publicKey,
        passkey.counter,
        passkey.transports.join(','),
        passkey.createdAt,
      ],
      tx,
    );
  }

  /**
   * Records a use: the counter only moves forward (a cloned authenticator replaying an old
   * counter loses the race here as well as in the signature check).
   */
  async usePasskey(id: string, counter: number, expected: number, tx?: Tx): Promise<boolean> {
    const done = await this.run(
      'UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ? AND counter = ?',
      [counter, new Date(), id, expected],
      tx,
    );
    return done.changes === 1;
  }

  async deletePasskey(userId: string, id: string, tx?: Tx): Promise<boolean> {
    const done = await this.run(
      'DELETE FROM passkeys WHERE user_id = ? AND id = ?',
      [userId, id],
      tx,
    );
    return done.changes === 1;
  }

  async deletePasskeysOf(userId: string, tx?: Tx): Promise<number> {
    const done = await this.run('DELETE FROM passkeys WHERE user_id = ?', [userId], tx);
    return done.changes;
  }

  /** Which factors each of these users has (for the users screen). */
  async summaries(userIds: string[], tx?: Tx): Promise<Map<string, FactorSummary>> {
    const result = new Map<string, FactorSummary>(
      userIds.map((id) => [id, { totp: false, passkeys: 0 }]),
    );
    if (userIds.length === 0) return result;
    const marks = userIds.map(() => '?').join(', ');
    const sql = this.db.sql(tx);
    const totp = await sql.all<{ user_id: string }>(
      `SELECT user_id FROM user_totp WHERE enabled_at IS NOT NULL AND user_id IN (${marks})`,
      userIds,
    );
    for (const row of totp) result.get(row.user_id)!.totp = true;
    const keys = await sql.all<{ user_id: string; n: number | string }>(
      `SELECT user_id, COUNT(*) AS n FROM passkeys WHERE user_id IN (${marks}) GROUP BY user_id`,
      userIds,
    );
    for (const row of keys) result.get(row.user_id)!.passkeys = Number(row.n);
    return result;
  }

  async insertChallenge(id: string, challenge: Challenge, expiresAt: Date, tx?: Tx): Promise<void> {
    await this.db.transaction(async (t) => {
      // Abandoned challenges go with the next one made (the expiry column is indexed).
      await t.sql.run('DELETE FROM auth_challenges WHERE expires_at < ?', [new Date()]);
      await t.sql.run(
        'INSERT INTO auth_challenges (id, kind, user_id, method, expires_at) VALUES (?, ?, ?, ?, ?)',
        [id, challenge.kind, challenge.userId, challenge.method, expiresAt],
      );
    }, tx);
  }

  async findChallenge(id: string, now = new Date(), tx?: Tx): Promise<Challenge | null> {
    const [row] = await this.db.sql(tx).all<{
      kind: ChallengeKind;
      user_id: string | null;
      method: string | null;
    }>('SELECT kind, user_id, method FROM auth_challenges WHERE id = ? AND expires_at > ?', [id, now]);
    return row ? { kind: row.kind, userId: row.user_id, method: row.method } : null;
  }

  /**
   * Takes a live challenge out of the table: whoever deletes the row has it, so a flow answered
   * twice (a replay, on any instance) finds it only once.
   */
  async consumeChallenge(id: string, now = new Date(), tx?: Tx): Promise<Challenge | null> {
    return this.db.transaction(async (t) => {
      const found = await this.findChallenge(id, now, t);
      const deleted = await t.sql.run('DELETE FROM auth_challenges WHERE id = ?', [id]);
      return found && deleted.changes === 1 ? found : null;
    }, tx);
  }

  async deleteChallengesOf(userId: string, tx?: Tx): Promise<void> {
    await this.run('DELETE FROM auth_challenges WHERE user_id = ?', [userId], tx);
  }
}
