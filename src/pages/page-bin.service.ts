import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AuthUser } from '../common/auth/auth-user';
import { Database, Tx } from '../common/database/database';
import { isUniqueViolation } from '../common/database/unique-violation';
import {
  PAGE_BINNED,
  PAGE_PURGED,
  PAGE_RESTORED,
  PageBinnedEvent,
  PagePurgedEvent,
  PageRestoredEvent,
} from '../common/events/domain-events';
import { cursorDate, cursorString, Paged, ListRequest, toPaged } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import {
  ConflictProblem,
  NotFoundProblem,
  PreconditionFailedProblem,
} from '../common/problems/problem';
import { ifMatchAllows, parseIfMatch } from './preconditions';
import { BinItemResponse, toBinItem } from './pages.mapper';
import { normaliseSlug } from './slug';
import type { PageRecord } from './store/page-columns';
import { PagesRepository } from './store/pages.repository';

/**
 * The bin: DELETE moves a page (with its revisions) out of sight and frees its slug
 * (`live_slug` becomes NULL); admins list, restore and purge.
 */
@Injectable()
export class PageBinService {
  constructor(
    private readonly db: Database,
    private readonly pages: PagesRepository,
    private readonly events: EventEmitter2,
  ) {}

  async moveToBin(slug: string, actor: AuthUser, ifMatch?: string): Promise<void> {
    const expected = parseIfMatch(ifMatch);
    const page = await this.db.transaction(async (tx) => {
      const found = await this.pages.findLive(normaliseSlug(slug), tx);
      if (!found) throw new NotFoundProblem('page');
      if (!ifMatchAllows(expected, found.revision)) {
        throw new PreconditionFailedProblem(
          'revision_mismatch',
          `The page is at revision ${found.revision}.`,
          { currentRevision: found.revision },
        );
      }
      if (!(await this.pages.moveToBin(found.id, found.revision, actor.id, new Date(), tx)))
        throw new ConflictProblem('revision_conflict', 'The page changed meanwhile; try again.');
      return found;
    });
    this.announce(page, actor);
  }

  /**
   * CONTRACTS: moves a live page at the revision it was read at to the bin inside the caller's
   * transaction (an import in mode=mirror); 409 when it changed meanwhile. No events: the
   * caller announces the pages with announceBinned after its commit.
   */
  async binWithin(tx: Tx, page: PageRecord, actor: AuthUser): Promise<void> {
    if (!(await this.pages.moveToBin(page.id, page.revision, actor.id, new Date(), tx)))
      throw new ConflictProblem(
        'revision_conflict',
        `The page "${page.slug}" changed meanwhile; nothing was written. Try again.`,
      );
  }

  /** The audit lines and `page.binned` events of pages binned by binWithin (after commit). */
  announceBinned(pages: PageRecord[], actor: AuthUser): void {
    for (const page of pages) this.announce(page, actor);
  }

  private announce(page: PageRecord, actor: AuthUser): void {
    audit('page.binned', { actorId: actor.id, target: `page:${page.id}`, slug: page.slug });
    this.events.emit(PAGE_BINNED, {
      pageId: page.id,
      slug: page.slug,
      title: page.title,
      ownerId: page.ownerId,
      actorId: actor.id,
    } satisfies PageBinnedEvent);
  }

  async list(page: ListRequest): Promise<Paged<BinItemResponse>> {
    const after = page.cursor
      ? { binnedAt: cursorDate(page.cursor, 'b'), id: cursorString(page.cursor, 'i') }
      : undefined;
    const rows = await this.pages.listBin(after, page.limit + 1);
    return toPaged(rows, page.limit, toBinItem, (r) => ({
      b: r.page.binnedAt!.toISOString(),
      i: r.page.id,
    }));
  }

  /**
   * Puts a binned page back under its slug; 409 when a live page took the slug meanwhile.
   * Emits page.restored after commit (the page is back, at its revision before the bin).
   */
  async restore(id: string, actor: AuthUser): Promise<PageRecord> {
    const page = await this.db
      .transaction(async (tx) => {
        const page = await this.pages.findById(id, tx);
        if (!page || page.liveSlug !== null)
          throw new NotFoundProblem('page', 'No such page in the bin.');
        if (await this.pages.liveSlugTaken(page.slug, tx)) {
          throw new ConflictProblem(
            'slug_taken',
            `A live page now uses the slug "${page.slug}"; move it first.`,
            { slug: page.slug },
          );
        }
        // Restored by someone else meanwhile: no longer in the bin.
        if (!(await this.pages.restoreFromBin(page, tx)))
          throw new NotFoundProblem('page', 'No such page in the bin.');
        return { ...page, liveSlug: page.slug, binnedAt: null, binnedBy: null };
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) {
          throw new ConflictProblem('slug_taken', 'A live page now uses this slug; move it first.');
        }
        throw error;
      });
    audit('page.restored', { actorId: actor.id, target: `page:${page.id}`, slug: page.slug });
    this.events.emit(PAGE_RESTORED, {
      pageId: page.id,
      slug: page.slug,
      title: page.title,
      revision: page.revision,
      ownerId: page.ownerId,
      actorId: actor.id,
    } satisfies PageRestoredEvent);
    return page;
  }

  /** Deletes a binned page for good, with its revisions, links and references. */
  async purge(id: string, actor: AuthUser): Promise<void> {
    const page = await this.db.transaction(async (tx) => {
      const page = await this.pages.findById(id, tx);
      if (!page || page.liveSlug !== null)
        throw new NotFoundProblem('page', 'No such page in the bin.');
      await this.pages.purge(id, tx);
      return page;
    });
    audit('page.purged', { actorId: actor.id, target: `page:${id}`, slug: page.slug });
    this.events.emit(PAGE_PURGED, {
      pageId: id,
      slug: page.slug,
      title: page.title,
      actorId: actor.id,
    } satisfies PagePurgedEvent);
  }
}
