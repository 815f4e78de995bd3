import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { isUniqueViolation } from '../common/database/unique-violation';
import {
  PAGE_BINNED,
  PAGE_UPDATED,
  PageBinnedEvent,
  PageUpdatedEvent,
} from '../common/events/domain-events';
import { cursorString, Page, PageRequest, toPage } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import {
  ConflictProblem,
  NotFoundProblem,
  PreconditionFailedProblem,
} from '../common/problems/problem';
import { PageEntity } from './entities/page.entity';
import { PageStore } from './page-store';
import { cursorDate, fetchPageRows, selectPages, SUMMARY_COLUMNS } from './page-queries';
import { inTransaction } from './page-transaction';
import { ifMatchAllows, parseIfMatch } from './preconditions';
import { BinItemResponse, toBinItem } from './pages.mapper';
import { normaliseSlug } from './slug';

/**
 * The bin: DELETE moves a page (with its revisions) out of sight and frees its slug
 * (`live_slug` becomes NULL); admins list, restore and purge.
 */
@Injectable()
export class PageBinService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PageStore,
    private readonly events: EventEmitter2,
  ) {}

  async moveToBin(slug: string, actor: AuthUser, ifMatch?: string): Promise<void> {
    const expected = parseIfMatch(ifMatch);
    const page = await inTransaction(this.dataSource, async (manager) => {
      const found = await manager.findOneBy(PageEntity, { liveSlug: normaliseSlug(slug) });
      if (!found) throw new NotFoundProblem('page');
      if (!ifMatchAllows(expected, found.revision)) {
        throw new PreconditionFailedProblem(
          'revision_mismatch',
          `The page is at revision ${found.revision}.`,
          { currentRevision: found.revision },
        );
      }
      const now = new Date();
      const result = await manager
        .createQueryBuilder()
        .update(PageEntity)
        .set({ liveSlug: null, binnedAt: now, binnedBy: actor.id })
        .where('id = :id AND revision = :revision AND live_slug IS NOT NULL', {
          id: found.id,
          revision: found.revision,
        })
        .execute();
      if (!result.affected)
        throw new ConflictProblem('revision_conflict', 'The page changed meanwhile; try again.');
      await this.store.unindex(manager, found.id);
      return found;
    });
    audit('page.binned', { actorId: actor.id, target: `page:${page.id}`, slug: page.slug });
    this.events.emit(PAGE_BINNED, {
      pageId: page.id,
      slug: page.slug,
      title: page.title,
      ownerId: page.ownerId,
      actorId: actor.id,
    } satisfies PageBinnedEvent);
  }

  async list(page: PageRequest): Promise<Page<BinItemResponse>> {
    const query = selectPages(this.dataSource.manager, SUMMARY_COLUMNS)
      .leftJoin('users', 'bb', 'bb.id = p.binned_by')
      .addSelect('bb.username', 'binned_by_username')
      .where('p.live_slug IS NULL')
      .orderBy('p.binned_at', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .limit(page.limit + 1);
    if (page.cursor) {
      query.andWhere('(p.binned_at < :b OR (p.binned_at = :b AND p.id < :i))', {
        b: cursorDate(page.cursor, 'b'),
        i: cursorString(page.cursor, 'i'),
      });
    }
    const rows = await fetchPageRows(query);
    return toPage(rows, page.limit, toBinItem, (r) => ({
      b: r.page.binnedAt!.toISOString(),
      i: r.page.id,
    }));
  }

  /**
   * Puts a binned page back under its slug; 409 when a live page took the slug meanwhile.
   * Emits page.updated after commit (the page is back, at its revision before the bin).
   */
  async restore(id: string, actor: AuthUser): Promise<PageEntity> {
    const page = await inTransaction(this.dataSource, async (manager) => {
      const page = await manager.findOneBy(PageEntity, { id });
      if (!page || page.liveSlug !== null)
        throw new NotFoundProblem('page', 'No such page in the bin.');
      if (await manager.existsBy(PageEntity, { liveSlug: page.slug })) {
        throw new ConflictProblem(
          'slug_taken',
          `A live page now uses the slug "${page.slug}"; move it first.`,
          { slug: page.slug },
        );
      }
      const result = await manager
        .createQueryBuilder()
        .update(PageEntity)
        .set({ liveSlug: page.slug, binnedAt: null, binnedBy: null })
        .where('id = :id AND live_slug IS NULL', { id })
        .execute();
      // Restored by someone else meanwhile: no longer in the bin.
      if (!result.affected) throw new NotFoundProblem('page', 'No such page in the bin.');
      page.liveSlug = page.slug;
      page.binnedAt = null;
      page.binnedBy = null;
      await this.store.indexLive(manager, page);
      return page;
    }).catch((error: unknown) => {
      if (isUniqueViolation(error)) {
        throw new ConflictProblem('slug_taken', 'A live page now uses this slug; move it first.');
      }
      throw error;
    });
    audit('page.restored', { actorId: actor.id, target: `page:${page.id}`, slug: page.slug });
    this.events.emit(PAGE_UPDATED, {
      pageId: page.id,
      slug: page.slug,
      title: page.title,
      revision: page.revision,
      ownerId: page.ownerId,
      actorId: actor.id,
    } satisfies PageUpdatedEvent);
    return page;
  }

  /** Deletes a binned page for good, with its revisions, links and references. */
  async purge(id: string, actor: AuthUser): Promise<void> {
    const slug = await inTransaction(this.dataSource, async (manager) => {
      const page = await manager.findOneBy(PageEntity, { id });
      if (!page || page.liveSlug !== null)
        throw new NotFoundProblem('page', 'No such page in the bin.');
      await this.store.unindex(manager, id);
      await manager
        .createQueryBuilder()
        .delete()
        .from(PageEntity)
        .where('id = :id AND live_slug IS NULL', { id })
        .execute();
      return page.slug;
    });
    audit('page.purged', { actorId: actor.id, target: `page:${id}`, slug });
  }
}
