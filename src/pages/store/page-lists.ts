import { userSql } from '../../auth/public-sql';
import { rowDecoder } from '../../common/database/column-defs';
import { allOf, placeholders, readQuery, Sql, SqlCondition } from '../../common/database/sql';
import {
  ARCHIVE_KEYS,
  PAGE_COLUMNS,
  pageColumns,
  PageArchiveRecord,
  PageSummary,
} from '../model/page-columns';
import type { ReviewDuePage, SearchResultPage } from '../model/page-shapes';
import { PageRow, summaryRowSql, toSummaryRow } from './page-rows';
import { visibleTagCounts } from './tag-counts';
import { Viewer, visibleSql } from './visibility-sql';

const decodeTags = rowDecoder(PAGE_COLUMNS, ['tags']);
const decodeReviewDue = rowDecoder(PAGE_COLUMNS, [
  'id',
  'slug',
  'title',
  'ownerId',
  'nextReviewAt',
]);
const decodeArchive = rowDecoder(PAGE_COLUMNS, ARCHIVE_KEYS);
const decodeSearchPage = rowDecoder(PAGE_COLUMNS, ['id', 'slug', 'title', 'tags', 'updatedAt']);

/**
 * Reads over many rows (lists, tags, graph, archive batches, review dates, media references):
 * ReadQueries, so `Database.read` may run them on a worker's connection instead of the main
 * thread. Arguments and results are plain data (structured-cloneable).
 */

/** Visible live pages, most recently updated first; `after` continues behind a list item. */
export const listRecent = readQuery(
  'pages.listRecent',
  async (
    sql,
    viewer: Viewer,
    filter: { tag?: string; after?: { updatedAt: Date; id: string } },
    limit: number,
  ): Promise<PageRow<PageSummary>[]> => {
    const where: SqlCondition[] = [visibleSql(viewer, 'p')];
    if (filter.tag !== undefined)
      where.push({
        sql: 'EXISTS (SELECT 1 FROM page_tags ft WHERE ft.page_id = p.id AND ft.tag = ?)',
        params: [filter.tag],
      });
    if (filter.after) {
      const { updatedAt, id } = filter.after;
      where.push({
        sql: 'p.updated_at < ? OR (p.updated_at = ? AND p.id < ?)',
        params: [updatedAt, updatedAt, id],
      });
    }
    const condition = allOf(where);
    const rows = await sql.all(
      `${summaryRowSql()}${condition.sql} ORDER BY p.updated_at DESC, p.id DESC LIMIT ${Number(limit)}`,
      condition.params,
    );
    return rows.map(toSummaryRow);
  },
  { lagTolerant: true },
);

/** Binned pages, most recently binned first, with who binned them. */
export const listBin = readQuery(
  'pages.listBin',
  async (
    sql,
    after: { binnedAt: Date; id: string } | undefined,
    limit: number,
  ): Promise<PageRow<PageSummary>[]> => {
    const condition = after
      ? 'p.live_slug IS NULL AND (p.binned_at < ? OR (p.binned_at = ? AND p.id < ?))'
      : 'p.live_slug IS NULL';
    const rows = await sql.all(
      summaryRowSql(`, ${userSql.username('p.binned_by')} AS binned_by_username`) +
        `${condition} ORDER BY p.binned_at DESC, p.id DESC LIMIT ${Number(limit)}`,
      after ? [after.binnedAt, after.binnedAt, after.id] : [],
    );
    return rows.map(toSummaryRow);
  },
);

/** Tags with the number of visible pages carrying each, by name; `after` continues. */
export const listTags = readQuery(
  'pages.listTags',
  (sql, viewer: Viewer, after: string | undefined, limit: number) =>
    visibleTagCounts(sql, viewer, after, limit),
  { lagTolerant: true },
);

/** Visible pages as nodes (by slug); links between two visible live pages as edges. */
/** The link edges with those through redirects added once each, by source then target. */
function withRedirected(
  links: { source: string; target: string }[],
  redirected: { source: string; target: string }[],
): { source: string; target: string }[] {
  if (redirected.length === 0) return links;
  const seen = new Set(links.map((e) => `${e.source}\n${e.target}`));
  const all = [...links];
  for (const e of redirected) {
    const key = `${e.source}\n${e.target}`;
    if (!seen.has(key)) {
      seen.add(key);
      all.push(e);
    }
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return all.sort((a, b) => byText(a.source, b.source) || byText(a.target, b.target));
}

export const graph = readQuery(
  'pages.graph',
  async (
    sql,
    viewer: Viewer,
  ): Promise<{
    nodes: { slug: string; title: string; tags: string[] }[];
    edges: { from: string; to: string }[];
  }> => {
    const nodes = visibleSql(viewer, 'p');
    const source = visibleSql(viewer, 's');
    const target = visibleSql(viewer, 'd');
    const [pages, links, redirected] = await Promise.all([
      sql.all<{ slug: string; title: string; tags: string }>(
        `SELECT p.slug AS slug, p.title AS title, p.tags AS tags FROM pages p WHERE ${nodes.sql} ORDER BY p.slug ASC`,
        nodes.params,
      ),
      sql.all<{ source: string; target: string }>(
        'SELECT s.live_slug AS source, d.live_slug AS target FROM page_links l ' +
          'INNER JOIN pages s ON s.id = l.source_page_id INNER JOIN pages d ON d.live_slug = l.target_slug ' +
          `WHERE s.id <> d.id AND (${source.sql}) AND (${target.sql}) ORDER BY s.live_slug ASC, d.live_slug ASC`,
        [...source.params, ...target.params],
      ),
      // Links to an old slug of a moved page lead to the page (its redirect).
      sql.all<{ source: string; target: string }>(
        'SELECT s.live_slug AS source, d.live_slug AS target FROM page_links l ' +
          'INNER JOIN page_redirects r ON r.from_slug = l.target_slug ' +
          'INNER JOIN pages s ON s.id = l.source_page_id INNER JOIN pages d ON d.id = r.page_id ' +
          `WHERE s.id <> d.id AND (${source.sql}) AND (${target.sql})`,
        [...source.params, ...target.params],
      ),
    ]);
    return {
      nodes: pages.map((p) => ({
        slug: p.slug,
        title: p.title,
        tags: decodeTags(p).tags,
      })),
      edges: withRedirected(links, redirected).map((e) => ({ from: e.source, to: e.target })),
    };
  },
  { lagTolerant: true },
);

/** Live pages whose review date is at or before `now`, oldest first; `after` continues. */
export const listReviewDue = readQuery(
  'pages.listReviewDue',
  async (
    sql,
    now: Date,
    limit: number,
    after?: Pick<ReviewDuePage, 'id' | 'nextReviewAt'>,
  ): Promise<ReviewDuePage[]> => {
    const due = after
      ? {
          sql: '(p.next_review_at > ? AND p.next_review_at <= ?) OR (p.next_review_at = ? AND p.id > ?)',
          params: [after.nextReviewAt, now, after.nextReviewAt, after.id],
        }
      : { sql: 'p.next_review_at <= ?', params: [now] };
    const rows = await sql.all(
      `SELECT p.id, p.slug, p.title, p.owner_id, p.next_review_at, ${userSql.username('p.owner_id')} AS owner_username FROM pages p ` +
        `WHERE p.live_slug IS NOT NULL AND (${due.sql}) ORDER BY p.next_review_at ASC, p.id ASC LIMIT ${Number(limit)}`,
      due.params,
    );
    return rows.map((row) => {
      const page = decodeReviewDue(row);
      const ownerName = (row.owner_username as string | null) ?? null;
      return { ...page, ownerName, nextReviewAt: page.nextReviewAt! };
    });
  },
  { lagTolerant: true },
);

/**
 * Pages (live or binned) referencing a media item, with whether `viewer` may name each (live
 * and visible; admins also the bin). `viewer` undefined: every page, all listed.
 */
export const mediaReferences = readQuery(
  'pages.mediaReferences',
  async (
    sql,
    mediaId: string,
    viewer: Viewer | undefined,
  ): Promise<{ slug: string; listed: boolean }[]> => {
    const listed =
      viewer === undefined || viewer.role === 'admin'
        ? { sql: '1 = 1', params: [] }
        : visibleSql(viewer, 'p');
    const rows = await sql.all<{ slug: string; listed: number | string }>(
      `SELECT p.slug AS slug, CASE WHEN (${listed.sql}) THEN 1 ELSE 0 END AS listed
         FROM page_media_refs r JOIN pages p ON p.id = r.page_id
        WHERE r.media_id = ?`,
      [...listed.params, mediaId.toLowerCase()],
    );
    return rows.map((r) => ({ slug: r.slug, listed: Number(r.listed) === 1 }));
  },
);

/** The slugs among `slugs` that are live pages `viewer` may see. */
export const visibleLiveSlugs = readQuery(
  'pages.visibleLiveSlugs',
  async (sql, viewer: Viewer, slugs: string[]): Promise<string[]> => {
    if (slugs.length === 0) return [];
    const visible = visibleSql(viewer, 'p');
    const rows = await sql.all<{ slug: string }>(
      `SELECT p.slug AS slug FROM pages p WHERE (${visible.sql}) AND p.live_slug IN (${placeholders(slugs.length)})`,
      [...visible.params, ...slugs],
    );
    return rows.map((r) => r.slug);
  },
);

/** One batch of an archive: visible live pages by slug after `afterSlug`, with owner names. */
export const archiveBatch = readQuery(
  'pages.archiveBatch',
  async (
    sql,
    viewer: Viewer,
    slugs: string[] | undefined,
    afterSlug: string | null,
    limit: number,
  ): Promise<{ page: PageArchiveRecord; owner: string | null; summary: string | null }[]> => {
    const where: SqlCondition[] = [visibleSql(viewer, 'p')];
    if (afterSlug !== null) where.push({ sql: 'p.live_slug > ?', params: [afterSlug] });
    if (slugs) where.push({ sql: `p.live_slug IN (${placeholders(slugs.length)})`, params: slugs });
    const condition = allOf(where);
    const rows = await sql.all(
      `SELECT ${pageColumns.archive('p')}, ${userSql.username('p.owner_id')} AS owner_username, ` +
        // The current revision's change summary (one row on the unique (page_id, revision)).
        '(SELECT r.summary FROM page_revisions r WHERE r.page_id = p.id AND r.revision = p.revision) ' +
        `AS revision_summary FROM pages p WHERE ${condition.sql} ` +
        `ORDER BY p.live_slug ASC LIMIT ${Number(limit)}`,
      condition.params,
    );
    return rows.map((row) => ({
      page: decodeArchive(row),
      owner: (row.owner_username as string | null) ?? null,
      summary: (row.revision_summary as string | null) ?? null,
    }));
  },
);

/** The pages among `ids` that `viewer` may see (search hits), in no particular order. */
export async function visibleSearchPages(
  sql: Sql,
  ids: string[],
  viewer: Viewer,
): Promise<SearchResultPage[]> {
  if (ids.length === 0) return [];
  const visible = visibleSql(viewer, 'p');
  const rows = await sql.all(
    'SELECT p.id, p.slug, p.title, p.tags, p.updated_at FROM pages p ' +
      `WHERE p.id IN (${placeholders(ids.length)}) AND (${visible.sql})`,
    [...ids, ...visible.params],
  );
  return rows.map((row) => decodeSearchPage(row));
}
