import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import type { PageRecord } from '../pages/public-api';
import { PagesService } from '../pages/public-api';
import type { ChangeRow } from './store/change-request-columns';
import { ConflictHunk, mergeThreeWay } from './three-way';

export type ConflictReason =
  'overlapping_edits' | 'changed_since_base' | 'page_gone' | 'slug_taken';

export interface Conflict {
  slug: string;
  reason: ConflictReason;
  hunks: ConflictHunk[];
}

/** What merging one change would write now. */
export type PlannedChange =
  | { action: 'update'; page: PageRecord; title: string; content: string }
  | { action: 'create'; slug: string; title: string; content: string }
  | { action: 'bin'; page: PageRecord }
  | { action: 'move'; page: PageRecord; to: string };

/**
 * A request's changes against the pages as they are now, as `viewer` sees them: what a merge
 * would write (edits made since a change's base merged in three ways) and what blocks it.
 */
@Injectable()
export class ChangeRequestPlanner {
  constructor(private readonly pages: PagesService) {}

  async plan(
    changes: ChangeRow[],
    viewer: AuthUser,
  ): Promise<{ planned: PlannedChange[]; conflicts: Conflict[] }> {
    const planned: PlannedChange[] = [];
    const conflicts: Conflict[] = [];
    const conflict = (slug: string, reason: ConflictReason, hunks: ConflictHunk[] = []) =>
      conflicts.push({ slug, reason, hunks });
    for (const change of changes) {
      if (change.action === 'create') {
        if (await this.pages.findVisible(change.slug, viewer)) conflict(change.slug, 'slug_taken');
        else
          planned.push({
            action: 'create',
            slug: change.slug,
            title: change.title ?? change.slug.split('/').pop()!,
            content: change.content ?? '',
          });
        continue;
      }
      const page = await this.pages.findVisible(change.slug, viewer);
      if (!page || page.id !== change.pageId) {
        conflict(change.slug, 'page_gone');
        continue;
      }
      const moved = page.revision !== change.baseRevision;
      if (change.action === 'bin') {
        if (moved) conflict(change.slug, 'changed_since_base');
        else planned.push({ action: 'bin', page });
      } else if (change.action === 'move') {
        if (await this.pages.findVisible(change.to!, viewer)) conflict(change.to!, 'slug_taken');
        else planned.push({ action: 'move', page, to: change.to! });
      } else {
        const base = { title: change.baseTitle ?? '', content: change.baseContent ?? '' };
        const proposed = {
          title: change.title ?? base.title,
          content: change.content ?? base.content,
        };
        if (!moved) {
          planned.push({ action: 'update', page, ...proposed });
          continue;
        }
        const hunks: ConflictHunk[] = [];
        let title = page.title;
        if (proposed.title !== base.title && page.title !== base.title) {
          if (proposed.title !== page.title)
            hunks.push({
              line: 0,
              base: base.title,
              proposed: proposed.title,
              current: page.title,
            });
        } else if (proposed.title !== base.title) title = proposed.title;
        const merged = mergeThreeWay(base.content, proposed.content, page.content);
        if ('conflicts' in merged) hunks.push(...merged.conflicts);
        if (hunks.length > 0) conflict(change.slug, 'overlapping_edits', hunks);
        else if ('merged' in merged)
          planned.push({ action: 'update', page, title, content: merged.merged });
      }
    }
    return { planned, conflicts };
  }
}
