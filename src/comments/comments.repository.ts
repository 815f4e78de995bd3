import { Injectable } from '@nestjs/common';
import { userSql, type UserRef } from '../auth/public-sql';
import { encodeValue } from '../common/database/column-defs';
import { Database, Tx } from '../common/database/database';
import { insertRows } from '../common/database/insert-rows';
import { placeholders } from '../common/database/sql';
import {
  COMMENT_COLUMNS,
  commentSelect,
  CommentRecord,
  decodeComment,
  StoredAnchor,
} from './comment-columns';

/** A comment as lists show it: with its author and its thread's resolved state. */
export interface CommentRow extends CommentRecord {
  author: UserRef | null;
  threadResolvedAt: Date | null;
  threadCreatedAt: Date;
}

export type CommentState = 'open' | 'resolved' | 'all';

/** Where a list continues: after this comment in (thread start, thread, time, id) order. */
export interface CommentCursor {
  threadAt: Date;
  threadId: string;
  at: Date;
  id: string;
}

const SELECT =
  `SELECT ${commentSelect('c')}${userSql.refColumns('c.author_id', 'author')}, ` +
  't.resolved_at AS thread_resolved_at, t.created_at AS thread_created_at ' +
  'FROM comments c JOIN comments t ON t.id = c.thread_id';

function decodeRow(row: Record<string, unknown>): CommentRow {
  const comment = decodeComment(row);
  const thread = decodeComment({
    ...row,
    resolved_at: row.thread_resolved_at,
    created_at: row.thread_created_at,
  });
  return {
    ...comment,
    author: userSql.readRef(comment.authorId, row, 'author'),
    threadResolvedAt: thread.resolvedAt,
    threadCreatedAt: thread.createdAt,
  };
}

/** The one door to `comments`. */
@Injectable()
export class CommentsRepository {
  constructor(private readonly db: Database) {}

  async insert(comment: CommentRecord, tx?: Tx): Promise<void> {
    await this.db.write(({ sql }) => insertRows(sql, 'comments', COMMENT_COLUMNS, [comment]), tx);
  }

  async insertMany(comments: CommentRecord[], tx: Tx): Promise<void> {
    await insertRows(tx.sql, 'comments', COMMENT_COLUMNS, comments);
  }

  async findById(id: string, tx?: Tx): Promise<CommentRow | null> {
    const [row] = await this.db.sql(tx).all(`${SELECT} WHERE c.id = ?`, [id]);
    return row ? decodeRow(row) : null;
  }

  /**
   * A page's comments, threads in the order they were started and each thread's comments in
   * order, narrowed by the thread's state; `after` continues behind a listed comment.
   */
  async listOfPage(
    pageId: string,
    state: CommentState,
    after: CommentCursor | undefined,
    limit: number,
  ): Promise<CommentRow[]> {
    const where = ['c.page_id = ?'];
    const params: unknown[] = [pageId];
    if (state === 'open') where.push('t.resolved_at IS NULL');
    if (state === 'resolved') where.push('t.resolved_at IS NOT NULL');
    if (after) {
      where.push(
        '(t.created_at > ? OR (t.created_at = ? AND (t.id > ? OR (t.id = ? AND ' +
          '(c.created_at > ? OR (c.created_at = ? AND c.id > ?))))))',
      );
      params.push(
        after.threadAt,
        after.threadAt,
        after.threadId,
        after.threadId,
        after.at,
        after.at,
        after.id,
      );
    }
    const rows = await this.db
      .sql()
      .all(
        `${SELECT} WHERE ${where.join(' AND ')} ` +
          `ORDER BY t.created_at, t.id, c.created_at, c.id LIMIT ${Number(limit)}`,
        params,
      );
    return rows.map(decodeRow);
  }

  /** Threads of a page by state. */
  async countThreads(pageId: string): Promise<{ open: number; resolved: number }> {
    const rows = await this.db
      .sql()
      .all<{ resolved: number | string; n: number | string }>(
        'SELECT CASE WHEN resolved_at IS NULL THEN 0 ELSE 1 END AS resolved, COUNT(*) AS n ' +
          'FROM comments WHERE page_id = ? AND id = thread_id GROUP BY CASE WHEN resolved_at IS NULL THEN 0 ELSE 1 END',
        [pageId],
      );
    const counts = { open: 0, resolved: 0 };
    for (const row of rows)
      counts[Number(row.resolved) === 1 ? 'resolved' : 'open'] = Number(row.n);
    return counts;
  }

  /** The distinct authors of a thread's comments. */
  async participantsOf(threadId: string, tx?: Tx): Promise<string[]> {
    const rows = await this.db
      .sql(tx)
      .all<{ author_id: string }>(
        'SELECT DISTINCT author_id FROM comments WHERE thread_id = ? AND author_id IS NOT NULL',
        [threadId],
      );
    return rows.map((r) => r.author_id);
  }

  /** Whether anyone but `authorId` replied in the thread. */
  async hasRepliesByOthers(threadId: string, authorId: string | null, tx?: Tx): Promise<boolean> {
    const rows = await this.db
      .sql(tx)
      .all(
        'SELECT 1 AS found FROM comments WHERE thread_id = ? AND id <> thread_id AND (author_id IS NULL OR author_id <> ?) LIMIT 1',
        [threadId, authorId ?? ''],
      );
    return rows.length > 0;
  }

  async updateBody(id: string, body: string, html: string, now: Date, tx: Tx): Promise<void> {
    await tx.sql.run(
      'UPDATE comments SET body = ?, html = ?, edited_at = ?, updated_at = ? WHERE id = ?',
      [body, html, now, now, id],
    );
  }

  /** Resolves (`at`) or reopens (null) a thread; false when it already was in that state. */
  async setResolved(
    threadId: string,
    at: Date | null,
    by: string | null,
    tx: Tx,
  ): Promise<boolean> {
    const { changes } = await tx.sql.run(
      `UPDATE comments SET resolved_at = ?, resolved_by = ?, updated_at = ? WHERE id = ? AND resolved_at IS ${at ? 'NULL' : 'NOT NULL'}`,
      [at, by, at ?? new Date(), threadId],
    );
    return changes > 0;
  }

  /** Deletes a comment, or a whole thread when it is the thread's first comment. */
  async delete(comment: Pick<CommentRecord, 'id' | 'threadId'>, tx: Tx): Promise<void> {
    if (comment.id === comment.threadId)
      await tx.sql.run('DELETE FROM comments WHERE thread_id = ? AND id <> thread_id', [
        comment.id,
      ]);
    await tx.sql.run('DELETE FROM comments WHERE id = ?', [comment.id]);
  }

  /** The inline threads of a page, with the revision their anchors were matched against. */
  async anchoredOf(
    pageId: string,
  ): Promise<Pick<CommentRecord, 'id' | 'anchor' | 'anchorRevision' | 'outdated'>[]> {
    const rows = await this.db
      .sql()
      .all(
        `SELECT ${commentSelect('c')} FROM comments c WHERE c.page_id = ? AND c.anchor IS NOT NULL`,
        [pageId],
      );
    return rows.map(decodeComment);
  }

  /**
   * Stores where an anchor is after matching it against `revision`, unless it was matched
   * against that revision or a later one meanwhile (another process, a read).
   */
  async moveAnchor(
    id: string,
    anchor: StoredAnchor,
    outdated: boolean,
    revision: number,
  ): Promise<void> {
    await this.db.write(({ sql }) =>
      sql.run(
        'UPDATE comments SET anchor = ?, outdated = ?, anchor_revision = ? WHERE id = ? AND (anchor_revision IS NULL OR anchor_revision < ?)',
        [encodeValue(COMMENT_COLUMNS.anchor, anchor), outdated, revision, id, revision],
      ),
    );
  }

  /** Every comment of the pages, thread by thread (archive export). */
  async allOfPages(pageIds: string[]): Promise<CommentRow[]> {
    if (pageIds.length === 0) return [];
    const rows = await this.db
      .sql()
      .all(
        `${SELECT} WHERE c.page_id IN (${placeholders(pageIds.length)}) ORDER BY t.created_at, t.id, c.created_at, c.id`,
        pageIds,
      );
    return rows.map(decodeRow);
  }

  /** Drops a page's comments (an archive import replaces them). */
  async deleteOfPage(pageId: string, tx: Tx): Promise<void> {
    await tx.sql.run('DELETE FROM comments WHERE page_id = ? AND id <> thread_id', [pageId]);
    await tx.sql.run('DELETE FROM comments WHERE page_id = ?', [pageId]);
  }
}
