import { userSql } from '../../auth/public-sql';
import type { Row, Sql } from '../../common/database/sql';
import { rowDecoder } from '../../common/database/column-defs';
import {
  decodePage,
  decodePageHead,
  PAGE_COLUMNS,
  PageHead,
  pageColumns,
  PageRecord,
  PageSummary,
  SUMMARY_KEYS,
} from '../model/page-columns';

/** A page (or the summary of one) with the usernames its response shows. */
export interface PageRow<P = PageRecord> {
  page: P;
  ownerName: string | null;
  updatedByName: string | null;
  binnedByName?: string | null;
  /** Current version of the site-wide variables, read in the same statement (single reads). */
  siteVersion?: number;
}

const NAMES =
  `${userSql.username('p.owner_id')} AS owner_username, ` +
  `${userSql.username('p.updated_by')} AS updated_by_username`;

/**
 * A whole page with the owner's and last editor's usernames and the site-variables version:
 * one statement for a page read. Completed by a condition on pages aliased `p`.
 */
const SITE_VERSION =
  '(SELECT sv.version FROM site_variable_state sv WHERE sv.id = 1) AS site_version FROM pages p WHERE ';
export const PAGE_ROW_SQL = `SELECT ${pageColumns.all('p')}, ${NAMES}, ${SITE_VERSION}`;

/** The same without the page's Markdown and HTML (PageHead). */
export const PAGE_HEAD_ROW_SQL = `SELECT ${pageColumns.head('p')}, ${NAMES}, ${SITE_VERSION}`;

/**
 * List items never carry content or HTML. Completed by a condition on pages aliased `p`;
 * `extra` adds selected expressions (`, <expression> AS <name>`).
 */
export function summaryRowSql(extra = ''): string {
  return `SELECT ${pageColumns.summary('p')}, ${NAMES}${extra} FROM pages p WHERE `;
}

const decodeSummary = rowDecoder(PAGE_COLUMNS, SUMMARY_KEYS);

export function toPageRow(row: Row): PageRow {
  return withNames(decodePage(row), row);
}

export function toPageHeadRow(row: Row): PageRow<PageHead> {
  return withNames(decodePageHead(row), row);
}

function withNames<P>(page: P, row: Row): PageRow<P> {
  return {
    page,
    ownerName: (row.owner_username as string | null) ?? null,
    updatedByName: (row.updated_by_username as string | null) ?? null,
    siteVersion:
      row.site_version === null || row.site_version === undefined ? 0 : Number(row.site_version),
  };
}

/** A list item's row (`binnedByName` when the statement selected `binned_by_username`). */
export function toSummaryRow(row: Row): PageRow<PageSummary> {
  return {
    page: decodeSummary(row),
    ownerName: (row.owner_username as string | null) ?? null,
    updatedByName: (row.updated_by_username as string | null) ?? null,
    ...('binned_by_username' in row
      ? { binnedByName: (row.binned_by_username as string | null) ?? null }
      : {}),
  };
}

/** Rows of a page statement, as PageRows. */
export async function pageRows(sql: Sql, statement: string, params: unknown[]): Promise<PageRow[]> {
  return (await sql.all(statement, params)).map(toPageRow);
}
