import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import type { SqlCondition } from '../common/database/sql';
import { PageAccessService } from '../pages/public-api';

/** Who asks for a media item: enough of the caller for the rule. */
export type MediaViewer = Pick<AuthUser, 'id' | 'role' | 'groups' | 'paths'>;

/**
 * The one place that decides who sees a media item (image or attachment): admins; its
 * uploader; and whoever may see at least one live page whose Markdown references it (the pages
 * feature's rule over the references it records on save). An item no live page references is
 * seen by its uploader and admins only. Listing, metadata, download, delete, export and print
 * all ask this rule; an item the caller may not see answers 404 like a missing one.
 */
@Injectable()
export class MediaAccess {
  constructor(private readonly pages: PageAccessService) {}

  /** The rule as an SQL condition over media rows aliased `alias`. */
  visibleSql(viewer: MediaViewer, alias = 'm'): SqlCondition {
    if (viewer.role === 'admin' && !viewer.paths) return { sql: '1 = 1', params: [] };
    const referenced = this.pages.mediaReferencedSql(viewer, `${alias}.id`);
    return {
      sql: `(${alias}.uploaded_by = ? OR ${referenced.sql})`,
      params: [viewer.id, ...referenced.params],
    };
  }
}
