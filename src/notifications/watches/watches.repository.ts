import { Injectable } from '@nestjs/common';
import { toDate } from '../../common/database/column-defs';
import { Database } from '../../common/database/database';
import { placeholders } from '../../common/database/sql';

export interface WatchRecord {
  userId: string;
  slug: string;
  subtree: boolean;
  createdAt: Date;
}

function decode(row: Record<string, unknown>): WatchRecord {
  return {
    userId: String(row.user_id),
    slug: String(row.slug),
    subtree: Number(row.subtree) === 1 || row.subtree === true,
    createdAt: toDate(row.created_at)!,
  };
}

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
      .all('SELECT * FROM watches WHERE user_id = ? AND slug = ? AND subtree = ?', [
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
          sql: ' AND (slug > ? OR (slug = ? AND subtree > ?))',
          params: [after.slug, after.slug, after.subtree],
        }
      : { sql: '', params: [] };
    const rows = await this.db
      .sql()
      .all(
        `SELECT * FROM watches WHERE user_id = ?${cursor.sql} ORDER BY slug, subtree LIMIT ${Number(limit)}`,
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
