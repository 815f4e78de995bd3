import { Injectable } from '@nestjs/common';
import { AuthUser } from '../common/auth/auth-user';
import { Database, Tx } from '../common/database/database';
import { isUniqueViolation } from '../common/database/unique-violation';
import { PAGE_BINNED, pageEvent, PAGE_PURGED, PAGE_RESTORED } from '../common/events/domain-events';
import { Outbox } from '../common/events/outbox';
import { cursorDate, cursorString, Paged, ListRequest, toPaged } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import {
  ConflictProblem,
  FieldProblems,
  NotFoundProblem,
  PreconditionFailedProblem,
} from '../common/problems/problem';
import { ifMatchAllows, parseIfMatch } from './model/preconditions';
import { BinItemResponse, toBinItem } from './pages.mapper';
import { stateOf } from './model/page-state';
import { ProtectedPathsService } from './protection/protected-paths.service';
import { PageDeriver } from './page-deriver';
import { normaliseSlug, normaliseSlugField, slugProblems } from './model/slug';
import type { PageRecord } from './model/page-columns';
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
    private readonly deriver: PageDeriver,
    private readonly outbox: Outbox,
    private readonly protectedPaths: ProtectedPathsService,
  ) {}

  async moveToBin(slug: string, actor: AuthUser, ifMatch?: string): Promise<void> {
    const expected = parseIfMatch(ifMatch);
    await this.protectedPaths.checkDirectWrite([normaliseSlug(slug)], actor);
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
      await this.outbox.record(tx, PAGE_BINNED, pageEvent(found, actor.id));
      return found;
    });
    this.announceBinned([page], actor);
  }

  /**
   * CONTRACTS: moves a live page at the revision it was read at to the bin inside the caller's
   * transaction (an import in mode=mirror), recording its `page.binned` event there; 409 when
   * it changed meanwhile. The caller writes the audit lines with announceBinned after its commit.
   */
  async binWithin(tx: Tx, page: PageRecord, actor: AuthUser): Promise<void> {
    if (!(await this.pages.moveToBin(page.id, page.revision, actor.id, new Date(), tx)))
      throw new ConflictProblem(
        'revision_conflict',
        `The page "${page.slug}" changed meanwhile; nothing was written. Try again.`,
      );
    await this.outbox.record(tx, PAGE_BINNED, pageEvent(page, actor.id));
  }

  /** The audit lines of pages binned (after the commit; their events are in the outbox). */
  announceBinned(pages: PageRecord[], actor: AuthUser): void {
    for (const page of pages)
      audit('page.binned', { actorId: actor.id, target: `page:${page.id}`, slug: page.slug });
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
   * Puts a binned page back under its slug, or under `newSlug` (checked by the rules of page
   * create; the move is a new revision); 409 `slug_taken` when a live page uses that slug.
   * All or nothing, its `page.restored` event included.
   */
  async restore(id: string, actor: AuthUser, newSlug?: string): Promise<PageRecord> {
    const moveTo = newSlug === undefined ? undefined : normaliseSlugField(newSlug);
    if (moveTo !== undefined) {
      const problems = slugProblems(moveTo, 'slug', true);
      if (problems.length > 0) throw new FieldProblems(problems);
    }
    const binned = await this.pages.findById(id);
    if (!binned || binned.liveSlug !== null)
      throw new NotFoundProblem('page', 'No such page in the bin.');
    const move =
      moveTo !== undefined && moveTo !== binned.slug ? await this.moved(binned, moveTo) : null;
    const slug = move?.state.slug ?? binned.slug;
    const page = await this.db
      .transaction(async (tx) => {
        const page = await this.pages.findById(id, tx);
        if (!page || page.liveSlug !== null)
          throw new NotFoundProblem('page', 'No such page in the bin.');
        if (await this.pages.liveSlugTaken(slug, tx)) throw slugTaken(slug, move !== null);
        // Restored by someone else meanwhile: no longer in the bin.
        if (!(await this.pages.restoreFromBin({ ...page, slug }, tx)))
          throw new NotFoundProblem('page', 'No such page in the bin.');
        if (!move) {
          const restored = { ...page, liveSlug: slug, binnedAt: null, binnedBy: null };
          await this.recordRestored(tx, restored, actor);
          return restored;
        }
        const revision = await this.pages.updateIfAt(
          {
            pageId: page.id,
            baseRevision: binned.revision,
            state: move.state,
            derived: move.derived,
            actorId: actor.id,
            action: 'restored',
            previous: move.previous,
          },
          tx,
        );
        if (revision === null)
          throw new ConflictProblem('revision_conflict', 'The page changed meanwhile; try again.');
        const restored = (await this.pages.findById(page.id, tx))!;
        await this.recordRestored(tx, restored, actor);
        return restored;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw slugTaken(slug, move !== null);
        throw error;
      });
    audit('page.restored', { actorId: actor.id, target: `page:${page.id}`, slug: page.slug });
    return page;
  }

  private recordRestored(tx: Tx, page: PageRecord, actor: AuthUser): Promise<void> {
    return this.outbox.record(tx, PAGE_RESTORED, {
      ...pageEvent(page, actor.id),
      revision: page.revision,
    });
  }

  /** The binned page's state under `slug`, rendered (links resolve against the new slug). */
  private async moved(page: PageRecord, slug: string) {
    const previous = stateOf(page, await this.pages.groupsOf(page.id));
    const state = { ...previous, slug };
    return { previous, state, derived: await this.deriver.derive(state) };
  }

  /** Deletes a binned page for good, with its revisions, links and references. */
  async purge(id: string, actor: AuthUser): Promise<void> {
    const page = await this.db.transaction(async (tx) => {
      const page = await this.pages.findById(id, tx);
      if (!page || page.liveSlug !== null)
        throw new NotFoundProblem('page', 'No such page in the bin.');
      await this.pages.purge(id, tx);
      await this.outbox.record(tx, PAGE_PURGED, {
        pageId: id,
        slug: page.slug,
        title: page.title,
        actorId: actor.id,
      });
      return page;
    });
    audit('page.purged', { actorId: actor.id, target: `page:${id}`, slug: page.slug });
  }
}

/** 409 for a restore whose slug a live page uses (`moved`: the new slug the caller chose). */
function slugTaken(slug: string, moved: boolean): ConflictProblem {
  return new ConflictProblem(
    'slug_taken',
    moved
      ? `A live page uses the slug "${slug}" too; choose another.`
      : `A live page now uses the slug "${slug}"; move it first, or restore under a new slug.`,
    { slug },
  );
}
