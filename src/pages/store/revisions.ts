import { userSql } from '../../auth/public-sql';
import { rowDecoder, selectList } from '../../common/database/column-defs';
import { readQuery, Sql } from '../../common/database/sql';
import { REVISION_COLUMNS, REVISION_KEYS, RevisionRecord } from '../model/revision-columns';
import { insertRows } from '../../common/database/insert-rows';

/** A revision without its content and metadata (lists). */
export type RevisionSummary = Pick<
  RevisionRecord,
  | 'id'
  | 'pageId'
  | 'revision'
  | 'title'
  | 'action'
  | 'authorId'
  | 'createdAt'
  | 'summary'
  | 'coAuthors'
>;

const SUMMARY_KEYS = [
  'id',
  'pageId',
  'revision',
  'title',
  'action',
  'authorId',
  'createdAt',
  'summary',
  'coAuthors',
] as const;
const decodeSummary = rowDecoder(REVISION_COLUMNS, SUMMARY_KEYS);
const decodeRevision = rowDecoder(REVISION_COLUMNS, REVISION_KEYS) as (
  row: Record<string, unknown>,
) => RevisionRecord;

/** A page's revisions, newest first, with their authors' usernames; `before` continues. */
export const listRevisions = readQuery(
  'pages.listRevisions',
  async (
    sql,
    pageId: string,
    before: number | undefined,
    limit: number,
  ): Promise<{ revision: RevisionSummary; author: string | null }[]> => {
    const rows = await sql.all(
      `SELECT ${selectList(REVISION_COLUMNS, [...SUMMARY_KEYS], 'r')}, ` +
        `${userSql.username('r.author_id')} AS author_username FROM page_revisions r ` +
        `WHERE r.page_id = ?${before === undefined ? '' : ' AND r.revision < ?'} ` +
        `ORDER BY r.revision DESC LIMIT ${Number(limit)}`,
      before === undefined ? [pageId] : [pageId, before],
    );
    return rows.map((row) => ({
      revision: decodeSummary(row),
      author: (row.author_username as string | null) ?? null,
    }));
  },
);

/** One revision with its author's username. */
export async function findRevision(
  sql: Sql,
  id: string,
): Promise<{ revision: RevisionRecord; author: string | null } | null> {
  const [row] = await sql.all(
    `SELECT ${selectList(REVISION_COLUMNS, REVISION_KEYS, 'r')}, ` +
      `${userSql.username('r.author_id')} AS author_username FROM page_revisions r WHERE r.id = ?`,
    [id],
  );
  if (!row) return null;
  return {
    revision: decodeRevision(row),
    author: (row.author_username as string | null) ?? null,
  };
}

/** A page's title and Markdown at one revision number (a change request's base), or null. */
export async function revisionText(
  sql: Sql,
  pageId: string,
  revision: number,
): Promise<{ title: string; content: string } | null> {
  const [row] = await sql.all<{ title: string; content: string }>(
    'SELECT r.title AS title, r.content AS content FROM page_revisions r WHERE r.page_id = ? AND r.revision = ?',
    [pageId, revision],
  );
  return row ? { title: String(row.title), content: String(row.content) } : null;
}

/** The username of a user id (a revision's owner, kept in its metadata), or null. */
export async function usernameOf(sql: Sql, userId: string | null): Promise<string | null> {
  if (userId === null) return null;
  const [row] = await sql.all<{ username: string | null }>(
    `SELECT ${userSql.username('?')} AS username`,
    [userId],
  );
  return row?.username ?? null;
}

/** Sets the co-authors of one revision (a live session's, saved through the editor's PUT). */
export async function setCoAuthors(
  sql: Sql,
  pageId: string,
  revision: number,
  coAuthors: string[],
): Promise<void> {
  await sql.run(
    'UPDATE page_revisions SET co_authors = ? WHERE page_id = ? AND revision = ? AND co_authors IS NULL',
    [JSON.stringify(coAuthors), pageId, revision],
  );
}

export function insertRevision(sql: Sql, revision: RevisionRecord): Promise<void> {
  return insertRows(sql, 'page_revisions', REVISION_COLUMNS, [revision]);
}
