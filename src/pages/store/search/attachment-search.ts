import { placeholders, Sql, SqlCondition } from '../../../common/database/sql';
import { SearchTerms, toBooleanMatch, toFts5Match } from '../../model/search/search-terms';
import { buildSnippet } from '../../model/search/search-text';
import type { SearchResultPage } from '../../model/page-shapes';
import { visibleSearchPages } from '../page-lists';
import { Viewer, visibleSql } from '../visibility-sql';
import { innodbMinTokenSize } from './mysql-page-search.index';
import { indexedColumns } from './page-search-index';

/**
 * The text of attached documents (PDF, DOCX, ODT, text, Markdown) in a full-text index of its
 * own: `attachment_search`, with the columns of `page_search` (the file name as the title), so
 * a query compiles as for pages; `attachment_texts` keeps, per attachment, where its
 * extraction stands. The media module extracts the text (off the event loop) and writes it
 * here through these functions (public-sql.ts); search asks `searchAttachments`. A hit is shown
 * with a page that uses the file, and only when the caller may see such a page.
 */

/** Where an attachment's text stands. */
export type AttachmentTextStatus = 'extracting' | 'indexed' | 'failed' | 'unsupported';

/** Matching attachments ranked per search, at most (their pages are looked up after). */
const RANKED_ATTACHMENTS = 200;
/** Above this many matching attachments, the newest matches are taken instead of bm25's best. */
const RANKED_MATCHES = 2_000;
/** Pages named per attachment hit (the first is the hit's `slug`). */
const PAGES_PER_HIT = 5;

export interface AttachmentHit {
  mediaId: string;
  filename: string;
  /** The visible live pages using it, by slug (at most PAGES_PER_HIT); the first is the hit's. */
  pages: SearchResultPage[];
  snippet: string;
}

/** SQL fragments for the media module's own statements. */
export const attachmentTextSql = {
  /** "The media row in `mediaIdColumn` has no extraction state yet." */
  missing: (mediaIdColumn: string): string =>
    `NOT EXISTS (SELECT 1 FROM attachment_texts atx WHERE atx.media_id = ${mediaIdColumn})`,
  /** "Its extraction was claimed before `?` and never finished" (a process that died). */
  stale: (mediaIdColumn: string): string =>
    `EXISTS (SELECT 1 FROM attachment_texts atx WHERE atx.media_id = ${mediaIdColumn} ` +
    "AND atx.status = 'extracting' AND atx.updated_at < ?)",
};

/**
 * Takes an attachment's extraction (one instance of several gets it): true when this caller
 * now holds it. A claim older than `staleBefore` (its process died) may be taken again.
 */
export async function claimAttachmentText(
  sql: Sql,
  mediaId: string,
  now: Date,
  staleBefore: Date,
): Promise<boolean> {
  const inserted = await sql.run(
    `${sql.dialect.insertIgnore} INTO attachment_texts (media_id, status, chars, updated_at) ` +
      "VALUES (?, 'extracting', 0, ?)",
    [mediaId, now],
  );
  if (inserted.changes > 0) return true;
  const retaken = await sql.run(
    'UPDATE attachment_texts SET updated_at = ? ' +
      "WHERE media_id = ? AND status = 'extracting' AND updated_at < ?",
    [now, mediaId, staleBefore],
  );
  return retaken.changes > 0;
}

/** Records an attachment whose text could not be had (and why), or that has none to have. */
export async function markAttachmentText(
  sql: Sql,
  mediaId: string,
  status: Exclude<AttachmentTextStatus, 'indexed'>,
  detail: string | null,
  now: Date,
): Promise<void> {
  await sql.run(
    'UPDATE attachment_texts SET status = ?, detail = ?, chars = 0, updated_at = ? WHERE media_id = ?',
    [status, detail?.slice(0, 255) ?? null, now, mediaId],
  );
}

/** Indexes an attachment's extracted text (replacing what was indexed for it before). */
export async function writeAttachmentText(
  sql: Sql,
  document: { mediaId: string; filename: string; text: string },
  now: Date,
): Promise<void> {
  const indexed = {
    pageId: document.mediaId,
    title: document.filename,
    content: document.text,
    tags: [],
  };
  const detail = null;
  if (sql.dialect.name === 'mysql') {
    const values = indexedColumns(indexed, await innodbMinTokenSize(sql));
    await sql.run(
      `INSERT INTO attachment_search (media_id, title, body, tags, title_grams, body_grams)
       VALUES (?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE title = VALUES(title), body = VALUES(body), tags = VALUES(tags),
         title_grams = VALUES(title_grams), body_grams = VALUES(body_grams)`,
      [document.mediaId, ...values],
    );
    await sql.run(
      "UPDATE attachment_texts SET status = 'indexed', detail = ?, chars = ?, updated_at = ? WHERE media_id = ?",
      [detail, document.text.length, now, document.mediaId],
    );
    return;
  }
  await sql.run(
    'DELETE FROM attachment_search WHERE rowid = ' +
      '(SELECT fts_rowid FROM attachment_texts WHERE media_id = ? AND fts_rowid IS NOT NULL)',
    [document.mediaId],
  );
  const last = await sql.all<{ rowid: number }>(
    'SELECT rowid FROM attachment_search ORDER BY rowid DESC LIMIT 1',
  );
  const rowid = (last[0]?.rowid ?? 0) + 1;
  await sql.run(
    'INSERT INTO attachment_search (rowid, media_id, title, body, tags, title_grams, body_grams) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?)',
    [rowid, document.mediaId, ...indexedColumns(indexed, 0)],
  );
  await sql.run(
    "UPDATE attachment_texts SET status = 'indexed', detail = ?, chars = ?, fts_rowid = ?, " +
      'updated_at = ? WHERE media_id = ?',
    [detail, document.text.length, rowid, now, document.mediaId],
  );
}

/**
 * Removes index rows whose attachment is gone (a deleted media row takes its attachment_texts
 * row with it; the index row is never joined after that): `limit` at most, the count removed.
 */
export async function sweepAttachmentTexts(sql: Sql, limit: number): Promise<number> {
  if (sql.dialect.name === 'mysql') {
    const { changes } = await sql.run(
      'DELETE FROM attachment_search WHERE NOT EXISTS ' +
        '(SELECT 1 FROM attachment_texts t WHERE t.media_id = attachment_search.media_id) LIMIT ?',
      [limit],
    );
    return changes;
  }
  const rows = await sql.all<{ rowid: number }>(
    'SELECT a.rowid AS rowid FROM attachment_search a WHERE NOT EXISTS ' +
      '(SELECT 1 FROM attachment_texts t WHERE t.fts_rowid = a.rowid) LIMIT ?',
    [limit],
  );
  for (const { rowid } of rows)
    await sql.run('DELETE FROM attachment_search WHERE rowid = ?', [rowid]);
  return rows.length;
}

/**
 * Attachments whose text matches `terms`, best first, each with the live pages using it that
 * `viewer` may see and that meet `filter` (a condition over pages aliased `p`); attachments
 * without such a page are left out. At most `limit`.
 */
export async function searchAttachments(
  sql: Sql,
  terms: SearchTerms,
  viewer: Viewer,
  filter: SqlCondition,
  limit: number,
): Promise<AttachmentHit[]> {
  const ranked =
    sql.dialect.name === 'mysql' ? await rankedMysql(sql, terms) : await rankedSqlite(sql, terms);
  if (ranked.length === 0 || limit <= 0) return [];
  const visible = visibleSql(viewer, 'p');
  const refs = await sql.all<{ media_id: string; page_id: string }>(
    'SELECT r.media_id, r.page_id FROM page_media_refs r JOIN pages p ON p.id = r.page_id ' +
      `WHERE r.media_id IN (${placeholders(ranked.length)}) AND p.live_slug IS NOT NULL ` +
      `AND (${visible.sql}) AND (${filter.sql}) ORDER BY p.live_slug`,
    [...ranked.map((r) => r.mediaId), ...visible.params, ...filter.params],
  );
  const pagesOf = new Map<string, string[]>();
  for (const ref of refs) {
    const list = pagesOf.get(ref.media_id) ?? [];
    if (list.length < PAGES_PER_HIT) list.push(ref.page_id);
    pagesOf.set(ref.media_id, list);
  }
  const chosen = ranked.filter((r) => pagesOf.has(r.mediaId)).slice(0, limit);
  if (chosen.length === 0) return [];
  const pageIds = [...new Set(chosen.flatMap((r) => pagesOf.get(r.mediaId)!))];
  const pages = new Map(
    (await visibleSearchPages(sql, pageIds, viewer)).map((page) => [page.id, page]),
  );
  const bodies = await attachmentBodies(
    sql,
    chosen.map((r) => r.mediaId),
  );
  return chosen.map((r) => ({
    mediaId: r.mediaId,
    filename: r.filename,
    pages: pagesOf
      .get(r.mediaId)!
      .map((id) => pages.get(id))
      .filter((p): p is SearchResultPage => p !== undefined)
      .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)),
    snippet: buildSnippet(bodies.get(r.mediaId) ?? '', terms.words, terms.prefixLast),
  }));
}

interface RankedAttachment {
  mediaId: string;
  filename: string;
}

/** bm25 column weights as for pages: media_id (unindexed), title, body, tags, grams. */
const BM25 = 'bm25(attachment_search, 0.0, 10.0, 1.0, 4.0, 10.0, 1.0)';

async function rankedSqlite(sql: Sql, terms: SearchTerms): Promise<RankedAttachment[]> {
  const match = toFts5Match(terms);
  if (match === null) return [];
  const beyond = await sql.all(
    'SELECT rowid FROM attachment_search WHERE attachment_search MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?',
    [match, RANKED_MATCHES],
  );
  const order = beyond.length > 0 ? 'a.rowid DESC' : `${BM25}, a.rowid DESC`;
  const rows = await sql.all<{ media_id: string; title: string }>(
    'SELECT t.media_id, a.title FROM attachment_search a ' +
      "JOIN attachment_texts t ON t.fts_rowid = a.rowid AND t.status = 'indexed' " +
      `WHERE attachment_search MATCH ? ORDER BY ${order} LIMIT ?`,
    [match, RANKED_ATTACHMENTS],
  );
  return rows.map((r) => ({ mediaId: r.media_id, filename: r.title }));
}

const MYSQL_ALL = 'MATCH (a.title, a.body, a.tags, a.title_grams, a.body_grams)';
const MYSQL_TITLE = 'MATCH (a.title, a.title_grams)';

async function rankedMysql(sql: Sql, terms: SearchTerms): Promise<RankedAttachment[]> {
  const minTokenSize = await innodbMinTokenSize(sql);
  const required = toBooleanMatch(terms, minTokenSize);
  if (required === null) return [];
  const any = toBooleanMatch(terms, minTokenSize, 'any');
  const rows = await sql.all<{ media_id: string; title: string }>(
    `SELECT a.media_id, a.title,
            ${MYSQL_TITLE} AGAINST (? IN BOOLEAN MODE) * 10 + ${MYSQL_ALL} AGAINST (? IN BOOLEAN MODE) AS score
     FROM attachment_search a JOIN attachment_texts t ON t.media_id = a.media_id AND t.status = 'indexed'
     WHERE ${MYSQL_ALL} AGAINST (? IN BOOLEAN MODE)
     ORDER BY score DESC, a.media_id LIMIT ?`,
    [any, required, required, RANKED_ATTACHMENTS],
  );
  return rows.map((r) => ({ mediaId: r.media_id, filename: r.title }));
}

async function attachmentBodies(sql: Sql, mediaIds: string[]): Promise<Map<string, string>> {
  const rows =
    sql.dialect.name === 'mysql'
      ? await sql.all<{ media_id: string; body: string }>(
          `SELECT media_id, body FROM attachment_search WHERE media_id IN (${placeholders(mediaIds.length)})`,
          mediaIds,
        )
      : await sql.all<{ media_id: string; body: string }>(
          'SELECT t.media_id, a.body FROM attachment_texts t JOIN attachment_search a ON a.rowid = t.fts_rowid ' +
            `WHERE t.media_id IN (${placeholders(mediaIds.length)})`,
          mediaIds,
        );
  return new Map(rows.map((r) => [r.media_id, r.body]));
}
