import type { ProtectedPath } from '../pages/public-api';
import type { ChangeRequestRow } from './store/change-request-columns';
import type { ReviewWithUser } from './store/change-requests.repository';

/** How far a request's approvals are from what the protected paths it touches ask for. */
export interface ApprovalStatus {
  counted: ReviewWithUser[];
  rules: (ProtectedPath & { approved: number })[];
  missing: number;
}

/**
 * The rule (docs/review.md): an approval counts when it is for the request's current version
 * and not by its author; for a rule naming groups or people, only approvals by members of those
 * groups or by those people count for it, otherwise approvals by editors and administrators.
 * Each rule the request touches needs its number; a request touching no protected path needs
 * none (an editor who merges it reviews it by merging).
 */
export function approvalStatus(
  request: Pick<ChangeRequestRow, 'authorId' | 'version'>,
  reviews: ReviewWithUser[],
  rules: ProtectedPath[],
): ApprovalStatus {
  const counted = reviews.filter(
    (r) =>
      r.verdict === 'approved' && r.version === request.version && r.userId !== request.authorId,
  );
  const status = rules.map((rule) => {
    const named = rule.groups.length > 0 || rule.users.length > 0;
    const approved = counted.filter((r) =>
      named
        ? rule.users.includes(r.username ?? '') ||
          r.reviewerGroups.some((g) => rule.groups.includes(g))
        : r.reviewerRole === 'editor' || r.reviewerRole === 'admin',
    ).length;
    return { ...rule, approved };
  });
  const missing = Math.max(0, ...status.map((r) => r.approvals - r.approved));
  return { counted, rules: status, missing };
}

/** Whether `reviewer` could count for at least one of the rules (or there are none that name anyone). */
export function mayCount(
  reviewer: { username: string; groups: string[]; role: string },
  rules: ProtectedPath[],
): boolean {
  const naming = rules.filter((r) => r.groups.length > 0 || r.users.length > 0);
  if (naming.length === 0) return reviewer.role === 'editor' || reviewer.role === 'admin';
  return naming.some(
    (rule) =>
      rule.users.includes(reviewer.username) ||
      reviewer.groups.some((g) => rule.groups.includes(g)),
  );
}
