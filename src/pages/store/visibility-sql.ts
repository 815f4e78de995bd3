import { userSql } from '../../auth/public-sql';
import type { Role } from '../../common/auth/roles';
import { pathsSql } from '../../common/auth/token-scope';
import type { SqlCondition } from '../../common/database/sql';

/** Who is looking: enough of the caller for the visibility rule (structured-cloneable). */
export interface Viewer {
  role: Role;
  /** Names of the viewer's groups. */
  groups: string[];
  /** A path-scoped credential's slug patterns (common/auth/token-scope.ts); absent: no limit. */
  paths?: string[];
}

/**
 * The visibility rule (PageAccessService.canSee) as SQL over pages aliased `alias`: live, and
 * seen by an admin, by anyone when the page has no groups, else by members of one of them.
 * `evenIfBinned`: the same rule without the bin test ("would see it if it were live").
 */
export function visibleSql(
  viewer: Viewer,
  alias = 'p',
  { evenIfBinned = false }: { evenIfBinned?: boolean } = {},
): SqlCondition {
  const inPaths = pathsSql(viewer.paths, `${alias}.slug`);
  const live =
    (evenIfBinned ? '1 = 1' : `${alias}.live_slug IS NOT NULL`) +
    (inPaths ? ` AND ${inPaths.sql}` : '');
  const pathParams = inPaths?.params ?? [];
  if (viewer.role === 'admin') return { sql: live, params: pathParams };
  const open = `NOT EXISTS (SELECT 1 FROM page_groups vpg WHERE vpg.page_id = ${alias}.id)`;
  if (viewer.groups.length === 0) return { sql: `${live} AND ${open}`, params: pathParams };
  const member =
    `EXISTS (SELECT 1 FROM page_groups vpg WHERE vpg.page_id = ${alias}.id ` +
    `AND vpg.group_id IN (${userSql.groupIdsNamed(viewer.groups.length)}))`;
  return { sql: `${live} AND (${open} OR ${member})`, params: [...pathParams, ...viewer.groups] };
}

/**
 * For other modules' statements (PageAccessService exports it): "the page whose id is in
 * `pageIdColumn` exists and `viewer` may see it" (or would, if it were live, `evenIfBinned`).
 */
export function pageVisibleSql(
  viewer: Viewer,
  pageIdColumn: string,
  options: { evenIfBinned?: boolean } = {},
): SqlCondition {
  const rule = visibleSql(viewer, 'vp', options);
  return {
    sql: `EXISTS (SELECT 1 FROM pages vp WHERE vp.id = ${pageIdColumn} AND ${rule.sql})`,
    params: rule.params,
  };
}

/** Just the viewer of a caller (an AuthUser carries more), as a query argument. */
export function toViewer(user: Viewer): Viewer {
  return {
    role: user.role,
    groups: [...user.groups],
    ...(user.paths ? { paths: [...user.paths] } : {}),
  };
}

/**
 * For the media module (PageAccessService exports it): "a live page `viewer` may see
 * references the media item whose id is in `mediaIdColumn`" (page_media_refs, kept on save).
 */
export function mediaReferencedByVisibleSql(viewer: Viewer, mediaIdColumn: string): SqlCondition {
  const rule = visibleSql(viewer, 'vp');
  return {
    sql:
      `EXISTS (SELECT 1 FROM page_media_refs vr JOIN pages vp ON vp.id = vr.page_id ` +
      `WHERE vr.media_id = ${mediaIdColumn} AND ${rule.sql})`,
    params: rule.params,
  };
}
