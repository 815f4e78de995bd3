import { Injectable } from '@nestjs/common';
import { Brackets, SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import type { PageEntity } from './entities/page.entity';

let parameterCounter = 0;

/**
 * The one place that decides who sees a page. Admins see every live page; a page with groups
 * is seen by members of one of them; a page without groups by every authenticated user;
 * binned pages by no one (the bin routes read them without this filter).
 */
@Injectable()
export class PageAccessService {
  canSee(
    page: Pick<PageEntity, 'liveSlug' | 'groupNames'>,
    user: Pick<AuthUser, 'role' | 'groups'>,
  ): boolean {
    if (page.liveSlug === null) return false;
    if (isAdmin(user as AuthUser)) return true;
    if (page.groupNames.length === 0) return true;
    return page.groupNames.some((name) => user.groups.includes(name));
  }

  /**
   * Adds "live and visible to `user`" to a query over pages aliased `alias` (default `p`).
   */
  restrictToVisible<T extends WhereExpressionBuilder>(
    query: T,
    user: Pick<AuthUser, 'role' | 'groups'>,
    alias = 'p',
  ): T {
    query.andWhere(`${alias}.live_slug IS NOT NULL`);
    if (isAdmin(user as AuthUser)) return query;
    const none = `NOT EXISTS (SELECT 1 FROM page_groups vpg WHERE vpg.page_id = ${alias}.id)`;
    if (user.groups.length === 0) {
      query.andWhere(none);
      return query;
    }
    const parameter = `visibleGroups${++parameterCounter % 1_000_000}`;
    query.andWhere(
      new Brackets((q) =>
        q
          .where(none)
          .orWhere(
            `EXISTS (SELECT 1 FROM page_groups vpg JOIN access_groups vg ON vg.id = vpg.group_id WHERE vpg.page_id = ${alias}.id AND vg.name IN (:...${parameter}))`,
            { [parameter]: user.groups },
          ),
      ),
    );
    return query;
  }

  /** Convenience for select queries. */
  visible<E extends object>(
    query: SelectQueryBuilder<E>,
    user: Pick<AuthUser, 'role' | 'groups'>,
    alias = 'p',
  ): SelectQueryBuilder<E> {
    return this.restrictToVisible(query, user, alias);
  }
}
