import { Injectable } from '@nestjs/common';
import { SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import type { PageEntity } from './entities/page.entity';

let parameterCounter = 0;

type Viewer = Pick<AuthUser, 'role' | 'groups'>;

/**
 * The one place that decides who sees a page. Admins see every live page; a page with groups
 * is seen by members of one of them; a page without groups by every authenticated user;
 * binned pages by no one (the bin routes read them without this filter).
 * `canSee` decides for a loaded page; `visibleSql` / `restrictToVisible` put the same rule
 * into SQL for lists (raw SQL and TypeORM query builders).
 */
@Injectable()
export class PageAccessService {
  canSee(page: Pick<PageEntity, 'liveSlug' | 'groupNames'>, user: Viewer): boolean {
    if (page.liveSlug === null) return false;
    if (isAdmin(user as AuthUser)) return true;
    if (page.groupNames.length === 0) return true;
    return page.groupNames.some((name) => user.groups.includes(name));
  }

  /**
   * The rule as an SQL condition over pages aliased `alias`; `groups` renders the list of the
   * user's group names as parameters in the caller's placeholder style.
   */
  private condition(user: Viewer, alias: string, groups: () => string, ifLive = false): string {
    const live = ifLive ? '1 = 1' : `${alias}.live_slug IS NOT NULL`;
    if (isAdmin(user as AuthUser)) return live;
    const open = `NOT EXISTS (SELECT 1 FROM page_groups vpg WHERE vpg.page_id = ${alias}.id)`;
    if (user.groups.length === 0) return `${live} AND ${open}`;
    const member = `EXISTS (SELECT 1 FROM page_groups vpg JOIN access_groups vg ON vg.id = vpg.group_id WHERE vpg.page_id = ${alias}.id AND vg.name IN (${groups()}))`;
    return `${live} AND (${open} OR ${member})`;
  }

  /** For raw SQL with `?` placeholders: the condition and its parameters. */
  visibleSql(user: Viewer, alias = 'p'): { sql: string; params: string[] } {
    const sql = this.condition(user, alias, () => user.groups.map(() => '?').join(', '));
    return { sql, params: sql.includes('vg.name IN') ? [...user.groups] : [] };
  }

  /** Adds "live and visible to `user`" to a query over pages aliased `alias` (default `p`). */
  restrictToVisible<T extends WhereExpressionBuilder>(query: T, user: Viewer, alias = 'p'): T {
    const parameter = `visibleGroups${++parameterCounter % 1_000_000}`;
    query.andWhere(`(${this.condition(user, alias, () => `:...${parameter}`)})`, {
      [parameter]: user.groups,
    });
    return query;
  }

  /**
   * "Would `user` see this page if it were live?": the same rule without the bin test, for
   * what keeps naming a page in the bin (the owner's bin notice). Live pages: as restrictToVisible.
   */
  restrictToVisibleIfLive<T extends WhereExpressionBuilder>(
    query: T,
    user: Viewer,
    alias = 'p',
  ): T {
    const parameter = `visibleGroups${++parameterCounter % 1_000_000}`;
    query.andWhere(`(${this.condition(user, alias, () => `:...${parameter}`, true)})`, {
      [parameter]: user.groups,
    });
    return query;
  }

  /** Convenience for select queries. */
  visible<E extends object>(
    query: SelectQueryBuilder<E>,
    user: Viewer,
    alias = 'p',
  ): SelectQueryBuilder<E> {
    return this.restrictToVisible(query, user, alias);
  }
}
