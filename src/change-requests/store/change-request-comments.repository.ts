import { Injectable } from '@nestjs/common';
import { userSql, type UserRef } from '../../auth/public-sql';
import { rowDecoder, selectList } from '../../common/database/column-defs';
import { Database, Tx } from '../../common/database/database';
import { insertRows } from '../../common/database/insert-rows';
import type { CursorPosition } from '../../common/http/pagination';
import { REQUEST_COMMENT_COLUMNS, RequestCommentRow } from './change-request-columns';

const KEYS = Object.keys(REQUEST_COMMENT_COLUMNS) as (keyof RequestCommentRow)[];
const decode = rowDecoder(REQUEST_COMMENT_COLUMNS, KEYS);
const SELECT =
  `SELECT ${selectList(REQUEST_COMMENT_COLUMNS, KEYS, 'c')}` +
  `${userSql.refColumns('c.author_id', 'author')} FROM change_request_comments c`;

/** A review comment with its author. */
export type RequestCommentWithAuthor = RequestCommentRow & { author: UserRef | null };

function withAuthor(row: Record<string, unknown>): RequestCommentWithAuthor {
  const comment = decode(row);
  return { ...comment, author: userSql.readRef(comment.authorId, row, 'author') };
}

/** The one door to `change_request_comments`. */
@Injectable()
export class ChangeRequestCommentsRepository {
  constructor(private readonly db: Database) {}

  async insert(comment: RequestCommentRow, tx: Tx): Promise<void> {
    await insertRows(this.db.sql(tx), 'change_request_comments', REQUEST_COMMENT_COLUMNS, [
      comment,
    ]);
  }

  async find(requestId: number, id: string, tx?: Tx): Promise<RequestCommentWithAuthor | null> {
    const [row] = await this.db
      .sql(tx)
      .all(`${SELECT} WHERE c.request_id = ? AND c.id = ?`, [requestId, id]);
    return row ? withAuthor(row) : null;
  }

  /** The request's comments, oldest first, after the cursor. */
  async list(
    requestId: number,
    after: CursorPosition | undefined,
    limit: number,
  ): Promise<RequestCommentWithAuthor[]> {
    const params: unknown[] = [requestId];
    let where = 'c.request_id = ?';
    if (after) {
      where += ' AND (c.created_at > ? OR (c.created_at = ? AND c.id > ?))';
      params.push(after.at, after.at, after.id);
    }
    const rows = await this.db
      .sql()
      .all(`${SELECT} WHERE ${where} ORDER BY c.created_at, c.id LIMIT ${Number(limit)}`, params);
    return rows.map(withAuthor);
  }

  async count(requestId: number, tx: Tx): Promise<number> {
    const [row] = await this.db
      .sql(tx)
      .all<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM change_request_comments WHERE request_id = ?',
        [requestId],
      );
    return Number(row.n);
  }

  /** The authors of a thread's comments (who hear of a reply). */
  async participants(threadId: string, tx: Tx): Promise<string[]> {
    const rows = await this.db
      .sql(tx)
      .all<{ author_id: string | null }>(
        'SELECT DISTINCT author_id FROM change_request_comments WHERE thread_id = ?',
        [threadId],
      );
    return rows.flatMap((r) => (r.author_id ? [r.author_id] : []));
  }

  /** Whether anyone but `authorId` replied in the thread. */
  async hasRepliesByOthers(threadId: string, authorId: string | null, tx: Tx): Promise<boolean> {
    const [row] = await this.db
      .sql(tx)
      .all(
        'SELECT 1 AS x FROM change_request_comments WHERE thread_id = ? AND id <> thread_id AND (author_id IS NULL OR author_id <> ?) LIMIT 1',
        [threadId, authorId ?? ''],
      );
    return row !== undefined;
  }

  async updateBody(id: string, body: string, html: string, now: Date, tx: Tx): Promise<void> {
    await this.db
      .sql(tx)
      .run(
        'UPDATE change_request_comments SET body = ?, html = ?, edited_at = ?, updated_at = ? WHERE id = ?',
        [body, html, now, now, id],
      );
  }

  /**
   * Deletes a comment; a thread's first comment takes its replies with it, a reply hands its
   * own replies to the comment it answered.
   */
  async delete(
    comment: Pick<RequestCommentRow, 'id' | 'threadId' | 'parentId'>,
    tx: Tx,
  ): Promise<void> {
    const sql = this.db.sql(tx);
    if (comment.id === comment.threadId) {
      await sql.run('DELETE FROM change_request_comments WHERE thread_id = ?', [comment.id]);
      return;
    }
    await sql.run('UPDATE change_request_comments SET parent_id = ? WHERE parent_id = ?', [
      comment.parentId,
      comment.id,
    ]);
    await sql.run('DELETE FROM change_request_comments WHERE id = ?', [comment.id]);
  }
}
