import { userSql } from '../../auth/public-sql';
import { column, RowOf, toDate } from '../../common/database/column-defs';
import { insertTuples } from '../../common/database/insert-rows';
import { placeholders, readQuery, Sql } from '../../common/database/sql';
import { decodePageHead, pageColumns, PageHead } from '../model/page-columns';

/**
 * `page_redirects` (migration PageRedirects): an old slug of a moved page and the page it names.
 * The redirect follows the page, not a slug: a chain collapses by itself and a purge takes its
 * redirects along (foreign key). Plain functions over `Sql`, like the other page stores.
 */
export const REDIRECT_COLUMNS = {
  fromSlug: column.varchar('from_slug', 255, { primary: true }),
  pageId: column.uuid('page_id'),
  createdAt: column.datetime('created_at'),
  createdBy: column.uuid('created_by', { nullable: true }),
};
export type RedirectRecord = RowOf<typeof REDIRECT_COLUMNS>;

/** A redirect as listed: where it points now (`to`, the page's slug) and whether it is live. */
export interface RedirectItem {
  from: string;
  to: string;
  pageId: string;
  /** The page is in the bin: the redirect answers 404 until it is restored. */
  binned: boolean;
  createdAt: Date;
  createdBy: string | null;
}

const IN_CHUNK = 500;

async function inChunks(
  values: readonly string[],
  each: (chunk: string[]) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < values.length; i += IN_CHUNK) await each(values.slice(i, i + IN_CHUNK));
}

/** The live page an old slug redirects to (without its text), or null. */
export async function findRedirectTarget(sql: Sql, fromSlug: string): Promise<PageHead | null> {
  const [row] = await sql.all(
    `SELECT ${pageColumns.head('p')} FROM page_redirects r JOIN pages p ON p.id = r.page_id ` +
      'WHERE r.from_slug = ? AND p.live_slug IS NOT NULL',
    [fromSlug],
  );
  return row ? decodePageHead(row) : null;
}

/** Removes the redirects from these slugs (a page now lives there, or a move takes them). */
export async function deleteRedirectsFrom(sql: Sql, slugs: readonly string[]): Promise<number> {
  let deleted = 0;
  await inChunks(slugs, async (chunk) => {
    deleted += (
      await sql.run(
        `DELETE FROM page_redirects WHERE from_slug IN (${placeholders(chunk.length)})`,
        chunk,
      )
    ).changes;
  });
  return deleted;
}

/** Writes new redirects (their slugs are free: callers delete older ones from them first). */
export function insertRedirects(sql: Sql, rows: readonly RedirectRecord[]): Promise<void> {
  return insertTuples(
    sql,
    'page_redirects',
    ['from_slug', 'page_id', 'created_at', 'created_by'],
    rows.map((r) => [r.fromSlug, r.pageId, r.createdAt, r.createdBy]),
  );
}

/** The slugs among `slugs` that are the old slug of some page. */
export async function redirectedSlugs(sql: Sql, slugs: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  await inChunks(slugs, async (chunk) => {
    const rows = await sql.all<{ slug: string }>(
      `SELECT from_slug AS slug FROM page_redirects WHERE from_slug IN (${placeholders(chunk.length)})`,
      chunk,
    );
    for (const row of rows) found.add(row.slug);
  });
  return found;
}

/** The redirects to these pages: `{from, pageId}` (a move carries them to the new slugs). */
export async function redirectsOfPages(
  sql: Sql,
  pageIds: readonly string[],
): Promise<{ from: string; pageId: string }[]> {
  const found: { from: string; pageId: string }[] = [];
  await inChunks(pageIds, async (chunk) => {
    found.push(
      ...(await sql.all<{ from: string; pageId: string }>(
        `SELECT from_slug AS ${sql.dialect.quote('from')}, page_id AS ${sql.dialect.quote('pageId')} ` +
          `FROM page_redirects WHERE page_id IN (${placeholders(chunk.length)})`,
        chunk,
      )),
    );
  });
  return found;
}

/** Old slugs of a page (backlinks through redirects), by slug. */
export async function redirectsOf(sql: Sql, pageId: string): Promise<string[]> {
  const rows = await sql.all<{ slug: string }>(
    'SELECT from_slug AS slug FROM page_redirects WHERE page_id = ? ORDER BY from_slug',
    [pageId],
  );
  return rows.map((r) => r.slug);
}

function toItem(row: Record<string, unknown>): RedirectItem {
  return {
    from: row.from_slug as string,
    to: row.slug as string,
    pageId: row.page_id as string,
    binned: row.live_slug === null,
    createdAt: toDate(row.created_at)!,
    createdBy: (row.created_by_username as string | null) ?? null,
  };
}

/** Every redirect by old slug after `after`, with its page's slug now (administrators). */
export const listRedirects = readQuery(
  'pages.listRedirects',
  async (sql, after: string | undefined, limit: number): Promise<RedirectItem[]> => {
    const rows = await sql.all(
      'SELECT r.from_slug, r.page_id, r.created_at, p.slug, p.live_slug, ' +
        `${userSql.username('r.created_by')} AS created_by_username ` +
        'FROM page_redirects r JOIN pages p ON p.id = r.page_id' +
        (after === undefined ? '' : ' WHERE r.from_slug > ?') +
        ` ORDER BY r.from_slug LIMIT ${Number(limit)}`,
      after === undefined ? [] : [after],
    );
    return rows.map(toItem);
  },
);

/** One redirect by its old slug, as listed; null when there is none. */
export async function findRedirect(sql: Sql, fromSlug: string): Promise<RedirectItem | null> {
  const [row] = await sql.all(
    'SELECT r.from_slug, r.page_id, r.created_at, p.slug, p.live_slug, NULL AS created_by_username ' +
      'FROM page_redirects r JOIN pages p ON p.id = r.page_id WHERE r.from_slug = ?',
    [fromSlug],
  );
  return row ? toItem(row) : null;
}

/** Redirects to live pages among `slugs` (an archive's pages), `{from, to}` by old slug. */
export const redirectsToSlugs = readQuery(
  'pages.redirectsToSlugs',
  async (sql, slugs: string[]): Promise<{ from: string; to: string }[]> => {
    const found: { from: string; to: string }[] = [];
    await inChunks(slugs, async (chunk) => {
      const rows = await sql.all<{ from: string; to: string }>(
        'SELECT r.from_slug AS ' +
          sql.dialect.quote('from') +
          ', p.live_slug AS ' +
          sql.dialect.quote('to') +
          ' FROM page_redirects r JOIN pages p ON p.id = r.page_id ' +
          `WHERE p.live_slug IN (${placeholders(chunk.length)})`,
        chunk,
      );
      found.push(...rows);
    });
    return found.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  },
);
