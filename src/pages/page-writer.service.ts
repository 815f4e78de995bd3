import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { isUniqueViolation } from '../common/database/unique-violation';
import {
  PAGE_CREATED,
  PAGE_UPDATED,
  PageCreatedEvent,
  PageUpdatedEvent,
} from '../common/events/domain-events';
import {
  BadRequestProblem,
  ConflictProblem,
  FieldProblems,
  NotFoundProblem,
  PreconditionFailedProblem,
  Problem,
} from '../common/problems/problem';
import { CreatePageDto, UpdatePageDto } from './dto/page.dto';
import { withoutReadOnlyMembers } from './dto/page-body.dto';
import { PageRevisionEntity } from './entities/page-revision.entity';
import { PageEntity } from './entities/page.entity';
import { PageAccessService } from './page-access.service';
import { PageInputService, PageState, stateOf } from './page-input.service';
import { PageStore } from './store/page-store';
import { findLivePage, findLivePageRow, PageRow } from './store/page-queries';
import { inTransaction } from './page-transaction';
import { ImportedPage, ImportOutcome } from './pages.types';
import { IfMatch, ifMatchAllows, parseIfMatch } from './preconditions';
import { normaliseSlug, normaliseSlugField, slugProblems } from './slug';

/** How an update names the revision it was based on. */
export interface Precondition {
  ifMatch?: string;
  baseRevision?: number;
}

function slugTaken(slug: string): ConflictProblem {
  return new ConflictProblem('slug_taken', `A page with the slug "${slug}" already exists.`, {
    slug,
  });
}

/** A stale precondition: 412 for If-Match, 409 for baseRevision; nothing is written. */
export function staleProblem(ifMatch: boolean, current: number): Problem {
  const detail = `The page is at revision ${current}; reload it and apply your change again.`;
  return ifMatch
    ? new PreconditionFailedProblem('revision_mismatch', detail, { currentRevision: current })
    : new ConflictProblem('revision_conflict', detail, { currentRevision: current });
}

function sameState(a: PageState, b: PageState): boolean {
  const key = (s: PageState) =>
    JSON.stringify({
      ...s,
      groups: s.groups.map((g) => g.name),
      nextReviewAt: s.nextReviewAt ? s.nextReviewAt.toISOString() : null,
    });
  return key(a) === key(b);
}

/** Create, update, restore and import: every change writes a revision inside one transaction. */
@Injectable()
export class PageWriterService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly input: PageInputService,
    private readonly store: PageStore,
    private readonly access: PageAccessService,
    private readonly events: EventEmitter2,
  ) {}

  async create(body: CreatePageDto, actor: AuthUser): Promise<PageEntity> {
    const state = await this.input.resolve(
      withoutReadOnlyMembers(body),
      actor,
      null,
      this.dataSource.manager,
    );
    const derived = await this.store.derive(state);
    const page = await this.runWrite(async (manager) => {
      if (await manager.existsBy(PageEntity, { liveSlug: state.slug })) throw slugTaken(state.slug);
      return this.store.insert(manager, state, derived, actor.id, 'created');
    }, state.slug);
    this.events.emit(PAGE_CREATED, {
      pageId: page.id,
      slug: page.slug,
      title: page.title,
      ownerId: page.ownerId,
      actorId: actor.id,
    } satisfies PageCreatedEvent);
    return page;
  }

  /**
   * Updates a visible live page. The precondition is checked up front (cheap answer) and again
   * by the conditional UPDATE inside the transaction (the real guard under concurrency).
   */
  async update(
    slug: string,
    body: UpdatePageDto,
    actor: AuthUser,
    precondition: Precondition,
  ): Promise<string> {
    const { baseRevision: _ignored, ...fields } = withoutReadOnlyMembers(body);
    const bodyBase = precondition.baseRevision;
    const header = parseIfMatch(precondition.ifMatch);
    // `*` only says "the page exists": an update must name the revision it was based on.
    const tags = header && !header.any ? header : undefined;
    if (tags === undefined && bodyBase === undefined) {
      throw new Problem(
        428,
        'precondition_required',
        header?.any
          ? 'If-Match: * names no revision; send the ETag you read (such as "3"), or baseRevision in the body.'
          : 'Send If-Match with the ETag you read, or baseRevision in the body.',
      );
    }
    if (
      tags !== undefined &&
      bodyBase !== undefined &&
      tags.revisions.length > 0 &&
      !tags.revisions.includes(bodyBase)
    ) {
      throw new BadRequestProblem(
        'conflicting_preconditions',
        'If-Match and baseRevision name different revisions.',
      );
    }
    const row = await this.findVisibleRow(slug, actor);
    const page = row.page;
    const stale = (current: number) => staleProblem(tags !== undefined, current);
    if (tags !== undefined && !ifMatchAllows(tags, page.revision)) throw stale(page.revision);
    if (bodyBase !== undefined && bodyBase !== page.revision)
      throw staleProblem(false, page.revision);
    const base = page.revision;

    const current = stateOf(page, await this.groupsOf(this.dataSource.manager, page));
    const state = await this.input.resolve(fields, actor, current, this.dataSource.manager, {
      currentPageId: page.id,
    });
    if (sameState(state, current)) return page.id;
    // The site-variables version came with the page row: no second read of it.
    const derived = await this.store.derive(state, undefined, row.siteVersion);
    const revision = await this.runWrite(async (manager) => {
      if (
        state.slug !== page.slug &&
        (await manager.existsBy(PageEntity, { liveSlug: state.slug }))
      )
        throw slugTaken(state.slug);
      const written = await this.store.updateIfAt(
        manager,
        page.id,
        base,
        state,
        derived,
        actor.id,
        'updated',
        current,
      );
      if (written === null) {
        const now = await manager.findOneBy(PageEntity, { id: page.id });
        if (!now || now.liveSlug === null) throw new NotFoundProblem('page');
        throw stale(now.revision);
      }
      return written;
    }, state.slug);
    this.emitUpdated(page.id, state, revision, actor.id);
    return page.id;
  }

  /** Writes a new revision holding an old revision's title, content and metadata. */
  async restoreRevision(
    revisionId: string,
    actor: AuthUser,
    precondition: Precondition,
  ): Promise<string> {
    const old = await this.dataSource.manager.findOneBy(PageRevisionEntity, { id: revisionId });
    const page = old
      ? await this.dataSource.manager.findOneBy(PageEntity, { id: old.pageId })
      : null;
    if (!old || !page || !this.access.canSee(page, actor)) throw new NotFoundProblem('revision');
    this.checkOptionalPrecondition(
      parseIfMatch(precondition.ifMatch),
      precondition.baseRevision,
      page.revision,
    );
    const m = old.metadata;
    const groups = await this.store.groupsOf(this.dataSource.manager, page.id);
    const current = stateOf(page, groups);
    // The restored slug stays the page's current one; a deprecated target that is gone is dropped.
    const targetLive = m.deprecatedTarget
      ? await this.dataSource.manager.existsBy(PageEntity, { liveSlug: m.deprecatedTarget })
      : false;
    const restoredGroups = await this.resolveGroupNames(m.groups);
    const state: PageState = {
      ...current,
      title: old.title,
      content: old.content,
      icon: m.icon,
      language: m.language,
      tags: m.tags,
      lifecycle: m.lifecycle,
      ownerId: m.ownerId,
      reviewIntervalDays: m.reviewIntervalDays,
      nextReviewAt: m.nextReviewAt ? new Date(m.nextReviewAt) : null,
      groups: restoredGroups,
      deprecatedTarget: targetLive ? m.deprecatedTarget : null,
      properties: m.properties,
      variables: m.variables,
      verified: m.verified,
    };
    this.input.assertContentSize(state.content);
    const derived = await this.store.derive(state);
    const revision = await this.runWrite(async (manager) => {
      const written = await this.store.updateIfAt(
        manager,
        page.id,
        page.revision,
        state,
        derived,
        actor.id,
        'restored',
        current,
      );
      if (written === null) {
        const now = await manager.findOneBy(PageEntity, { id: page.id });
        throw new ConflictProblem(
          'revision_conflict',
          'The page changed while restoring; try again.',
          { currentRevision: now?.revision ?? null },
        );
      }
      return written;
    }, state.slug);
    this.emitUpdated(page.id, state, revision, actor.id);
    return page.id;
  }

  /**
   * CONTRACTS: import inside the caller's transaction, no events. A new slug is created
   * verified; an existing live slug keeps its metadata unless the document sets it.
   */
  async upsertImported(
    manager: EntityManager,
    doc: ImportedPage,
    actor: AuthUser,
  ): Promise<ImportOutcome> {
    const slug = normaliseSlugField(doc.slug);
    const existing = await findLivePage(manager, slug);
    const fields = {
      title: doc.title,
      content: doc.content,
      properties: doc.properties,
      tags: doc.tags,
      icon: doc.icon,
      language: doc.language,
      lifecycle: doc.lifecycle,
      groups: doc.groups,
      variables: doc.variables,
      ownerId: doc.ownerId,
      reviewIntervalDays: doc.reviewIntervalDays,
      nextReviewAt:
        doc.nextReviewAt instanceof Date ? doc.nextReviewAt.toISOString() : doc.nextReviewAt,
      deprecatedTarget: doc.deprecatedTarget,
      verified: doc.verified,
    };
    // Imports are admin operations: group assignment and targets are checked as for an admin.
    const importer: AuthUser = { ...actor, role: 'admin' };
    if (!existing) {
      const problems = slugProblems(slug, 'slug', true);
      if (problems.length > 0) throw new FieldProblems(problems);
      const state = await this.input.resolve(
        { ...fields, slug, verified: doc.verified ?? true },
        importer,
        null,
        manager,
      );
      await this.store.insert(
        manager,
        state,
        this.store.deriveWithoutHtml(state),
        actor.id,
        'imported',
      );
      return 'created';
    }
    const current = stateOf(existing, await this.groupsOf(manager, existing));
    const state = await this.input.resolve(fields, importer, current, manager, {
      currentPageId: existing.id,
    });
    if (sameState(state, current)) return 'unchanged';
    const written = await this.store.updateIfAt(
      manager,
      existing.id,
      existing.revision,
      state,
      this.store.deriveWithoutHtml(state),
      actor.id,
      'imported',
      current,
    );
    if (written === null)
      throw new ConflictProblem(
        'revision_conflict',
        `The page "${slug}" changed during the import.`,
      );
    return 'replaced';
  }

  /** A visible live page by slug, or 404. */
  async findVisible(slug: string, actor: AuthUser): Promise<PageEntity> {
    return (await this.findVisibleRow(slug, actor)).page;
  }

  private async findVisibleRow(slug: string, actor: AuthUser): Promise<PageRow> {
    const row = await findLivePageRow(this.dataSource, normaliseSlug(slug));
    if (!row || !this.access.canSee(row.page, actor)) throw new NotFoundProblem('page');
    return row;
  }

  /**
   * The page's groups (ids and names). group_names and page_groups are written together, so a
   * page without group names has no page_groups rows and needs no query.
   */
  private groupsOf(
    manager: EntityManager,
    page: PageEntity,
  ): Promise<{ id: string; name: string }[]> {
    if (page.groupNames.length === 0) return Promise.resolve([]);
    return this.store.groupsOf(manager, page.id);
  }

  /**
   * The optional precondition of restore: If-Match (strong; `*` is met by any existing page)
   * and/or baseRevision must name the current revision (412 / 409 otherwise).
   */
  private checkOptionalPrecondition(
    header: IfMatch | undefined,
    baseRevision: number | undefined,
    current: number,
  ): void {
    if (!ifMatchAllows(header, current)) throw staleProblem(true, current);
    if (baseRevision !== undefined && baseRevision !== current) throw staleProblem(false, current);
  }

  private async resolveGroupNames(names: string[]): Promise<{ id: string; name: string }[]> {
    if (names.length === 0) return [];
    const rows: { id: string; name: string }[] = await this.dataSource.manager
      .createQueryBuilder()
      .select('g.id', 'id')
      .addSelect('g.name', 'name')
      .from('access_groups', 'g')
      .where('g.name IN (:...names)', { names })
      .orderBy('g.name', 'ASC')
      .getRawMany();
    return rows;
  }

  private async runWrite<T>(
    work: (manager: EntityManager) => Promise<T>,
    slug: string,
  ): Promise<T> {
    try {
      return await inTransaction(this.dataSource, work);
    } catch (error) {
      if (!(error instanceof Problem) && isUniqueViolation(error)) throw slugTaken(slug);
      throw error;
    }
  }

  private emitUpdated(pageId: string, state: PageState, revision: number, actorId: string): void {
    this.events.emit(PAGE_UPDATED, {
      pageId,
      slug: state.slug,
      title: state.title,
      revision,
      ownerId: state.ownerId,
      actorId,
    } satisfies PageUpdatedEvent);
  }
}
