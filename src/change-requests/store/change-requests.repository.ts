import { Injectable } from '@nestjs/common';
import { userSql } from '../../auth/public-sql';
import { rowDecoder, selectList } from '../../common/database/column-defs';
import { Database, Tx } from '../../common/database/database';
import { insertRows } from '../../common/database/insert-rows';
import { placeholders } from '../../common/database/sql';
import {
  CHANGE_COLUMNS,
  CHANGE_REQUEST_COLUMNS,
  ChangeRequestRow,
  ChangeRequestState,
  ChangeRow,
  REVIEW_COLUMNS,
  ReviewRow,
} from './change-request-columns';

const REQUEST_KEYS = Object.keys(CHANGE_REQUEST_COLUMNS) as (keyof ChangeRequestRow)[];
const CHANGE_KEYS = Object.keys(CHANGE_COLUMNS) as (keyof ChangeRow)[];
const REVIEW_KEYS = Object.keys(REVIEW_COLUMNS) as (keyof ReviewRow)[];
const decodeRequest = rowDecoder(CHANGE_REQUEST_COLUMNS, REQUEST_KEYS);
const decodeChange = rowDecoder(CHANGE_COLUMNS, CHANGE_KEYS);
const decodeReview = rowDecoder(REVIEW_COLUMNS, REVIEW_KEYS);
const REQUEST_SELECT = selectList(CHANGE_REQUEST_COLUMNS, REQUEST_KEYS, 'cr');

/** A request with its author's username. */
export type ChangeRequestWithAuthor = ChangeRequestRow & { author: string | null };
/** A review with its reviewer's username. */
export type ReviewWithUser = ReviewRow & { username: string | null };

function withAuthor(row: Record<string, unknown>): ChangeRequestWithAuthor {
  return { ...decodeRequest(row), author: (row.author_username as string | null) ?? null };
}

/** The one door to `change_requests`, `change_request_changes` and `change_request_reviews`. */
@Injectable()
export class ChangeRequestsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts a request under the next number (numbers are shown as `#12`); the primary key
   * decides between two concurrent inserts, and the loser's transaction is retried by the caller.
   */
  async insert(
    request: Omit<ChangeRequestRow, 'id'>,
    changes: Omit<ChangeRow, 'requestId' | 'position'>[],
    tx: Tx,
  ): Promise<number> {
    const sql = this.db.sql(tx);
    const [row] = await sql.all<{ next: number | string }>(
      'SELECT COALESCE(MAX(id), 0) + 1 AS next FROM change_requests',
    );
    const id = Number(row.next);
    await insertRows(sql, 'change_requests', CHANGE_REQUEST_COLUMNS, [{ ...request, id }]);
    await this.insertChanges(id, changes, tx);
    return id;
  }

  /**
   * A new set of changes for an open request (its `version` moves on, so earlier approvals no
   * longer count); false when it is no longer open at `version`.
   */
  async replaceChanges(
    id: string | number,
    version: number,
    fields: Pick<ChangeRequestRow, 'title' | 'description' | 'reviewerIds' | 'updatedAt'>,
    changes: Omit<ChangeRow, 'requestId' | 'position'>[],
    tx: Tx,
  ): Promise<boolean> {
    const sql = this.db.sql(tx);
    const { changes: updated } = await sql.run(
      `UPDATE change_requests SET version = version + 1, title = ?, description = ?, reviewer_ids = ?, updated_at = ?
       WHERE id = ? AND state = 'open' AND version = ?`,
      [
        fields.title,
        fields.description,
        JSON.stringify(fields.reviewerIds),
        fields.updatedAt,
        Number(id),
        version,
      ],
    );
    if (updated === 0) return false;
    await sql.run('DELETE FROM change_request_changes WHERE request_id = ?', [Number(id)]);
    await this.insertChanges(Number(id), changes, tx);
    return true;
  }

  private insertChanges(
    requestId: number,
    changes: Omit<ChangeRow, 'requestId' | 'position'>[],
    tx: Tx,
  ): Promise<void> {
    return insertRows(
      this.db.sql(tx),
      'change_request_changes',
      CHANGE_COLUMNS,
      changes.map((change, position) => ({ ...change, requestId, position })),
    );
  }

  /**
   * Ends an open request at `version` (merged or closed): the one conditional UPDATE that
   * decides between two merges (or a merge and a close) of one request. False: it was not open
   * at that version any more.
   */
  async finish(
    id: number,
    version: number,
    state: Exclude<ChangeRequestState, 'open'>,
    actorId: string,
    now: Date,
    tx: Tx,
  ): Promise<boolean> {
    const { changes } = await this.db
      .sql(tx)
      .run(
        `UPDATE change_requests SET state = ?, closed_by = ?, closed_at = ?, updated_at = ? WHERE id = ? AND state = 'open' AND version = ?`,
        [state, actorId, now, now, id, version],
      );
    return changes > 0;
  }

  async find(id: number, tx?: Tx): Promise<ChangeRequestWithAuthor | null> {
    const [row] = await this.db
      .sql(tx)
      .all(
        `SELECT ${REQUEST_SELECT}${userSql.refColumns('cr.author_id', 'author')} FROM change_requests cr WHERE cr.id = ?`,
        [id],
      );
    return row ? withAuthor(row) : null;
  }

  /** The author's open request with this label (`kb push --propose <label>`). */
  async findOpenByLabel(authorId: string, label: string): Promise<ChangeRequestRow | null> {
    const [row] = await this.db
      .sql()
      .all(
        `SELECT ${REQUEST_SELECT} FROM change_requests cr WHERE cr.author_id = ? AND cr.label = ? AND cr.state = 'open' ORDER BY cr.id DESC LIMIT 1`,
        [authorId, label],
      );
    return row ? decodeRequest(row) : null;
  }

  /** Requests newest first (`state`: one state; null: all), after the cursor's id. */
  async list(
    state: ChangeRequestState | null,
    beforeId: number | null,
    limit: number,
  ): Promise<ChangeRequestWithAuthor[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (state) {
      where.push('cr.state = ?');
      params.push(state);
    }
    if (beforeId !== null) {
      where.push('cr.id < ?');
      params.push(beforeId);
    }
    const rows = await this.db
      .sql()
      .all(
        `SELECT ${REQUEST_SELECT}${userSql.refColumns('cr.author_id', 'author')} FROM change_requests cr` +
          `${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY cr.id DESC LIMIT ${Number(limit)}`,
        params,
      );
    return rows.map(withAuthor);
  }

  async changesOf(id: number, tx?: Tx): Promise<ChangeRow[]> {
    const rows = await this.db
      .sql(tx)
      .all('SELECT * FROM change_request_changes WHERE request_id = ? ORDER BY position', [id]);
    return rows.map(decodeChange);
  }

  /** The changes of several requests (a list checks visibility by their pages). */
  async changesOfMany(ids: number[]): Promise<ChangeRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .sql()
      .all(
        `SELECT request_id, position, slug, action, to_slug, page_id FROM change_request_changes WHERE request_id IN (${placeholders(ids.length)})`,
        ids,
      );
    return rows.map(decodeChange);
  }

  async reviewsOf(id: number, tx?: Tx): Promise<ReviewWithUser[]> {
    const rows = await this.db
      .sql(tx)
      .all(
        `SELECT r.*${userSql.refColumns('r.user_id', 'reviewer')} FROM change_request_reviews r WHERE r.request_id = ? ORDER BY r.created_at`,
        [id],
      );
    return rows.map((row) => ({
      ...decodeReview(row),
      username: (row.reviewer_username as string | null) ?? null,
    }));
  }

  /** The reviewer's verdict on the request's current version (replacing their earlier one). */
  async putReview(review: ReviewRow, tx: Tx): Promise<void> {
    const sql = this.db.sql(tx);
    await sql.run('DELETE FROM change_request_reviews WHERE request_id = ? AND user_id = ?', [
      review.requestId,
      review.userId,
    ]);
    await insertRows(sql, 'change_request_reviews', REVIEW_COLUMNS, [review]);
  }
}
