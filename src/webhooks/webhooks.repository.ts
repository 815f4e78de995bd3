import { Injectable } from '@nestjs/common';
import { toDate } from '../common/database/column-defs';
import { Database, Tx } from '../common/database/database';
import type { EventType } from './event-types';

export interface WebhookRecord {
  id: string;
  url: string;
  events: EventType[];
  secret: string;
  active: boolean;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = 'id, url, events, secret, active, created_by, created_at, updated_at';

function decode(row: Record<string, unknown>): WebhookRecord {
  return {
    id: String(row.id),
    url: String(row.url),
    events: JSON.parse(String(row.events)) as EventType[],
    secret: String(row.secret),
    active: Boolean(Number(row.active)),
    createdBy: (row.created_by as string | null) ?? null,
    createdAt: toDate(row.created_at)!,
    updatedAt: toDate(row.updated_at)!,
  };
}

/** The one door to `webhooks` (subscriptions). */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  async insert(webhook: WebhookRecord, tx?: Tx): Promise<void> {
    await this.db.write(
      ({ sql }) =>
        sql.run(`INSERT INTO webhooks (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
          webhook.id,
          webhook.url,
          JSON.stringify(webhook.events),
          webhook.secret,
          webhook.active,
          webhook.createdBy,
          webhook.createdAt,
          webhook.updatedAt,
        ]),
      tx,
    );
  }

  async update(webhook: WebhookRecord, tx?: Tx): Promise<boolean> {
    const { changes } = await this.db.write(
      ({ sql }) =>
        sql.run(
          'UPDATE webhooks SET url = ?, events = ?, secret = ?, active = ?, updated_at = ? WHERE id = ?',
          [
            webhook.url,
            JSON.stringify(webhook.events),
            webhook.secret,
            webhook.active,
            webhook.updatedAt,
            webhook.id,
          ],
        ),
      tx,
    );
    return changes > 0;
  }

  async remove(id: string, tx?: Tx): Promise<boolean> {
    const { changes } = await this.db.write(
      ({ sql }) => sql.run('DELETE FROM webhooks WHERE id = ?', [id]),
      tx,
    );
    return changes > 0;
  }

  async find(id: string, tx?: Tx): Promise<WebhookRecord | null> {
    const [row] = await this.db.sql(tx).all(`SELECT ${COLUMNS} FROM webhooks WHERE id = ?`, [id]);
    return row ? decode(row) : null;
  }

  /** Every subscription, oldest first (an admin list: a few dozen at most). */
  async list(tx?: Tx): Promise<WebhookRecord[]> {
    const rows = await this.db
      .sql(tx)
      .all(`SELECT ${COLUMNS} FROM webhooks ORDER BY created_at, id`);
    return rows.map(decode);
  }
}
