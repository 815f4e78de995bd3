import type {
  BinItemResponse,
  PageLinkResponse,
  PageResponse,
  PageSummaryResponse,
  RevisionResponse,
  RevisionSummaryResponse,
} from './dto/page-response.dto';
import { PublicMetadata, publicMetadata, PublicMetadataOf } from './model/page-metadata';
import {
  METADATA_KEYS,
  MetadataKey,
  PageSummary,
  SUMMARY_KEYS,
  SummaryKey,
} from './model/page-columns';
import type { RevisionRecord } from './model/revision-columns';
import type { PageRow } from './store/page-rows';
import type { RevisionSummary } from './store/revisions';

// The response shapes (and their OpenAPI schemas) are in dto/page-response.dto.ts.
export type {
  BinItemResponse,
  GraphResponse,
  PageLinkResponse,
  PageResponse,
  PageSummaryResponse,
  RevisionResponse,
  RevisionSummaryResponse,
  TagResponse,
} from './dto/page-response.dto';

/** What the mappers build from PAGE_COLUMNS: a list item's and a page read's members. */
type BuiltSummary = { slug: string; title: string } & PublicMetadataOf<MetadataKey & SummaryKey> & {
    revision: number;
    updatedAt: string;
    updatedBy: string | null;
  };
type BuiltPage = { slug: string; title: string; content: string } & PublicMetadata & {
    revision: number;
    createdAt: string;
    updatedAt: string;
    updatedBy: string | null;
    html: string;
    backlinks: PageLinkResponse[];
  };

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * A page field added to PAGE_COLUMNS reaches the answers by itself; this fails to compile until
 * the response classes (the OpenAPI description) describe it too.
 */
export const RESPONSES_DESCRIBE_PAGE_COLUMNS: [
  Exactly<BuiltSummary, PageSummaryResponse>,
  Exactly<BuiltPage, PageResponse>,
] = [true, true];

const SUMMARY_METADATA = METADATA_KEYS.filter((key) => (SUMMARY_KEYS as string[]).includes(key));

export function toPageSummary(row: PageRow<PageSummary>): PageSummaryResponse {
  const p = row.page;
  const item: BuiltSummary = {
    slug: p.slug,
    title: p.title,
    ...(publicMetadata(p, row.ownerName, SUMMARY_METADATA) as PublicMetadataOf<
      MetadataKey & SummaryKey
    >),
    revision: p.revision,
    updatedAt: p.updatedAt.toISOString(),
    updatedBy: row.updatedByName,
  };
  return item;
}

export function toPageResponse(
  row: PageRow,
  html: string,
  backlinks: PageLinkResponse[],
): PageResponse {
  const p = row.page;
  const page: BuiltPage = {
    slug: p.slug,
    title: p.title,
    content: p.content,
    ...publicMetadata(p, row.ownerName),
    revision: p.revision,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    updatedBy: row.updatedByName,
    html,
    backlinks,
  };
  return page;
}

export function toBinItem(row: PageRow<PageSummary>): BinItemResponse {
  const p = row.page;
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    revision: p.revision,
    updatedAt: p.updatedAt.toISOString(),
    binnedAt: p.binnedAt!.toISOString(),
    binnedBy: row.binnedByName ?? null,
  };
}

export function toRevisionSummary(
  revision: RevisionSummary,
  author: string | null,
): RevisionSummaryResponse {
  return {
    id: revision.id,
    revision: revision.revision,
    title: revision.title,
    action: revision.action,
    summary: revision.summary,
    author,
    coAuthors: revision.coAuthors ?? [],
    createdAt: revision.createdAt.toISOString(),
  };
}

export function toRevisionResponse(
  revision: RevisionRecord,
  author: string | null,
  owner: string | null,
): RevisionResponse {
  const { ownerId: _ownerId, ...metadata } = revision.metadata;
  return {
    ...toRevisionSummary(revision, author),
    slug: revision.slug,
    content: revision.content,
    metadata: { ...metadata, owner },
  };
}
