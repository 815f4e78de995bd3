import { metadataToJson, PublicMetadata, PublicMetadataOf, withOwnerName } from './page-metadata';
import {
  METADATA_KEYS,
  MetadataKey,
  PageSummary,
  RevisionRecord,
  SUMMARY_KEYS,
  SummaryKey,
} from './store/page-columns';
import type { PageRow } from './store/page-rows';
import type { RevisionSummary } from './store/revisions';

/** The metadata a list item carries (PAGE_COLUMNS `summary` and `metadata`). */
type SummaryMetadata = PublicMetadataOf<MetadataKey & SummaryKey>;

export type PageSummaryResponse = { slug: string; title: string } & SummaryMetadata & {
    revision: number;
    updatedAt: string;
    updatedBy: string | null;
  };

export interface PageLinkResponse {
  slug: string;
  title: string;
}

export type PageResponse = { slug: string; title: string; content: string } & PublicMetadata & {
    revision: number;
    createdAt: string;
    updatedAt: string;
    updatedBy: string | null;
    html: string;
    backlinks: PageLinkResponse[];
  };

export interface BinItemResponse {
  id: string;
  slug: string;
  title: string;
  revision: number;
  updatedAt: string;
  binnedAt: string;
  binnedBy: string | null;
}

export interface RevisionSummaryResponse {
  id: string;
  revision: number;
  title: string;
  action: string;
  author: string | null;
  createdAt: string;
}

export interface RevisionResponse extends RevisionSummaryResponse {
  slug: string;
  content: string;
  metadata: Record<string, unknown>;
}

export interface TagResponse {
  name: string;
  count: number;
}

export interface GraphResponse {
  nodes: { slug: string; title: string; tags: string[] }[];
  edges: { from: string; to: string }[];
}

const SUMMARY_METADATA = METADATA_KEYS.filter((key) => (SUMMARY_KEYS as string[]).includes(key));

export function toPageSummary(row: PageRow<PageSummary>): PageSummaryResponse {
  const p = row.page;
  return {
    slug: p.slug,
    title: p.title,
    ...(withOwnerName(metadataToJson(p, SUMMARY_METADATA), row.ownerName) as SummaryMetadata),
    revision: p.revision,
    updatedAt: p.updatedAt.toISOString(),
    updatedBy: row.updatedByName,
  };
}

export function toPageResponse(
  row: PageRow,
  html: string,
  backlinks: PageLinkResponse[],
): PageResponse {
  const p = row.page;
  return {
    slug: p.slug,
    title: p.title,
    content: p.content,
    ...withOwnerName(metadataToJson(p), row.ownerName),
    revision: p.revision,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    updatedBy: row.updatedByName,
    html,
    backlinks,
  };
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
    author,
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
