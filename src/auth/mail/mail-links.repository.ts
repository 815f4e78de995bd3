import { Injectable } from '@nestjs/common';
import type { Role } from '../../common/auth/roles';
import { column, rowDecoder, RowOf, selectList, valueOf } from '../../common/database/column-defs';
import { Database, Tx } from '../../common/database/database';

/** An invitation by email (`invitations`); the link's token is kept as its SHA-256 only. */
export const INVITATION_COLUMNS = {
  id: column.uuid('id', { primary: true }),
  tokenHash: column.varchar('token_hash', 64),
  email: column.varchar('email', 254),
  role: column.varchar('role', 16, {}, valueOf<Role>()),
  groups: column.json('group_names', {}, valueOf<string[]>()),
  invitedBy: column.uuid('invited_by', { nullable: true }),
  createdAt: column.datetime('created_at'),
  expiresAt: column.datetime('expires_at'),
  acceptedAt: column.datetime('accepted_at', { nullable: true }),
  acceptedUserId: column.uuid('accepted_user_id', { nullable: true }),
  revokedAt: column.datetime('revoked_at', { nullable: true }),
};
export type InvitationRecord = RowOf<typeof INVITATION_COLUMNS>;

/** A password reset link (`password_resets`), kept as its token's SHA-256. */
export const PASSWORD_RESET_COLUMNS = {
  tokenHash: column.varchar('token_hash', 64, { primary: true }),
  userId: column.uuid('user_id'),
  createdAt: column.datetime('created_at'),
  expiresAt: column.datetime('expires_at'),
  usedAt: column.datetime('used_at', { nullable: true }),
};
export type PasswordResetRecord = RowOf<typeof PASSWORD_RESET_COLUMNS>;

const INVITATION_KEYS = Object.keys(INVITATION_COLUMNS) as (keyof InvitationRecord)[];
const INVITATION_SELECT = selectList(INVITATION_COLUMNS, INVITATION_KEYS, 'i');
const decodeInvitation = rowDecoder(INVITATION_COLUMNS, INVITATION_KEYS) as (
  row: Record<string, unknown>,
) => InvitationRecord;
const RESET_KEYS = Object.keys(PASSWORD_RESET_COLUMNS) as (keyof PasswordResetRecord)[];
const RESET_SELECT = selectList(PASSWORD_RESET_COLUMNS, RESET_KEYS, 'r');
const decodeReset = rowDecoder(PASSWORD_RESET_COLUMNS, RESET_KEYS) as (
  row: Record<string, unknown>,
) => PasswordResetRecord;

/** How many invitations the list shows at most (the newest). */
export const INVITATION_LIST_LIMIT = 500;

/** The one door to `invitations` and `password_resets`. */
@Injectable()
export class MailLinksRepository {
  constructor(private readonly db: Database) {}

  async insertInvitation(row: InvitationRecord, tx?: Tx): Promise<void> {
    await this.db.write(
      (t) =>
        t.sql.run(
          'INSERT INTO invitations (id, token_hash, email, role, group_names, invited_by, created_at, expires_at, accepted_at, accepted_user_id, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [
            row.id,
            row.tokenHash,
            row.email,
            row.role,
            JSON.stringify(row.groups),
            row.invitedBy,
            row.createdAt,
            row.expiresAt,
            row.acceptedAt,
            row.acceptedUserId,
            row.revokedAt,
          ],
        ),
      tx,
    );
  }

  private async selectInvitations(where: string, params: unknown[], tx?: Tx) {
    const rows = await this.db
      .sql(tx)
      .all(`SELECT ${INVITATION_SELECT} FROM invitations i WHERE ${where}`, params);
    return rows.map(decodeInvitation);
  }

  async findInvitationByToken(tokenHash: string, tx?: Tx): Promise<InvitationRecord | null> {
    const [row] = await this.selectInvitations('i.token_hash = ?', [tokenHash], tx);
    return row ?? null;
  }

  async findInvitation(id: string, tx?: Tx): Promise<InvitationRecord | null> {
    const [row] = await this.selectInvitations('i.id = ?', [id], tx);
    return row ?? null;
  }

  /** Invitations neither accepted nor revoked (expired ones too), newest first. */
  listOpenInvitations(): Promise<InvitationRecord[]> {
    return this.selectInvitations(
      `i.accepted_at IS NULL AND i.revoked_at IS NULL ORDER BY i.created_at DESC, i.id DESC LIMIT ${INVITATION_LIST_LIMIT}`,
      [],
    );
  }

  /** The newest open, unexpired invitation to `email` (any case), if any. */
  async findOpenInvitationTo(email: string, now: Date, tx?: Tx): Promise<InvitationRecord | null> {
    const [row] = await this.selectInvitations(
      'LOWER(i.email) = ? AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > ? ORDER BY i.created_at DESC, i.id DESC LIMIT 1',
      [email.toLowerCase(), now],
      tx,
    );
    return row ?? null;
  }

  /** Revokes the open invitations to `email` (any case); answers how many. */
  async revokeOpenTo(email: string, now: Date, tx?: Tx): Promise<number> {
    const result = await this.db.write(
      (t) =>
        t.sql.run(
          'UPDATE invitations SET revoked_at = ? WHERE LOWER(email) = ? AND accepted_at IS NULL AND revoked_at IS NULL',
          [now, email.toLowerCase()],
        ),
      tx,
    );
    return result.changes;
  }

  /** Revokes one open invitation; false when it is unknown, accepted or revoked already. */
  async revokeInvitation(id: string, now: Date, tx?: Tx): Promise<boolean> {
    const result = await this.db.write(
      (t) =>
        t.sql.run(
          'UPDATE invitations SET revoked_at = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL',
          [now, id],
        ),
      tx,
    );
    return result.changes === 1;
  }

  /**
   * Marks the invitation accepted by `userId` if it still is open and unexpired: whoever's
   * UPDATE changes the row has it, so a link used twice at once creates one account.
   */
  async acceptInvitation(id: string, userId: string, now: Date, tx: Tx): Promise<boolean> {
    const result = await tx.sql.run(
      'UPDATE invitations SET accepted_at = ?, accepted_user_id = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?',
      [now, userId, id, now],
    );
    return result.changes === 1;
  }

  async insertReset(row: PasswordResetRecord): Promise<void> {
    await this.db.write((t) =>
      t.sql.run(
        'INSERT INTO password_resets (token_hash, user_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?)',
        [row.tokenHash, row.userId, row.createdAt, row.expiresAt, row.usedAt],
      ),
    );
  }

  async findReset(tokenHash: string, tx?: Tx): Promise<PasswordResetRecord | null> {
    const [row] = await this.db
      .sql(tx)
      .all(`SELECT ${RESET_SELECT} FROM password_resets r WHERE r.token_hash = ?`, [tokenHash]);
    return row ? decodeReset(row) : null;
  }

  /**
   * Uses the reset link if it still is unused and unexpired (single use, as acceptInvitation),
   * and ends the account's other unused links with it.
   */
  async useReset(tokenHash: string, userId: string, now: Date, tx: Tx): Promise<boolean> {
    const result = await tx.sql.run(
      'UPDATE password_resets SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
      [now, tokenHash, now],
    );
    if (result.changes !== 1) return false;
    await tx.sql.run(
      'UPDATE password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL',
      [now, userId],
    );
    return true;
  }

  /** Drops reset links that expired more than a day ago (invitations stay as their record). */
  async purge(now: Date): Promise<void> {
    const dayAgo = new Date(now.getTime() - 86_400_000);
    await this.db.write((t) =>
      t.sql.run('DELETE FROM password_resets WHERE expires_at < ?', [dayAgo]),
    );
  }
}
