import { insertRows, insertTuples } from '../../common/database/insert-rows';
import { encodeValue } from '../../common/database/column-defs';
import type { Sql } from '../../common/database/sql';
import { PAGE_COLUMNS, PageKey, PageRecord } from '../model/page-columns';
import type { PageSearchIndex } from './search/page-search-index';
import { countPage } from './tag-counts';

/**
 * Page writes: plain functions over `Sql`, always inside the caller's transaction (the
 * repository opens one when the use case did not), so the page row, its revision, the relation
 * tables and the search document move together.
 */

/** What the relation tables and the search index hold of a page. */
export interface PageRelations {
  title: string;
  content: string;
  slug: string;
  tags: string[];
  groupIds: string[];
  links: string[];
  mediaIds: string[];
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

export function insertPage(sql: Sql, page: PageRecord): Promise<void> {
  return insertRows(sql, 'pages', PAGE_COLUMNS, [page]);
}

/** `SET a = ?, b = ?` and its parameters for some page columns. */
function assignments(values: Partial<PageRecord>): { sql: string; params: unknown[] } {
  const keys = Object.keys(values) as PageKey[];
  return {
    sql: keys.map((key) => `${PAGE_COLUMNS[key].name} = ?`).join(', '),
    params: keys.map((key) => encodeValue(PAGE_COLUMNS[key], values[key])),
  };
}

/**
 * The conflict check: `UPDATE pages ... WHERE id = ? AND revision = ?` on a live page. Exactly
 * one of several writers based on the same revision changes the row; true when this one did.
 */
export async function updatePageIfAt(
  sql: Sql,
  pageId: string,
  baseRevision: number,
  values: Partial<PageRecord>,
): Promise<boolean> {
  const set = assignments(values);
  const { changes } = await sql.run(
    `UPDATE pages SET ${set.sql} WHERE id = ? AND revision = ? AND live_slug IS NOT NULL`,
    [...set.params, pageId, baseRevision],
  );
  return changes > 0;
}

/** Stores HTML rendered on a read, unless the page has moved on to another revision since. */
export async function storeHtml(
  sql: Sql,
  pageId: string,
  revision: number,
  html: string,
  siteVersion: number,
): Promise<void> {
  await sql.run('UPDATE pages SET html = ?, html_site_version = ? WHERE id = ? AND revision = ?', [
    html,
    siteVersion,
    pageId,
    revision,
  ]);
}

/**
 * Writes tags, groups, links and media references, and the search document. `before` holds
 * what the page had (only what changed is rewritten), null for a new page, or 'unknown'.
 */
export async function replaceRelations(
  sql: Sql,
  index: PageSearchIndex | undefined,
  pageId: string,
  next: PageRelations,
  before: PageRelations | null | 'unknown',
): Promise<void> {
  const known = before === 'unknown' ? null : before;
  const changed = (same: (b: PageRelations) => boolean) =>
    before === 'unknown' || (known !== null && !same(known));
  const fresh = before === null;
  const clear = (table: string, column: string) =>
    sql.run(`DELETE FROM ${table} WHERE ${column} = ?`, [pageId]);

  const tagsChanged = changed((b) => sameList(b.tags, next.tags));
  const groupsChanged = changed((b) => sameList(b.groupIds, next.groupIds));
  // The page's share of the tag counts leaves with its old tags and groups, and comes back.
  const recount = fresh || tagsChanged || groupsChanged;
  if (recount && !fresh) await countPage(sql, pageId, -1);
  if (fresh || tagsChanged) {
    if (tagsChanged) await clear('page_tags', 'page_id');
    await insertTuples(
      sql,
      'page_tags',
      ['page_id', 'tag'],
      next.tags.map((tag) => [pageId, tag]),
    );
  }
  if (fresh || groupsChanged) {
    if (groupsChanged) await clear('page_groups', 'page_id');
    await insertTuples(
      sql,
      'page_groups',
      ['page_id', 'group_id'],
      next.groupIds.map((id) => [pageId, id]),
    );
  }
  if (recount) await countPage(sql, pageId, 1);
  // Links resolve relative to the slug, so a move rewrites them as well.
  const sourceChanged = changed((b) => b.content === next.content && b.slug === next.slug);
  if (fresh || sourceChanged) {
    // Media references depend on the content only; most edits keep them as they were.
    const mediaChanged =
      sourceChanged && (known === null || !sameList(known.mediaIds, next.mediaIds));
    if (sourceChanged) await clear('page_links', 'source_page_id');
    if (mediaChanged) await clear('page_media_refs', 'page_id');
    await insertTuples(
      sql,
      'page_links',
      ['source_page_id', 'target_slug'],
      next.links.map((slug) => [pageId, slug]),
    );
    if (fresh || mediaChanged)
      await insertTuples(
        sql,
        'page_media_refs',
        ['page_id', 'media_id'],
        next.mediaIds.map((id) => [pageId, id]),
      );
  }
  if (fresh || tagsChanged || changed((b) => b.title === next.title && b.content === next.content))
    await index?.upsert(sql, { pageId, title: next.title, content: next.content, tags: next.tags });
}

/** Takes a live page at `revision` out of sight and frees its slug; false when it changed. */
export async function binPage(
  sql: Sql,
  pageId: string,
  revision: number,
  actorId: string,
  now: Date,
): Promise<boolean> {
  const { changes } = await sql.run(
    'UPDATE pages SET live_slug = NULL, binned_at = ?, binned_by = ? ' +
      'WHERE id = ? AND revision = ? AND live_slug IS NOT NULL',
    [now, actorId, pageId, revision],
  );
  return changes > 0;
}

/** Puts a binned page back under its slug; false when it is no longer in the bin. */
export async function unbinPage(sql: Sql, pageId: string, slug: string): Promise<boolean> {
  const { changes } = await sql.run(
    'UPDATE pages SET live_slug = ?, binned_at = NULL, binned_by = NULL WHERE id = ? AND live_slug IS NULL',
    [slug, pageId],
  );
  return changes > 0;
}

/** Deletes a binned page; its revisions, tags, groups, links and references go with it. */
export async function deleteBinnedPage(sql: Sql, pageId: string): Promise<void> {
  await sql.run('DELETE FROM pages WHERE id = ? AND live_slug IS NULL', [pageId]);
}
