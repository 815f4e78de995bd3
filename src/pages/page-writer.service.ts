import { Injectable } from '@nestjs/common';
import { requireSlugsInScope } from '../common/auth/token-scope';
import { GroupsService } from '../auth/public-api';
import { AuthUser } from '../common/auth/auth-user';
import { Database, Tx } from '../common/database/database';
import { isUniqueViolation } from '../common/database/unique-violation';
import { PAGE_CREATED, PAGE_UPDATED } from '../common/events/domain-events';
import { Outbox } from '../common/events/outbox';
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
import { PageAccessService } from './page-access.service';
import { PageInput, PageInputService } from './page-input.service';
import type { RevisionMetadata } from './model/page-metadata';
import { GroupRef, PageState, sameMarkdown, sameState, stateOf } from './model/page-state';
import { ImportedPage, ImportOutcome } from './model/page-shapes';
import { PageDeriver } from './page-deriver';
import { ProtectedPathsService } from './protection/protected-paths.service';
import type { PageRecord } from './model/page-columns';
import type { PageRow } from './store/page-rows';
import { PagesRepository } from './store/pages.repository';
import { IfMatch, ifMatchAllows, parseIfMatch } from './model/preconditions';
import { fittedSummary, withSummary } from './model/revision-summary';
import { normaliseSlug, normaliseSlugField, slugProblems } from './model/slug';

/**
 * How a write runs: on its own (a direct save, checked against protected paths) or inside a
 * change request's merge (`tx`, the merge's transaction; `changeRequest`: the request was
 * approved, so protected paths do not refuse it).
 */
export interface WriteOptions {
  tx?: Tx;
  changeRequest?: boolean;
  /** The summary of the revisions a move writes (a create or update takes the body's). */
  summary?: string;
  /** Who typed since the previous revision in a live session (docs/collab.md). */
  coAuthors?: string[];
  /**
   * Inside a caller's transaction (`tx`) that commits later (a batch): what runs after a
   * commit, such as a move's audit line, is pushed here for the caller to run after its commit.
   */
  afterCommit?: (() => void)[];
  /**
   * Runs inside the write's transaction once the new revision is in (an update only): a live
   * session records that this revision came from it, all or nothing with the revision.
   */
  written?: (tx: Tx, revision: number) => Promise<void>;
}

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

/** Create, update, restore and import: every change writes a revision inside one transaction. */
@Injectable()
export class PageWriterService {
  constructor(
    private readonly db: Database,
    private readonly pages: PagesRepository,
    private readonly input: PageInputService,
    private readonly deriver: PageDeriver,
    private readonly access: PageAccessService,
    private readonly groups: GroupsService,
    private readonly outbox: Outbox,
    private readonly protectedPaths: ProtectedPathsService,
  ) {}

  async create(
    body: CreatePageDto,
    actor: AuthUser,
    options: WriteOptions = {},
  ): Promise<PageRecord> {
    const { summary: sent, ...fields } = withoutReadOnlyMembers(body);
    const { value: state, summary } = await withSummary(sent, () =>
      this.input.resolve(fields, actor, null, undefined),
    );
    requireSlugsInScope(actor, [state.slug]);
    if (!options.changeRequest) await this.protectedPaths.checkDirectWrite([state.slug], actor);
    const derived = await this.deriver.derive(state);
    return this.runWrite(
      async (tx) => {
        if (await this.pages.liveSlugTaken(state.slug, tx)) throw slugTaken(state.slug);
        const page = await this.pages.insert(
          { state, derived, actorId: actor.id, action: 'created', summary },
          tx,
        );
        await this.outbox.record(tx, PAGE_CREATED, {
          pageId: page.id,
          slug: page.slug,
          title: page.title,
          ownerId: page.ownerId,
          actorId: actor.id,
          summary,
        });
        return page;
      },
      state.slug,
      options.tx,
    );
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
    options: WriteOptions = {},
  ): Promise<string> {
    const { baseRevision: _ignored, summary: sent, ...fields } = withoutReadOnlyMembers(body);
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

    const current = stateOf(page, await this.groupsOf(page));
    const { value: state, summary } = await withSummary(sent, () =>
      this.input.resolve(fields, actor, current, undefined, { currentPageId: page.id }),
    );
    // Nothing changed: no revision, so nothing to hold a summary either.
    if (sameState(state, current)) return page.id;
    requireSlugsInScope(actor, [page.slug, state.slug]);
    if (!options.changeRequest)
      await this.protectedPaths.checkDirectWrite([...new Set([page.slug, state.slug])], actor);
    // The site-variables version came with the page row: no second read of it.
    const derived = await this.deriver.derive(state, undefined, row.siteVersion);
    await this.runWrite(
      async (tx) => {
        if (state.slug !== page.slug && (await this.pages.liveSlugTaken(state.slug, tx)))
          throw slugTaken(state.slug);
        const written = await this.pages.updateIfAt(
          {
            pageId: page.id,
            baseRevision: base,
            state,
            derived,
            actorId: actor.id,
            action: 'updated',
            summary,
            coAuthors: options.coAuthors,
            previous: current,
          },
          tx,
        );
        if (written === null) {
          const now = await this.pages.findById(page.id, tx);
          if (!now || now.liveSlug === null) throw new NotFoundProblem('page');
          throw stale(now.revision);
        }
        await this.recordUpdated(tx, page.id, state, written, actor.id, summary);
        await options.written?.(tx, written);
      },
      state.slug,
      options.tx,
    );
    return page.id;
  }

  /** Writes a new revision holding an old revision's title, content and metadata. */
  async restoreRevision(
    revisionId: string,
    actor: AuthUser,
    precondition: Precondition,
  ): Promise<string> {
    const old = (await this.pages.findRevision(revisionId))?.revision;
    const page = old ? await this.pages.findById(old.pageId) : null;
    if (!old || !page || !this.access.canSee(page, actor)) throw new NotFoundProblem('revision');
    this.checkOptionalPrecondition(
      parseIfMatch(precondition.ifMatch),
      precondition.baseRevision,
      page.revision,
    );
    const current = stateOf(page, await this.pages.groupsOf(page.id));
    // Every rule an update runs (groups assignable by the actor, keeping their own access,
    // targets they can see, ...): a refused restore writes nothing.
    const state = await this.input.resolve(
      await this.restorableFields(old.title, old.content, old.metadata),
      actor,
      current,
      undefined,
      { currentPageId: page.id },
    );
    requireSlugsInScope(actor, [page.slug]);
    await this.protectedPaths.checkDirectWrite([page.slug], actor);
    const derived = await this.deriver.derive(state);
    await this.runWrite(async (tx) => {
      const written = await this.pages.updateIfAt(
        {
          pageId: page.id,
          baseRevision: page.revision,
          state,
          derived,
          actorId: actor.id,
          action: 'restored',
          previous: current,
        },
        tx,
      );
      if (written === null) {
        const now = await this.pages.findById(page.id, tx);
        throw new ConflictProblem(
          'revision_conflict',
          'The page changed while restoring; try again.',
          { currentRevision: now?.revision ?? null },
        );
      }
      await this.recordUpdated(tx, page.id, state, written, actor.id, null);
    }, state.slug);
    return page.id;
  }

  /**
   * CONTRACTS: import inside the caller's transaction, no page events (the import records
   * `import.finished` in the same transaction). A new slug is created
   * verified; an existing live slug keeps its metadata unless the document sets it.
   */
  async upsertImported(tx: Tx, doc: ImportedPage, actor: AuthUser): Promise<ImportOutcome> {
    const compared = await this.compareImported(doc, actor, tx);
    if (compared.outcome === 'unchanged') return 'unchanged';
    if (compared.outcome === 'created') {
      const { slug, fields, importer } = compared;
      const problems = slugProblems(slug, 'slug', true);
      if (problems.length > 0) throw new FieldProblems(problems);
      const state = await this.input.resolve(
        { ...fields, slug, verified: doc.verified ?? true },
        importer,
        null,
        tx,
      );
      const derived = this.deriver.deriveWithoutHtml(state);
      await this.pages.insert(
        {
          state,
          derived,
          actorId: actor.id,
          action: 'imported',
          summary: fittedSummary(doc.summary),
        },
        tx,
      );
      return 'created';
    }
    const { slug, existing, state, current } = compared;
    const written = await this.pages.updateIfAt(
      {
        pageId: existing.id,
        baseRevision: existing.revision,
        state,
        derived: this.deriver.deriveWithoutHtml(state),
        actorId: actor.id,
        action: 'imported',
        summary: fittedSummary(doc.summary),
        previous: current,
      },
      tx,
    );
    if (written === null)
      throw new ConflictProblem(
        'revision_conflict',
        `The page "${slug}" changed during the import.`,
      );
    return 'replaced';
  }

  /**
   * CONTRACTS: what upsertImported would answer for the document, without writing — the same
   * comparison (title, content, every metadata field), so a dry run predicts what the import
   * does. Throws the FieldProblems the write would throw for an existing page.
   */
  async predictImported(doc: ImportedPage, actor: AuthUser, tx?: Tx): Promise<ImportOutcome> {
    return (await this.compareImported(doc, actor, tx)).outcome;
  }

  /** The one comparison of an imported document with the live page of its slug. */
  private async compareImported(doc: ImportedPage, actor: AuthUser, tx: Tx | undefined) {
    const { slug: rawSlug, nextReviewAt, summary: _summary, ...rest } = doc;
    const slug = normaliseSlugField(rawSlug);
    const existing = await this.pages.findLive(slug, tx);
    const fields = {
      ...rest,
      nextReviewAt: nextReviewAt instanceof Date ? nextReviewAt.toISOString() : nextReviewAt,
    };
    // Imports are admin operations: group assignment and targets are checked as for an admin.
    const importer: AuthUser = { ...actor, role: 'admin' };
    if (!existing) return { outcome: 'created' as const, slug, fields, importer };
    const current = stateOf(existing, await this.groupsOf(existing, tx));
    // Content that differs only where Markdown does not (line ends, blank lines at the ends)
    // is the stored content: re-importing an export changes nothing.
    if (typeof fields.content === 'string' && sameMarkdown(fields.content, existing.content))
      fields.content = existing.content;
    const state = await this.input.resolve(fields, importer, current, tx, {
      currentPageId: existing.id,
    });
    return {
      outcome: sameState(state, current) ? ('unchanged' as const) : ('replaced' as const),
      slug,
      existing,
      state,
      current,
    };
  }

  private async findVisibleRow(slug: string, actor: AuthUser): Promise<PageRow> {
    const row = await this.pages.findLiveRow(normaliseSlug(slug));
    if (!row || !this.access.canSee(row.page, actor)) throw new NotFoundProblem('page');
    return row;
  }

  /**
   * The page's groups (ids and names). group_names and page_groups are written together, so a
   * page without group names has no page_groups rows and needs no query.
   */
  private groupsOf(page: PageRecord, tx?: Tx): Promise<GroupRef[]> {
    if (page.groupNames.length === 0) return Promise.resolve([]);
    return this.pages.groupsOf(page.id, tx);
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

  /**
   * An old revision as update input: its title, content and metadata, without what no longer
   * exists — groups since deleted, a deprecated target that is no longer a live page, an owner
   * whose account is gone (the current owner stays). The slug stays the page's current one.
   */
  private async restorableFields(
    title: string,
    content: string,
    metadata: RevisionMetadata,
  ): Promise<PageInput & { ownerId?: string | null }> {
    const { ownerId, groups, deprecatedTarget, ...rest } = metadata;
    const existingGroups =
      groups.length === 0 ? [] : (await this.groups.findNamed(groups)).map((g) => g.name);
    const targetLive = deprecatedTarget ? await this.pages.liveSlugTaken(deprecatedTarget) : false;
    const ownerExists = ownerId === null || (await this.pages.usernameOf(ownerId)) !== null;
    return {
      ...rest,
      title,
      content,
      groups: existingGroups,
      deprecatedTarget: targetLive ? deprecatedTarget : null,
      ...(ownerExists ? { ownerId } : {}),
    };
  }

  private async runWrite<T>(work: (tx: Tx) => Promise<T>, slug: string, tx?: Tx): Promise<T> {
    try {
      return await this.db.transaction(work, tx);
    } catch (error) {
      if (!(error instanceof Problem) && isUniqueViolation(error)) throw slugTaken(slug);
      throw error;
    }
  }

  private recordUpdated(
    tx: Tx,
    pageId: string,
    state: PageState,
    revision: number,
    actorId: string,
    summary: string | null,
  ): Promise<void> {
    return this.outbox.record(tx, PAGE_UPDATED, {
      pageId,
      slug: state.slug,
      title: state.title,
      revision,
      ownerId: state.ownerId,
      actorId,
      summary,
    });
  }

  /**
   * CONTRACTS: a live editing session's shared text written as a revision of the page at
   * `baseRevision` by `user` with `coAuthors` (usernames), through the same use case as a PUT
   * (events, links, search, outbox); the new revision, or `baseRevision` when the text is
   * already the page's. A stale base answers 409 `revision_conflict`. `written` runs in the
   * revision's transaction (collab marks the revision as the session's own).
   */
  async writeSessionText(
    pageId: string,
    content: string,
    user: AuthUser,
    baseRevision: number,
    coAuthors: string[],
    written?: (tx: Tx, revision: number) => Promise<void>,
  ): Promise<number> {
    const page = await this.pages.findById(pageId);
    if (!page || page.liveSlug === null) throw new NotFoundProblem('page');
    await this.update(page.liveSlug, { content }, user, { baseRevision }, { coAuthors, written });
    return (await this.pages.findById(pageId))?.revision ?? baseRevision;
  }

  /**
   * CONTRACTS: co-authors (usernames) of a revision that carries none yet: the editor's Save
   * wrote a live session's text through PUT, and the session knows who typed (collab).
   */
  setCoAuthors(pageId: string, revision: number, coAuthors: string[]): Promise<void> {
    return this.pages.setCoAuthors(pageId, revision, coAuthors);
  }
}
