import { Injectable } from '@nestjs/common';
import { Database, Tx } from '../../common/database/database';
import { isUniqueViolation } from '../../common/database/unique-violation';

/** A sign-in between its start and the provider's callback (`sso_login_states`). */
export interface LoginState {
  /** SHA-256 of the `state` parameter. */
  id: string;
  provider: string;
  /** SHA-256 of the browser-binding cookie set when the sign-in started. */
  bindingHash: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  expiresAt: Date;
}

interface LoginStateRow {
  provider: string;
  binding_hash: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
}

/** The one door to `sso_login_states`, `sso_identities`, `sso_sessions` and `sso_saml_assertions`. */
@Injectable()
export class SsoRepository {
  constructor(private readonly db: Database) {}

  async insertLoginState(state: LoginState): Promise<void> {
    await this.db.write(async (t) => {
      // Abandoned sign-ins go with the next one that starts (the expiry column is indexed).
      await t.sql.run('DELETE FROM sso_login_states WHERE expires_at < ?', [new Date()]);
      await t.sql.run(
        'INSERT INTO sso_login_states (id, provider, binding_hash, nonce, code_verifier, return_to, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [
          state.id,
          state.provider,
          state.bindingHash,
          state.nonce,
          state.codeVerifier,
          state.returnTo,
          state.expiresAt,
        ],
      );
    });
  }

  /**
   * Takes the live sign-in state `id` out of the table: whoever deletes the row has it, so a
   * callback answered twice (a replay, on any instance) finds it only once.
   */
  consumeLoginState(
    id: string,
    now = new Date(),
  ): Promise<Omit<LoginState, 'id' | 'expiresAt'> | null> {
    return this.db.transaction(async (t) => {
      const [row] = await t.sql.all<LoginStateRow>(
        'SELECT provider, binding_hash, nonce, code_verifier, return_to FROM sso_login_states WHERE id = ? AND expires_at > ?',
        [id, now],
      );
      const deleted = await t.sql.run('DELETE FROM sso_login_states WHERE id = ?', [id]);
      if (!row || deleted.changes !== 1) return null;
      return {
        provider: row.provider,
        bindingHash: row.binding_hash,
        nonce: row.nonce,
        codeVerifier: row.code_verifier,
        returnTo: row.return_to,
      };
    });
  }

  /**
   * Records that `provider` accepted the assertion `assertionHash` (until `expiresAt`); false
   * when it was accepted before (a replay, on whichever instance it reached first).
   */
  async recordAssertion(
    provider: string,
    assertionHash: string,
    expiresAt: Date,
  ): Promise<boolean> {
    try {
      await this.db.write(async (t) => {
        await t.sql.run('DELETE FROM sso_saml_assertions WHERE expires_at < ?', [new Date()]);
        await t.sql.run(
          'INSERT INTO sso_saml_assertions (provider, assertion_hash, expires_at) VALUES (?, ?, ?)',
          [provider, assertionHash, expiresAt],
        );
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findUserId(provider: string, subject: string, tx?: Tx): Promise<string | null> {
    const [row] = await this.db
      .sql(tx)
      .all<{ user_id: string }>(
        'SELECT user_id FROM sso_identities WHERE provider = ? AND subject = ?',
        [provider, subject],
      );
    return row?.user_id ?? null;
  }

  async link(provider: string, subject: string, userId: string, tx: Tx): Promise<void> {
    const now = new Date();
    await tx.sql.run(
      'INSERT INTO sso_identities (provider, subject, user_id, created_at, last_login_at) VALUES (?, ?, ?, ?, ?)',
      [provider, subject, userId, now, now],
    );
  }

  /** The providers (`ldap`, `oidc:<id>`) each of these users has signed in with, by user id. */
  async providersOf(userIds: string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    if (userIds.length === 0) return found;
    const rows = await this.db
      .sql()
      .all<{ user_id: string; provider: string }>(
        `SELECT user_id, provider FROM sso_identities WHERE user_id IN (${userIds.map(() => '?').join(', ')}) ORDER BY provider`,
        userIds,
      );
    for (const row of rows)
      found.set(row.user_id, [...(found.get(row.user_id) ?? []), row.provider]);
    return found;
  }

  async touch(provider: string, subject: string): Promise<void> {
    await this.db.write((t) =>
      t.sql.run('UPDATE sso_identities SET last_login_at = ? WHERE provider = ? AND subject = ?', [
        new Date(),
        provider,
        subject,
      ]),
    );
  }

  /** Records that `provider` made the browser session `sessionId` (its row goes with the session). */
  async markSession(sessionId: string, provider: string): Promise<void> {
    await this.db.write((t) =>
      t.sql.run('INSERT INTO sso_sessions (session_id, provider) VALUES (?, ?)', [
        sessionId,
        provider,
      ]),
    );
  }

  async providerOfSession(sessionId: string): Promise<string | null> {
    const [row] = await this.db
      .sql()
      .all<{ provider: string }>('SELECT provider FROM sso_sessions WHERE session_id = ?', [
        sessionId,
      ]);
    return row?.provider ?? null;
  }
}
