import { Injectable } from '@nestjs/common';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import type { SqlCondition } from '../common/database/sql';
import type { PageRecord } from './model/page-columns';
import { mediaReferencedByVisibleSql, pageVisibleSql, Viewer } from './store/visibility-sql';

/**
 * The one place that decides who sees a page. Admins see every live page; a page with groups
 * is seen by members of one of them; a page without groups by every authenticated user;
 * binned pages by no one (the bin routes read them without this filter).
 * `canSee` decides for a loaded page; the pages store puts the same rule into its SQL
 * (store/visibility-sql.ts), and `pageVisibleSql` lends it to other modules' statements.
 */
@Injectable()
export class PageAccessService {
  canSee(page: Pick<PageRecord, 'liveSlug' | 'groupNames'>, user: Viewer): boolean {
    if (page.liveSlug === null) return false;
    if (isAdmin(user as AuthUser)) return true;
    if (page.groupNames.length === 0) return true;
    return page.groupNames.some((name) => user.groups.includes(name));
  }

  /**
   * "The page whose id is in `pageIdColumn` exists and `viewer` may see it" (`evenIfBinned`:
   * would see it if it were live) as an SQL condition with `?` parameters, for other modules'
   * statements over rows that name a page (notifications).
   */
  pageVisibleSql(
    viewer: Viewer,
    pageIdColumn: string,
    options: { evenIfBinned?: boolean } = {},
  ): SqlCondition {
    return pageVisibleSql(viewer, pageIdColumn, options);
  }

  /**
   * "A live page `viewer` may see references the media item whose id is in `mediaIdColumn`"
   * as an SQL condition with `?` parameters: the pages' half of the media visibility rule
   * (MediaAccess in the media module adds the uploader and admins).
   */
  mediaReferencedSql(viewer: Viewer, mediaIdColumn: string): SqlCondition {
    return mediaReferencedByVisibleSql(viewer, mediaIdColumn);
  }
}
