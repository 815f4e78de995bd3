import type {
  BinItemResponse,
  PageLinkResponse,
  PageResponse,
  PageSummaryResponse,
  RevisionResponse,
  RevisionSummaryResponse,
} from './dto/page-response.dto';
import type { PageRevisionEntity } from './entities/page-revision.entity';
import type { PageRow } from './page-queries';

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
