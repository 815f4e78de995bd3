import { Injectable } from '@nestjs/common';
import { userSql } from '../auth/public-sql';
import { encodeValue, rowDecoder, selectList } from '../common/database/column-defs';
import { Database, Tx } from '../common/database/database';
import type { CursorPosition } from '../common/http/pagination';
import { allOf, placeholders, SqlCondition } from '../common/database/sql';
import {
  NOTIFICATION_COLUMNS,
  NotificationEntity,
  NotificationRecord,
} from './entities/notification.entity';

const KEYS = Object.keys(NOTIFICATION_COLUMNS) as (keyof NotificationRecord)[];
const COLUMNS = selectList(NOTIFICATION_COLUMNS, KEYS, 'n');
const decode = rowDecoder(NOTIFICATION_COLUMNS, KEYS) as (
  row: Record<string, unknown>,
) => NotificationRecord;

/** An inbox: a recipient's notices, narrowed by the visibility of the pages they name. */
export interface Inbox {
  recipientId: string;
  /** Which notices about pages the recipient may see now (PageAccessService's rule). */
  visible: SqlCondition;
  unreadOnly?: boolean;
  /** Only notices created after this moment (the digest: since the last one). */
  createdAfter?: Date;
}

/** The one door to `notifications`. */
@Injectable()
export class NotificationsRepository {
  constructor(private readonly db: Database) {}

  private inbox(inbox: Inbox): SqlCondition {
    const where: SqlCondition[] = [
      { sql: 'n.recipient_id = ?', params: [inbox.recipientId] },
      inbox.visible,
    ];
    if (inbox.unreadOnly) where.push({ sql: 'n.read_at IS NULL', params: [] });
    if (inbox.createdAfter) where.push({ sql: 'n.created_at > ?', params: [inbox.createdAfter] });
    return allOf(where);
  }

  /** A page of the inbox, newest first, with actors; `after` continues behind a listed notice. */
  async list(
    inbox: Inbox,
    after: CursorPosition | undefined,
    limit: number,
  ): Promise<NotificationEntity[]> {
    const where = this.inbox(inbox);
    const cursor = after
      ? allOf([
          where,
          {
            sql: 'n.created_at < ? OR (n.created_at = ? AND n.id < ?)',
            params: [after.at, after.at, after.id],
          },
        ])
      : where;
    const rows = await this.db
      .sql()
      .all(
        `SELECT ${COLUMNS}${userSql.refColumns('n.actor_id', 'actor')} FROM notifications n ` +
          `WHERE ${cursor.sql} ORDER BY n.created_at DESC, n.id DESC LIMIT ${Number(limit)}`,
        cursor.params,
      );
    return rows.map((row) => {
      const notice = decode(row);
      return { ...notice, actor: userSql.readRef(notice.actorId, row, 'actor') };
    });
  }

  async count(inbox: Inbox): Promise<number> {
    const where = this.inbox(inbox);
    const [row] = await this.db
      .sql()
      .all<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM notifications n WHERE ${where.sql}`,
        where.params,
      );
    return Number(row?.n ?? 0);
  }

  /** Marks one unread notice of the recipient read; false when there was none to mark. */
  async markRead(id: string, recipientId: string, now: Date, tx?: Tx): Promise<boolean> {
    const { changes } = await this.db.write(
      ({ sql }) =>
        sql.run(
          'UPDATE notifications SET read_at = ? WHERE id = ? AND recipient_id = ? AND read_at IS NULL',
          [now, id, recipientId],
        ),
      tx,
    );
    return changes > 0;
  }

  async markAllRead(recipientId: string, now: Date, tx?: Tx): Promise<void> {
    await this.db.write(
      ({ sql }) =>
        sql.run('UPDATE notifications SET read_at = ? WHERE recipient_id = ? AND read_at IS NULL', [
          now,
          recipientId,
        ]),
      tx,
    );
  }

  async exists(id: string, recipientId: string, tx?: Tx): Promise<boolean> {
    const rows = await this.db
      .sql(tx)
      .all('SELECT 1 AS found FROM notifications WHERE id = ? AND recipient_id = ? LIMIT 1', [
        id,
        recipientId,
      ]);
    return rows.length > 0;
  }

  /** Inserts a notice, unless one with its (recipient, dedupe key) exists: then nothing. */
  async insertUnlessDuplicate(notice: NotificationRecord, tx?: Tx): Promise<void> {
    await this.db.write(async ({ sql }) => {
      const statement =
        `${sql.dialect.insertIgnore} INTO notifications (${KEYS.map((k) => NOTIFICATION_COLUMNS[k].name).join(', ')}) ` +
        `VALUES (${placeholders(KEYS.length)})`;
      await sql.run(
        statement,
        KEYS.map((key) => encodeValue(NOTIFICATION_COLUMNS[key], notice[key])),
      );
    }, tx);
  }

  /** The recipient's unread `page.updated` notice about a page, if any. */
  async findUnreadPageUpdate(
    recipientId: string,
    pageId: string,
    tx?: Tx,
  ): Promise<NotificationRecord | null> {
    const [row] = await this.db
      .sql(tx)
      .all(
        `SELECT ${COLUMNS} FROM notifications n WHERE n.recipient_id = ? AND n.kind = 'page.updated' AND n.page_id = ? AND n.read_at IS NULL LIMIT 1`,
        [recipientId, pageId],
      );
    return row ? decode(row) : null;
  }

  /** Changes a notice that is still unread; false when it was read meanwhile. */
  async updateUnread(
    id: string,
    changes: Pick<NotificationRecord, 'actorId' | 'pageSlug' | 'pageTitle' | 'data' | 'createdAt'>,
    tx?: Tx,
  ): Promise<boolean> {
    const result = await this.db.write(
      ({ sql }) =>
        sql.run(
          'UPDATE notifications SET actor_id = ?, page_slug = ?, page_title = ?, data = ?, created_at = ? WHERE id = ? AND read_at IS NULL',
          [
            changes.actorId,
            changes.pageSlug,
            changes.pageTitle,
            JSON.stringify(changes.data),
            changes.createdAt,
            id,
          ],
        ),
      tx,
    );
    return result.changes > 0;
  }

  /** The dedupe keys among `keys` that exist already. */
  async existingDedupeKeys(keys: string[], tx?: Tx): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .sql(tx)
      .all<{ dedupe_key: string }>(
        `SELECT dedupe_key FROM notifications WHERE dedupe_key IN (${placeholders(keys.length)})`,
        keys,
      );
    return new Set(rows.map((r) => r.dedupe_key));
  }
}
