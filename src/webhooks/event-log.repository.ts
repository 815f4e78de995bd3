import { Injectable } from '@nestjs/common';
import { rowDecoder, selectList } from '../common/database/column-defs';
import { Database, Tx } from '../common/database/database';
import { SqlCondition } from '../common/database/sql';
import { EVENT_COLUMNS, type EventRecord } from './webhook-columns';

const KEYS = Object.keys(EVENT_COLUMNS) as (keyof EventRecord)[];
const COLUMNS = selectList(EVENT_COLUMNS, KEYS, 'e');
const decode = rowDecoder(EVENT_COLUMNS, KEYS);

/**
 * Reads `events`, the append-only log behind the feed and the webhook deliveries (the Outbox,
 * src/common/events/outbox.ts, is the one code that appends to it, inside each change's
 * transaction).
 */
@Injectable()
export class EventLogRepository {
  constructor(private readonly db: Database) {}

  /** Events after `afterSeq` that `visible` lets through, oldest first. */
  async listAfter(afterSeq: number, visible: SqlCondition, limit: number): Promise<EventRecord[]> {
    const rows = await this.db
      .sql()
      .all(
        `SELECT ${COLUMNS} FROM events e WHERE e.seq > ? AND (${visible.sql}) ` +
          `ORDER BY e.seq LIMIT ${Number(limit)}`,
        [afterSeq, ...visible.params],
      );
    return rows.map(decode);
  }

  /** The newest event's sequence number (0 for an empty log). */
  async latestSeq(): Promise<number> {
    const [row] = await this.db
      .sql()
      .all<{ seq: number | string | null }>('SELECT MAX(seq) AS seq FROM events');
    return Number(row?.seq ?? 0);
  }

  async findBySeq(seq: number, tx?: Tx): Promise<EventRecord | null> {
    const [row] = await this.db
      .sql(tx)
      .all(`SELECT ${COLUMNS} FROM events e WHERE e.seq = ?`, [seq]);
    return row ? decode(row) : null;
  }
}
