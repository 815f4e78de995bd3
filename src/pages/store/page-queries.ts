import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { cursorString } from '../../common/http/pagination';
import { BadRequestProblem } from '../../common/problems/problem';
import { PageEntity } from '../entities/page.entity';

/** A page with the usernames its response shows. */
export interface PageRow {
  page: PageEntity;
  ownerName: string | null;
  updatedByName: string | null;
  binnedByName?: string | null;
  /** Current version of the site-wide variables, read in the same query (single-page reads). */
  siteVersion?: number;
}

/** Columns a list item needs (never content or HTML). */
export const SUMMARY_COLUMNS = [
  'p.id',
  'p.slug',
  'p.liveSlug',
  'p.title',
  'p.icon',
  'p.language',
  'p.tags',
  'p.groupNames',
  'p.lifecycle',
  'p.ownerId',
  'p.verified',
  'p.revision',
  'p.createdAt',
  'p.updatedAt',
  'p.updatedBy',
  'p.binnedAt',
  'p.binnedBy',
];

/** Pages aliased `p` with owner and last editor usernames. */
export function selectPages(
  manager: EntityManager,
  columns?: string[],
): SelectQueryBuilder<PageEntity> {
  const query = manager.createQueryBuilder(PageEntity, 'p');
  if (columns) query.select(columns);
  return query
    .leftJoin('users', 'ou', 'ou.id = p.owner_id')
    .addSelect('ou.username', 'owner_username')
    .leftJoin('users', 'ub', 'ub.id = p.updated_by')
    .addSelect('ub.username', 'updated_by_username');
}

export async function fetchPageRows(query: SelectQueryBuilder<PageEntity>): Promise<PageRow[]> {
  const { entities, raw } = await query.getRawAndEntities<Record<string, unknown>>();
  const byId = new Map<string, Record<string, unknown>>();
  for (const row of raw) byId.set(String(row.p_id), row);
  return entities.map((page) => {
    const row = byId.get(page.id) ?? {};
    return {
      page,
      ownerName: (row.owner_username as string | null) ?? null,
      updatedByName: (row.updated_by_username as string | null) ?? null,
      binnedByName: (row.binned_by_username as string | null | undefined) ?? null,
    };
  });
}

/**
 * The hot read path (a page by slug or id) in plain SQL: one round trip for the page, its
 * owner's and last editor's usernames and the site-variables version, without the query
 * builder's per-request cost. Identifiers need no quoting on SQLite or MySQL.
 */
const USER_JOINS =
  'LEFT JOIN users ou ON ou.id = p.owner_id LEFT JOIN users ub ON ub.id = p.updated_by';
const PAGE_ROW_SQL =
  'SELECT p.*, ou.username AS owner_username, ub.username AS updated_by_username, ' +
  '(SELECT sv.version FROM site_variable_state sv WHERE sv.id = 1) AS site_version ' +
  `FROM pages p ${USER_JOINS} WHERE `;
/** List items never carry content or HTML. */
const SUMMARY_ROW_SQL =
  'SELECT p.id, p.slug, p.live_slug, p.title, p.icon, p.language, p.tags, p.group_names, p.lifecycle, ' +
  'p.owner_id, p.verified, p.revision, p.created_at, p.updated_at, p.updated_by, ' +
  `ou.username AS owner_username, ub.username AS updated_by_username FROM pages p ${USER_JOINS} WHERE `;

/** SQLite keeps TypeORM datetimes as UTC text `YYYY-MM-DD HH:MM:SS.SSS`; MySQL answers Dates. */
function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  return new Date(String(value).replace(' ', 'T') + 'Z');
}

function toJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

function hydrate(row: Record<string, unknown>): PageRow {
  const page = Object.assign(new PageEntity(), {
    id: row.id as string,
    slug: row.slug as string,
    liveSlug: (row.live_slug as string | null) ?? null,
    title: row.title as string,
    content: (row.content as string | undefined) ?? '',
    html: (row.html as string | null | undefined) ?? null,
    htmlSiteVersion: Number(row.html_site_version ?? 0),
    icon: (row.icon as string | null) ?? null,
    language: (row.language as string | null) ?? null,
    tags: toJson<string[]>(row.tags),
    groupNames: toJson<string[]>(row.group_names),
    lifecycle: row.lifecycle as PageEntity['lifecycle'],
    ownerId: (row.owner_id as string | null) ?? null,
    reviewIntervalDays:
      row.review_interval_days === null || row.review_interval_days === undefined
        ? null
        : Number(row.review_interval_days),
    nextReviewAt: toDate(row.next_review_at),
    deprecatedTarget: (row.deprecated_target as string | null) ?? null,
    properties: toJson<PageEntity['properties']>(row.properties ?? '{}'),
    variables: toJson<Record<string, string>>(row.variables ?? '{}'),
    verified: Boolean(Number(row.verified)),
    revision: Number(row.revision),
    createdAt: toDate(row.created_at)!,
    createdBy: (row.created_by as string | null) ?? null,
    updatedAt: toDate(row.updated_at)!,
    updatedBy: (row.updated_by as string | null) ?? null,
    binnedAt: toDate(row.binned_at),
    binnedBy: (row.binned_by as string | null) ?? null,
  });
  return {
    page,
    ownerName: (row.owner_username as string | null) ?? null,
    updatedByName: (row.updated_by_username as string | null) ?? null,
    siteVersion:
      row.site_version === null || row.site_version === undefined ? 0 : Number(row.site_version),
  };
}

interface SqliteStatement {
  all(...params: unknown[]): Record<string, unknown>[];
}

/** Prepared statements of the hot reads, per better-sqlite3 connection and SQL text. */
const prepared = new WeakMap<object, Map<string, SqliteStatement>>();

/**
 * A read on the hot path (page by slug or id, backlinks). On SQLite it runs as a prepared
 * statement straight on the one better-sqlite3 connection, without the query runner's per-call
 * work (logger, broadcaster, result objects); a lone SELECT never waits for the write lock
 * (common/database/sqlite-serial.ts), so this behaves as `dataSource.query` does. MySQL: as is.
 */
export async function hotRead<T = Record<string, unknown>>(
  dataSource: DataSource,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  if (dataSource.options.type !== 'better-sqlite3') return dataSource.query(sql, params);
  const db = (dataSource.driver as unknown as { databaseConnection: object | undefined })
    .databaseConnection;
  if (!db) return dataSource.query(sql, params);
  let cache = prepared.get(db);
  if (!cache) prepared.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) {
    statement = (db as { prepare(sql: string): SqliteStatement }).prepare(sql);
    cache.set(sql, statement);
  }
  return statement.all(...params) as T[];
}

export async function findLivePageRow(
  dataSource: DataSource,
  slug: string,
): Promise<PageRow | null> {
  const rows = await hotRead(dataSource, PAGE_ROW_SQL + 'p.live_slug = ?', [slug]);
  return rows.length ? hydrate(rows[0]) : null;
}

/** A live page by slug inside a transaction (plain SQL: imports look up every document). */
export async function findLivePage(
  manager: EntityManager,
  slug: string,
): Promise<PageEntity | null> {
  const rows: Record<string, unknown>[] = await manager.query(
    'SELECT * FROM pages WHERE live_slug = ?',
    [slug],
  );
  return rows.length ? hydrate(rows[0]).page : null;
}

export async function findPageRowById(dataSource: DataSource, id: string): Promise<PageRow | null> {
  const rows = await hotRead(dataSource, PAGE_ROW_SQL + 'p.id = ?', [id]);
  return rows.length ? hydrate(rows[0]) : null;
}

/** A Date as a query parameter: MySQL takes Dates, SQLite compares TypeORM's UTC text form. */
export function dateParameter(dataSource: DataSource, date: Date): Date | string {
  if (dataSource.options.type === 'mysql') return date;
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/**
 * One page of list items (plain SQL: `GET /api/pages` is hot). `where` holds conditions with
 * `?` placeholders over pages aliased `p`; ordered by last update, newest first.
 */
export async function listSummaryRows(
  dataSource: DataSource,
  where: { sql: string; params: unknown[] }[],
  limit: number,
): Promise<PageRow[]> {
  const sql = where.map((w) => `(${w.sql})`).join(' AND ');
  const rows: Record<string, unknown>[] = await dataSource.query(
    `${SUMMARY_ROW_SQL}${sql} ORDER BY p.updated_at DESC, p.id DESC LIMIT ${Number(limit)}`,
    where.flatMap((w) => w.params),
  );
  return rows.map(hydrate);
}

/** A date member of a decoded cursor, or 400 `invalid_cursor`. */
export function cursorDate(cursor: Record<string, unknown>, key: string): Date {
  const date = new Date(cursorString(cursor, key));
  if (Number.isNaN(date.getTime()))
    throw new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
  return date;
}
