import { Injectable } from '@nestjs/common';
import { column, rowDecoder, RowOf, selectList } from '../../common/database/column-defs';
import { Database } from '../../common/database/database';
import { placeholders } from '../../common/database/sql';

/** `watches`: one row per watch of a page (or, with `subtree`, of a folder). */
const WATCH_COLUMNS = {
  userId: column.uuid('user_id', { primary: true }),
  slug: column.varchar('slug', 255, { primary: true }),
  subtree: column.bool('subtree', { primary: true }),
  createdAt: column.datetime('created_at'),
};
export type WatchRecord = RowOf<typeof WATCH_COLUMNS>;

const KEYS = Object.keys(WATCH_COLUMNS) as (keyof WatchRecord)[];
const decode = rowDecoder(WATCH_COLUMNS, KEYS);
const SELECT = `SELECT ${selectList(WATCH_COLUMNS, KEYS, 'w')} FROM watches w`;

/** The one door to `watches`. */
@Injectable()
export class WatchesRepository {
  constructor(private readonly db: Database) {}

  /** Adds the watch unless the user has it already (then it keeps its time); answers it. */
  async put(userId: string, slug: string, subtree: boolean, now: Date): Promise<WatchRecord> {
    await this.db.write(({ sql }) =>
      sql.run(
        `${sql.dialect.insertIgnore} INTO watches (user_id, slug, subtree, created_at) VALUES (?, ?, ?, ?)`,
        [userId, slug, subtree, now],
      ),
    );
    const [row] = await this.db
      .sql()
      .all(`${SELECT} WHERE w.user_id = ? AND w.slug = ? AND w.subtree = ?`, [
        userId,
        slug,
        subtree,
      ]);
    return decode(row);
  }

  async remove(userId: string, slug: string, subtree: boolean): Promise<void> {
    await this.db.write(({ sql }) =>
      sql.run('DELETE FROM watches WHERE user_id = ? AND slug = ? AND subtree = ?', [
        userId,
        slug,
        subtree,
      ]),
    );
  }

  /** The user's watches by slug (a page watch before a folder watch of the same slug). */
  async listOf(
    userId: string,
    after: { slug: string; subtree: boolean } | undefined,
    limit: number,
  ): Promise<WatchRecord[]> {
    const cursor = after
      ? {
          sql: ' AND (w.slug > ? OR (w.slug = ? AND w.subtree > ?))',
          params: [after.slug, after.slug, after.subtree],
        }
      : { sql: '', params: [] };
    const rows = await this.db
      .sql()
      .all(
        `${SELECT} WHERE w.user_id = ?${cursor.sql} ORDER BY w.slug, w.subtree LIMIT ${Number(limit)}`,
        [userId, ...cursor.params],
      );
    return rows.map(decode);
  }

  /**
   * Who watches the page at `slug`: a page watch of that slug, or a folder watch of it or of
   * one of its ancestors (`a/b/c`: `a/b/c`, `a/b`, `a`), on the slug index.
   */
  async watchersOf(slug: string): Promise<string[]> {
    const segments = slug.split('/');
    const folders = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
    const rows = await this.db
      .sql()
      .all<{ user_id: string }>(
        `SELECT DISTINCT user_id FROM watches WHERE slug = ? OR (subtree = ? AND slug IN (${placeholders(folders.length)}))`,
        [slug, true, ...folders],
      );
    return rows.map((r) => r.user_id);
  }
}
