import type { ApprovalStatus } from './change-request-review';
import type { Conflict } from './change-request-plan';
import type { ChangeRequestResponse, ChangeRequestSummaryResponse } from './dto/change-request.dto';
import type { ChangeRow } from './store/change-request-columns';
import type { ChangeRequestWithAuthor, ReviewWithUser } from './store/change-requests.repository';

/** The console page of a request. */
export function consolePath(id: number): string {
  return `/change-requests/${id}`;
}

export function toSummary(
  request: ChangeRequestWithAuthor,
  changes: Pick<ChangeRow, 'slug' | 'to'>[],
): ChangeRequestSummaryResponse {
  return {
    id: request.id,
    title: request.title,
    state: request.state,
    author: request.author,
    label: request.label,
    version: request.version,
    slugs: [...new Set(changes.flatMap((c) => (c.to ? [c.slug, c.to] : [c.slug])))],
    createdAt: request.createdAt.toISOString(),
    updatedAt: request.updatedAt.toISOString(),
    url: consolePath(request.id),
  };
}

export function toChangeRequestResponse(parts: {
  request: ChangeRequestWithAuthor;
  changes: ChangeRow[];
  currentRevisions: (number | null)[];
  reviews: ReviewWithUser[];
  status: ApprovalStatus;
  conflicts: Conflict[];
  reviewers: string[];
  closedBy: string | null;
}): ChangeRequestResponse {
  const { request, changes, status } = parts;
  const open = request.state === 'open';
  return {
    ...toSummary(request, changes),
    description: request.description,
    changes: changes.map((c, i) => ({
      slug: c.slug,
      action: c.action,
      to: c.to,
      title: c.title,
      content: c.content,
      baseRevision: c.baseRevision,
      baseTitle: c.baseTitle,
      baseContent: c.baseContent,
      currentRevision: parts.currentRevisions[i],
    })),
    approvals: status.counted.map((r) => ({ username: r.username, at: r.createdAt.toISOString() })),
    reviews: parts.reviews.map((r) => ({
      username: r.username,
      verdict: r.verdict,
      at: r.createdAt.toISOString(),
      current: r.version === request.version,
    })),
    reviewers: parts.reviewers,
    rules: status.rules.map((r) => ({
      prefix: r.prefix,
      approvals: r.approvals,
      approved: r.approved,
      groups: r.groups,
      users: r.users,
    })),
    approvalsMissing: open ? status.missing : 0,
    conflicts: parts.conflicts,
    mergeable: open && status.missing === 0 && parts.conflicts.length === 0,
    closedAt: request.closedAt?.toISOString() ?? null,
    closedBy: parts.closedBy,
  };
}
