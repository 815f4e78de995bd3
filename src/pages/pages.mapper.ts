import type { PageRevisionEntity } from './entities/page-revision.entity';
import type { Lifecycle, PropertyValue } from './entities/page.entity';
import type { PageRow } from './store/page-queries';

export interface PageSummaryResponse {
  slug: string;
  title: string;
  icon: string | null;
  language: string | null;
  tags: string[];
  lifecycle: Lifecycle;
  owner: string | null;
  groups: string[];
  verified: boolean;
  revision: number;
  updatedAt: string;
  updatedBy: string | null;
}

export interface PageLinkResponse {
  slug: string;
  title: string;
}

export interface PageResponse {
  slug: string;
  title: string;
  content: string;
  icon: string | null;
  language: string | null;
  tags: string[];
  lifecycle: Lifecycle;
  owner: string | null;
  reviewIntervalDays: number | null;
  nextReviewAt: string | null;
  groups: string[];
  deprecatedTarget: string | null;
  properties: Record<string, PropertyValue>;
  variables: Record<string, string>;
  verified: boolean;
  revision: number;
  createdAt: string;
  updatedAt: string;
  updatedBy: string | null;
  html: string;
  backlinks: PageLinkResponse[];
}

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

export function toPageSummary(row: PageRow): PageSummaryResponse {
  const p = row.page;
  return {
    slug: p.slug,
    title: p.title,
    icon: p.icon,
    language: p.language,
    tags: p.tags,
    lifecycle: p.lifecycle,
    owner: row.ownerName,
    groups: p.groupNames,
    verified: p.verified,
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
    icon: p.icon,
    language: p.language,
    tags: p.tags,
    lifecycle: p.lifecycle,
    owner: row.ownerName,
    reviewIntervalDays: p.reviewIntervalDays,
    nextReviewAt: p.nextReviewAt ? p.nextReviewAt.toISOString() : null,
    groups: p.groupNames,
    deprecatedTarget: p.deprecatedTarget,
    properties: p.properties,
    variables: p.variables,
    verified: p.verified,
    revision: p.revision,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    updatedBy: row.updatedByName,
    html,
    backlinks,
  };
}

export function toBinItem(row: PageRow): BinItemResponse {
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
  revision: PageRevisionEntity,
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
  revision: PageRevisionEntity,
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
