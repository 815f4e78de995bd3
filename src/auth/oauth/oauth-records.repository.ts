import { Injectable } from '@nestjs/common';
import type { Role } from '../../common/auth/roles';
import { column, rowDecoder, RowOf, selectList, valueOf } from '../../common/database/column-defs';
import { Database, Tx } from '../../common/database/database';
import { sha256Hex } from '../secrets';

/**
 * What a person consented to for one app, stored with the grant. A structure rather than a
 * scope string so that path limits (issue 34 item 3: slug patterns and verbs) join it without a
 * new column: `paths` null means the whole wiki the person sees.
 */
export interface GrantScope {
  role: Role;
  paths: string[] | null;
}

/** One instance of an oidc-provider model (`oauth_records`). */
export const OAUTH_RECORD_COLUMNS = {
  model: column.varchar('model', 32, { primary: true }),
  id: column.varchar('id', 128, { primary: true }),
  payload: column.json('payload', {}, valueOf<Record<string, unknown>>()),
  grantId: column.varchar('grant_id', 128, { nullable: true }),
  uid: column.varchar('uid', 128, { nullable: true }),
  userCode: column.varchar('user_code', 128, { nullable: true }),
  accountId: column.uuid('account_id', { nullable: true }),
  clientId: column.varchar('client_id', 128, { nullable: true }),
  kbScope: column.json('kb_scope', { nullable: true }, valueOf<GrantScope>()),
  createdAt: column.datetime('created_at'),
  expiresAt: column.datetime('expires_at', { nullable: true }),
  consumedAt: column.datetime('consumed_at', { nullable: true }),
  bannedAt: column.datetime('banned_at', { nullable: true }),
};
export type OAuthRecord = RowOf<typeof OAUTH_RECORD_COLUMNS>;

const KEYS = Object.keys(OAUTH_RECORD_COLUMNS) as (keyof OAuthRecord)[];
const SELECT = selectList(OAUTH_RECORD_COLUMNS, KEYS, 'o');
const decode = rowDecoder(OAUTH_RECORD_COLUMNS, KEYS) as (
  row: Record<string, unknown>,
) => OAuthRecord;

/**
 * Models whose id is a secret a client presents (a token, a code) or a cookie value: stored
 * under their SHA-256, so a copy of the table grants nothing. Clients and grants keep their ids
 * (kb lists and revokes them).
 */
const CLEAR_ID_MODELS = new Set(['Client', 'Grant']);

export function storedId(model: string, id: string): string {
  return CLEAR_ID_MODELS.has(model) ? id : sha256Hex(id);
}

/** The one door to `oauth_records`: oidc-provider's storage (OAuthAdapter) and kb's lists. */
@Injectable()
export class OAuthRecordsRepository {
  constructor(private readonly db: Database) {}

  private async select(where: string, params: unknown[], tx?: Tx): Promise<OAuthRecord[]> {
    const rows = await this.db
      .sql(tx)
      .all(`SELECT ${SELECT} FROM oauth_records o WHERE ${where}`, params);
    return rows.map(decode);
  }

  async upsert(
    model: string,
    id: string,
    payload: Record<string, unknown>,
    expiresAt: Date | null,
    now = new Date(),
  ): Promise<void> {
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    const clientId = model === 'Client' ? str(payload.client_id) : str(payload.clientId);
    const sql = this.db.sql();
    await this.db.write((t) =>
      t.sql.run(
        sql.dialect.upsert(
          'oauth_records',
          [
            'model',
            'id',
            'payload',
            'grant_id',
            'uid',
            'user_code',
            'account_id',
            'client_id',
            'created_at',
            'expires_at',
          ],
          ['model', 'id'],
          {
            payload: sql.dialect.inserted('payload'),
            grant_id: sql.dialect.inserted('grant_id'),
            uid: sql.dialect.inserted('uid'),
            user_code: sql.dialect.inserted('user_code'),
            account_id: sql.dialect.inserted('account_id'),
            client_id: sql.dialect.inserted('client_id'),
            expires_at: sql.dialect.inserted('expires_at'),
          },
        ),
        [
          model,
          storedId(model, id),
          JSON.stringify(payload),
          str(payload.grantId),
          str(payload.uid),
          str(payload.userCode),
          str(payload.accountId),
          clientId,
          now,
          expiresAt,
        ],
      ),
    );
  }

  /** Inserts a row unless one exists (the first instance's keys win). */
  async insertIfAbsent(model: string, id: string, payload: Record<string, unknown>): Promise<void> {
    const sql = this.db.sql();
    await this.db.write((t) =>
      t.sql.run(
        `${sql.dialect.insertIgnore} INTO oauth_records (model, id, payload, created_at) VALUES (?, ?, ?, ?)`,
        [model, storedId(model, id), JSON.stringify(payload), new Date()],
      ),
    );
  }

  async find(model: string, id: string): Promise<OAuthRecord | null> {
    const [row] = await this.select('o.model = ? AND o.id = ?', [model, storedId(model, id)]);
    return row ?? null;
  }

  async findBy(
    model: string,
    column: 'uid' | 'user_code',
    value: string,
  ): Promise<OAuthRecord | null> {
    const [row] = await this.select(`o.model = ? AND o.${column} = ?`, [model, value]);
    return row ?? null;
  }

  async consume(model: string, id: string, now = new Date()): Promise<void> {
    await this.db.write((t) =>
      t.sql.run('UPDATE oauth_records SET consumed_at = ? WHERE model = ? AND id = ?', [
        now,
        model,
        storedId(model, id),
      ]),
    );
  }

  async destroy(model: string, id: string): Promise<void> {
    await this.db.write((t) =>
      t.sql.run('DELETE FROM oauth_records WHERE model = ? AND id = ?', [
        model,
        storedId(model, id),
      ]),
    );
  }

  /** The grant and everything issued under it (codes, access and refresh tokens). */
  async revokeGrant(grantId: string, tx?: Tx): Promise<number> {
    const result = await this.db.write(
      (t) =>
        t.sql.run("DELETE FROM oauth_records WHERE grant_id = ? OR (model = 'Grant' AND id = ?)", [
          grantId,
          grantId,
        ]),
      tx,
    );
    return result.changes;
  }

  /**
   * The live access token `token` with what its grant allows, in one statement: null when it
   * is unknown, expired, revoked (its grant gone) or its client banned.
   */
  async findAccess(
    token: string,
    now = new Date(),
  ): Promise<{ accountId: string; clientId: string; grantId: string; scope: GrantScope } | null> {
    const rows = await this.db.sql().all(
      `SELECT t.account_id, t.client_id, t.grant_id, g.kb_scope FROM oauth_records t
         JOIN oauth_records g ON g.model = 'Grant' AND g.id = t.grant_id
         JOIN oauth_records c ON c.model = 'Client' AND c.id = t.client_id
       WHERE t.model = 'AccessToken' AND t.id = ? AND t.expires_at > ? AND t.consumed_at IS NULL
         AND c.banned_at IS NULL AND g.kb_scope IS NOT NULL`,
      [storedId('AccessToken', token), now],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      accountId: String(row.account_id),
      clientId: String(row.client_id),
      grantId: String(row.grant_id),
      scope: JSON.parse(String(row.kb_scope)) as GrantScope,
    };
  }

  async setGrantScope(grantId: string, scope: GrantScope): Promise<void> {
    await this.db.write((t) =>
      t.sql.run("UPDATE oauth_records SET kb_scope = ? WHERE model = 'Grant' AND id = ?", [
        JSON.stringify(scope),
        grantId,
      ]),
    );
  }

  /** Live grants with their person's username, newest first: of one person, or of everyone. */
  async listGrants(
    accountId: string | null,
    now = new Date(),
  ): Promise<(OAuthRecord & { username: string | null })[]> {
    const mine = accountId === null ? '' : ' AND o.account_id = ?';
    const rows = await this.db.sql().all(
      `SELECT ${SELECT}, u.username AS grant_username FROM oauth_records o
         LEFT JOIN users u ON u.id = o.account_id
       WHERE o.model = 'Grant'${mine} AND (o.expires_at IS NULL OR o.expires_at > ?)
       ORDER BY o.created_at DESC, o.id DESC LIMIT 500`,
      accountId === null ? [now] : [accountId, now],
    );
    return rows.map((row) => ({
      ...decode(row),
      username: row.grant_username == null ? null : String(row.grant_username),
    }));
  }

  findGrant(grantId: string): Promise<OAuthRecord | null> {
    return this.find('Grant', grantId);
  }

  /** Registered clients, newest first (banned ones too). */
  listClients(): Promise<OAuthRecord[]> {
    return this.select("o.model = 'Client' ORDER BY o.created_at DESC, o.id DESC LIMIT 500", []);
  }

  findClients(ids: string[]): Promise<OAuthRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.select(`o.model = 'Client' AND o.id IN (${ids.map(() => '?').join(', ')})`, ids);
  }

  /** Bans a client and drops every grant and token it holds, in one transaction. */
  async banClient(clientId: string, now = new Date()): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const result = await tx.sql.run(
        "UPDATE oauth_records SET banned_at = ? WHERE model = 'Client' AND id = ? AND banned_at IS NULL",
        [now, clientId],
      );
      if (result.changes !== 1) return false;
      await tx.sql.run("DELETE FROM oauth_records WHERE client_id = ? AND model <> 'Client'", [
        clientId,
      ]);
      return true;
    });
  }

  async purgeExpired(now = new Date()): Promise<void> {
    await this.db.write((t) =>
      t.sql.run('DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at < ?', [now]),
    );
  }
}
