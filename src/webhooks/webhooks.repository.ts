import { Injectable } from '@nestjs/common';
import { encodeValue, rowDecoder, selectList } from '../common/database/column-defs';
import { Database, Tx } from '../common/database/database';
import { insertRows } from '../common/database/insert-rows';
import { WEBHOOK_COLUMNS, WebhookRecord } from './webhook-columns';

export type { WebhookRecord };

const KEYS = Object.keys(WEBHOOK_COLUMNS) as (keyof WebhookRecord)[];
const decode = rowDecoder(WEBHOOK_COLUMNS, KEYS);
const SELECT = `SELECT ${selectList(WEBHOOK_COLUMNS, KEYS, 'w')} FROM webhooks w`;

/** The one door to `webhooks` (subscriptions). */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  async insert(webhook: WebhookRecord, tx?: Tx): Promise<void> {
    await this.db.write(({ sql }) => insertRows(sql, 'webhooks', WEBHOOK_COLUMNS, [webhook]), tx);
  }

  async update(webhook: WebhookRecord, tx?: Tx): Promise<boolean> {
    const { changes } = await this.db.write(
      ({ sql }) =>
        sql.run(
          'UPDATE webhooks SET url = ?, events = ?, secret = ?, active = ?, updated_at = ? WHERE id = ?',
          [
            webhook.url,
            encodeValue(WEBHOOK_COLUMNS.events, webhook.events),
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
    const [row] = await this.db.sql(tx).all(`${SELECT} WHERE w.id = ?`, [id]);
    return row ? decode(row) : null;
  }

  /** Every subscription, oldest first (an admin list: a few dozen at most). */
  async list(tx?: Tx): Promise<WebhookRecord[]> {
    const rows = await this.db.sql(tx).all(`${SELECT} ORDER BY w.created_at, w.id`);
    return rows.map(decode);
  }
}
