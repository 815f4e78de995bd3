import {
  column,
  ColumnDef,
  rowDecoder,
  FlaggedKeys,
  keysWhere,
  RowOf,
  selectList,
  valueOf,
} from '../../common/database/column-defs';

export const LIFECYCLES = ['draft', 'published', 'in_review', 'deprecated', 'archived'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

/** Scalar values a page property may hold. */
export type PropertyValue = string | number | boolean | null;

/**
 * Flags beside the SQL definition of a page column:
 * - `metadata`: a field of the page beside slug, title and content: written in every revision,
 *   answered by reads, exported in archives, accepted by imports and restored with revisions;
 *   a string value names its key in those JSON documents (`groupNames` is `groups` there).
 * - `summary`: carried by list items (`GET /api/pages`, recent, the bin).
 * - `archive`: exported in an archive beside the metadata.
 */
interface PageFlags {
  metadata?: true | string;
  summary?: true;
  archive?: true;
}
const meta = { metadata: true, archive: true } as const;

/**
 * THE list of a page's columns: the entity (store/page.entity.ts), the row type, the list,
 * summary and archive selections, the revision metadata, the page state the writers store, the
 * response mappers and the import types all derive from it. A new page field is one entry here
 * (plus its migration, its request DTO member and input rule, and its response class member:
 * see docs/data-layer.md).
 * Metadata fields are in the order their JSON documents list them.
 */
export const PAGE_COLUMNS = {
  id: column.uuid('id', { primary: true, summary: true, archive: true }),
  slug: column.varchar('slug', 255, { summary: true, archive: true }),
  /** `slug` while the page is live, NULL in the bin: unique, so slugs are unique among live pages. */
  liveSlug: column.varchar('live_slug', 255, { nullable: true, summary: true, archive: true }),
  title: column.varchar('title', 255, { summary: true, archive: true }),
  content: column.text('content', { archive: true }),
  /** Rendered HTML (variables resolved) as of `htmlSiteVersion` of the site-wide variables. */
  html: column.text('html', { nullable: true }),
  htmlSiteVersion: column.int('html_site_version', { default: 0 }),
  icon: column.varchar('icon', 64, { nullable: true, summary: true, ...meta }),
  language: column.varchar('language', 35, { nullable: true, summary: true, ...meta }),
  /** Denormalised copy of page_tags, so a read needs no join. */
  tags: column.json('tags', { summary: true, ...meta }, valueOf<string[]>()),
  lifecycle: column.varchar('lifecycle', 16, { summary: true, ...meta }, valueOf<Lifecycle>()),
  ownerId: column.uuid('owner_id', { nullable: true, summary: true, ...meta }),
  reviewIntervalDays: column.int('review_interval_days', { nullable: true, ...meta }),
  nextReviewAt: column.datetime('next_review_at', { nullable: true, ...meta }),
  /** Denormalised names of page_groups, so a read needs no join. */
  groupNames: column.json(
    'group_names',
    { summary: true, metadata: 'groups', archive: true },
    valueOf<string[]>(),
  ),
  deprecatedTarget: column.varchar('deprecated_target', 255, { nullable: true, ...meta }),
  properties: column.json('properties', { ...meta }, valueOf<Record<string, PropertyValue>>()),
  variables: column.json('variables', { ...meta }, valueOf<Record<string, string>>()),
  verified: column.bool('verified', { default: false, summary: true, ...meta }),
  revision: column.int('revision', { summary: true, archive: true }),
  createdAt: column.datetime('created_at', { summary: true, archive: true }),
  createdBy: column.uuid('created_by', { nullable: true }),
  updatedAt: column.datetime('updated_at', { summary: true, archive: true }),
  updatedBy: column.uuid('updated_by', { nullable: true, summary: true }),
  binnedAt: column.datetime('binned_at', { nullable: true, summary: true }),
  binnedBy: column.uuid('binned_by', { nullable: true, summary: true }),
};

type Columns = typeof PAGE_COLUMNS;
// Checked here rather than with `satisfies`, which would steer the builders' type inference.
PAGE_COLUMNS satisfies Record<string, ColumnDef & PageFlags>;
export type PageKey = keyof Columns & string;

/** A stored page, live or in the bin. */
export type PageRecord = RowOf<Columns>;

export type MetadataKey = FlaggedKeys<Columns, 'metadata'>;
export type SummaryKey = FlaggedKeys<Columns, 'summary'>;
export type ArchiveKey = FlaggedKeys<Columns, 'archive'>;

const flags = (key: PageKey): PageFlags => PAGE_COLUMNS[key] as PageFlags;

export const PAGE_KEYS = Object.keys(PAGE_COLUMNS) as PageKey[];
export const METADATA_KEYS = keysWhere(PAGE_COLUMNS, (c) => 'metadata' in c) as MetadataKey[];
export const SUMMARY_KEYS = keysWhere(PAGE_COLUMNS, (c) => 'summary' in c) as SummaryKey[];
export const ARCHIVE_KEYS = keysWhere(PAGE_COLUMNS, (c) => 'archive' in c) as ArchiveKey[];

/** The name of a metadata field in JSON documents (revisions, reads, archives, imports). */
export function metadataName(key: MetadataKey): string {
  const name = flags(key).metadata;
  return typeof name === 'string' ? name : key;
}

/** The page's metadata fields as stored. */
export type PageMetadata = Pick<PageRecord, MetadataKey>;
export type PageSummary = Pick<PageRecord, SummaryKey>;
export type PageArchiveRecord = Pick<PageRecord, ArchiveKey>;

/** A page without its text (Markdown and HTML): what a read needs before it sends a body. */
export type PageHead = Omit<PageRecord, 'content' | 'html'>;
const HEAD_KEYS = PAGE_KEYS.filter(
  (key) => key !== 'content' && key !== 'html',
) as (keyof PageHead & PageKey)[];

/** SELECT lists over pages aliased `alias`, columns under their SQL names. */
export const pageColumns = {
  all: (alias: string) => selectList(PAGE_COLUMNS, PAGE_KEYS, alias),
  head: (alias: string) => selectList(PAGE_COLUMNS, HEAD_KEYS, alias),
  summary: (alias: string) => selectList(PAGE_COLUMNS, SUMMARY_KEYS, alias),
  archive: (alias: string) => selectList(PAGE_COLUMNS, ARCHIVE_KEYS, alias),
};

/** The page columns a result row holds (selected under their SQL names), decoded. */
export const decodePage = rowDecoder(PAGE_COLUMNS, PAGE_KEYS) as (
  row: Record<string, unknown>,
) => PageRecord;

export const decodePageHead = rowDecoder(PAGE_COLUMNS, HEAD_KEYS) as (
  row: Record<string, unknown>,
) => PageHead;
