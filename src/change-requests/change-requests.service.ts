import { Injectable } from '@nestjs/common';
import { requireSlugsInScope } from '../common/auth/token-scope';
import { UsersService } from '../auth/public-api';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import { roleAtLeast } from '../common/auth/roles';
import { Database, Tx } from '../common/database/database';
import { isUniqueViolation } from '../common/database/unique-violation';
import type { ChangeRequestEventType } from '../common/events/domain-events';
import { Outbox } from '../common/events/outbox';
import { encodeCursor, Paged, parseListRequest } from '../common/http/pagination';
import {
  ConflictProblem,
  FieldProblem,
  FieldProblems,
  ForbiddenProblem,
  NotFoundProblem,
} from '../common/problems/problem';
import { PageRevisionsService, PagesService } from '../pages/public-api';
import { ProtectedPathsService } from '../pages/public-api';
import { normaliseSlugField, slugProblems } from '../pages/public-api';
import { approvalStatus, mayCount } from './change-request-review';
import { ChangeRequestPlanner } from './change-request-plan';
import { toChangeRequestResponse, toSummary } from './change-requests.mapper';
import {
  ChangeRequestDto,
  ChangeRequestListQueryDto,
  ChangeRequestResponse,
  ChangeRequestSummaryResponse,
  ProposedChangeDto,
} from './dto/change-request.dto';
import type { ChangeRow, Verdict } from './store/change-request-columns';
import {
  ChangeRequestsRepository,
  ChangeRequestWithAuthor,
} from './store/change-requests.repository';

type NewChange = Omit<ChangeRow, 'requestId' | 'position'>;

/** A loaded request the caller may see, with its changes. */
export interface LoadedRequest {
  request: ChangeRequestWithAuthor;
  changes: ChangeRow[];
}

export function notOpen(state: string): ConflictProblem {
  return new ConflictProblem(
    'change_request_not_open',
    `The change request is ${state}; only open requests change.`,
    { state },
  );
}

/**
 * Change requests (docs/review.md): propose, update, list, read, review and close. Merging is
 * ChangeRequestMergeService's. A request is seen by its author, administrators, and whoever
 * may see every existing page it touches; to anyone else it does not exist (404).
 */
@Injectable()
export class ChangeRequestsService {
  constructor(
    private readonly db: Database,
    private readonly requests: ChangeRequestsRepository,
    private readonly pages: PagesService,
    private readonly revisions: PageRevisionsService,
    private readonly protectedPaths: ProtectedPathsService,
    private readonly planner: ChangeRequestPlanner,
    private readonly users: UsersService,
    private readonly outbox: Outbox,
  ) {}

  /** POST: a new request, or (with the label of an open request of the caller's) its update. */
  async create(body: ChangeRequestDto, actor: AuthUser): Promise<ChangeRequestResponse> {
    const label = body.label?.trim() || null;
    if (label) {
      const existing = await this.requests.findOpenByLabel(actor.id, label);
      if (existing) return this.update(existing.id, body, actor);
    }
    const { changes, reviewerIds } = await this.prepare(body, actor);
    const now = new Date();
    const id = await this.retryOnNumberClash(() =>
      this.db.transaction(async (tx) => {
        const id = await this.requests.insert(
          {
            title: body.title.trim(),
            description: body.description ?? '',
            authorId: actor.id,
            state: 'open',
            label,
            version: 1,
            reviewerIds,
            createdAt: now,
            updatedAt: now,
            closedBy: null,
            closedAt: null,
          },
          changes,
          tx,
        );
        await this.record(tx, 'change_request.created', id, actor);
        return id;
      }),
    );
    return this.get(id, actor);
  }

  /** PUT: a new set of changes (and title, description, reviewers) by its author, while open. */
  async update(
    id: number,
    body: ChangeRequestDto,
    actor: AuthUser,
  ): Promise<ChangeRequestResponse> {
    const { request } = await this.load(id, actor);
    if (request.authorId !== actor.id && !isAdmin(actor))
      throw new ForbiddenProblem('not_the_author', 'Only its author may update a change request.');
    if (request.state !== 'open') throw notOpen(request.state);
    const { changes, reviewerIds } = await this.prepare(body, actor);
    await this.db.transaction(async (tx) => {
      const fields = {
        title: body.title.trim(),
        description: body.description ?? request.description,
        reviewerIds: body.reviewers ? reviewerIds : request.reviewerIds,
        updatedAt: new Date(),
      };
      if (!(await this.requests.replaceChanges(id, request.version, fields, changes, tx))) {
        const now = await this.requests.find(id, tx);
        if (now?.state !== 'open') throw notOpen(now?.state ?? 'closed');
        throw new ConflictProblem(
          'change_request_changed',
          'The change request was updated meanwhile; reload it and try again.',
        );
      }
      await this.record(tx, 'change_request.updated', id, actor);
    });
    return this.get(id, actor);
  }

  async get(id: number, actor: AuthUser): Promise<ChangeRequestResponse> {
    const loaded = await this.load(id, actor);
    return this.describe(loaded, actor);
  }

  /** The whole response: reviews, the protected paths' approvals, conflicts against now. */
  async describe(
    { request, changes }: LoadedRequest,
    actor: AuthUser,
  ): Promise<ChangeRequestResponse> {
    const [reviews, rules, currents] = await Promise.all([
      this.requests.reviewsOf(request.id),
      this.protectedPaths.covering(slugsOf(changes)),
      Promise.all(changes.map((c) => this.pages.findVisible(c.slug, actor))),
    ]);
    const status = approvalStatus(request, reviews, rules);
    const conflicts =
      request.state === 'open' ? (await this.planner.plan(changes, actor)).conflicts : [];
    const reviewers = await Promise.all(
      request.reviewerIds.map(
        async (userId) => (await this.users.findActiveById(userId))?.username,
      ),
    );
    const closedBy = request.closedBy
      ? ((await this.users.findActiveById(request.closedBy))?.username ?? null)
      : null;
    return toChangeRequestResponse({
      request,
      changes,
      currentRevisions: currents.map((page) => page?.revision ?? null),
      reviews,
      status,
      conflicts,
      reviewers: reviewers.filter((r): r is string => typeof r === 'string'),
      closedBy,
    });
  }

  async list(
    query: ChangeRequestListQueryDto,
    actor: AuthUser,
  ): Promise<Paged<ChangeRequestSummaryResponse>> {
    const { limit, cursor } = parseListRequest(query);
    let before = cursor && typeof cursor.b === 'number' ? cursor.b : null;
    const state = query.state === 'all' ? null : (query.state ?? 'open');
    const items: ChangeRequestSummaryResponse[] = [];
    // Requests the caller may not see are skipped; read on until the page is full.
    for (let round = 0; round < 5 && items.length < limit; round++) {
      const rows = await this.requests.list(state, before, limit + 1);
      const changes = await this.requests.changesOfMany(rows.map((r) => r.id));
      for (const row of rows.slice(0, limit)) {
        const own = changes.filter((c) => c.requestId === row.id);
        if (items.length < limit && (await this.mayView(row, own, actor)))
          items.push(toSummary(row, own));
        before = row.id;
      }
      if (rows.length <= limit) return { items, nextCursor: null };
    }
    return { items, nextCursor: before === null ? null : encodeCursor({ b: before }) };
  }

  /** Approve or request changes: an editor or administrator other than the author. */
  async review(id: number, verdict: Verdict, actor: AuthUser): Promise<ChangeRequestResponse> {
    const { request, changes } = await this.load(id, actor);
    if (request.state !== 'open') throw notOpen(request.state);
    if (request.authorId === actor.id)
      throw new ForbiddenProblem(
        'own_change_request',
        'You cannot review your own change request; ask someone else.',
      );
    const rules = await this.protectedPaths.covering(slugsOf(changes));
    if (verdict === 'approved' && !mayCount(actor, rules))
      throw new ForbiddenProblem(
        'not_a_reviewer',
        'The protected paths this request touches count approvals of other groups or people only.',
      );
    await this.db.transaction(async (tx) => {
      const now = await this.requests.find(id, tx);
      if (now?.state !== 'open') throw notOpen(now?.state ?? 'closed');
      await this.requests.putReview(
        {
          requestId: id,
          userId: actor.id,
          verdict,
          version: now.version,
          reviewerRole: actor.role,
          reviewerGroups: actor.groups,
          createdAt: new Date(),
        },
        tx,
      );
      await this.record(
        tx,
        verdict === 'approved' ? 'change_request.approved' : 'change_request.changes_requested',
        id,
        actor,
      );
    });
    return this.get(id, actor);
  }

  /** Close without merging: its author, or an editor or administrator. */
  async close(id: number, actor: AuthUser): Promise<ChangeRequestResponse> {
    const { request } = await this.load(id, actor);
    if (request.authorId !== actor.id && !roleAtLeast(actor.role, 'editor'))
      throw new ForbiddenProblem('forbidden', 'Only its author or an editor may close it.');
    if (request.state !== 'open') throw notOpen(request.state);
    await this.db.transaction(async (tx) => {
      if (!(await this.requests.finish(id, request.version, 'closed', actor.id, new Date(), tx)))
        throw notOpen('no longer open');
      await this.record(tx, 'change_request.closed', id, actor);
    });
    return this.get(id, actor);
  }

  /** The request if `actor` may see it; 404 `change_request_not_found` otherwise, alike. */
  async load(id: number, actor: AuthUser, tx?: Tx): Promise<LoadedRequest> {
    const request = Number.isSafeInteger(id) ? await this.requests.find(id, tx) : null;
    if (!request) throw new NotFoundProblem('change_request');
    const changes = await this.requests.changesOf(id, tx);
    if (!(await this.mayView(request, changes, actor))) throw new NotFoundProblem('change_request');
    return { request, changes };
  }

  /** Records a change request event inside `tx` (the feed, webhooks, inbox notices). */
  async record(
    tx: Tx,
    type: ChangeRequestEventType,
    id: number,
    actor: AuthUser,
    participantIds?: string[],
  ): Promise<void> {
    const request = (await this.requests.find(id, tx))!;
    const changes = await this.requests.changesOf(id, tx);
    const pageIds = [...new Set(changes.flatMap((c) => (c.pageId ? [c.pageId] : [])))];
    // The feed shows the event to who may see its most restricted page (docs/review.md).
    let pageId: string | null = null;
    for (const candidate of pageIds) {
      const open = await this.pages.wouldSee(candidate, { role: 'reader', groups: [] });
      if (pageId === null || !open) pageId = candidate;
      if (!open) break;
    }
    await this.outbox.record(tx, type, {
      requestId: id,
      title: request.title,
      state: request.state,
      authorId: request.authorId,
      actorId: actor.id,
      slugs: slugsOf(changes),
      pageId,
      reviewerIds: request.reviewerIds,
      ...(participantIds ? { participantIds } : {}),
    });
  }

  private async mayView(
    request: Pick<ChangeRequestWithAuthor, 'authorId'>,
    changes: Pick<ChangeRow, 'pageId'>[],
    actor: AuthUser,
  ): Promise<boolean> {
    if (isAdmin(actor) || request.authorId === actor.id) return true;
    for (const change of changes)
      if (change.pageId && !(await this.pages.wouldSee(change.pageId, actor))) return false;
    return true;
  }

  /**
   * Validates the changes and reads their bases: 422 for bad slugs, actions and members, 404
   * `page_not_found` for a page the author may not see (exactly as for a missing one), 409
   * `slug_taken` for a create or move onto a live page they see. Writes nothing.
   */
  private async prepare(
    body: ChangeRequestDto,
    actor: AuthUser,
  ): Promise<{ changes: NewChange[]; reviewerIds: string[] }> {
    const problems: FieldProblem[] = [];
    if (body.title.trim() === '')
      problems.push({ field: 'title', code: 'required', message: 'A title is required.' });
    const inputs = body.changes.map((change, i) => normalised(change, i, problems));
    const seen = new Set<string>();
    inputs.forEach((change, i) => {
      for (const slug of [change.slug, change.to].filter((s): s is string => !!s)) {
        if (seen.has(slug))
          problems.push({
            field: `changes[${i}].slug`,
            code: 'duplicate_slug',
            message: `"${slug}" is named by more than one change; one change per page.`,
          });
        seen.add(slug);
      }
    });
    if (problems.length > 0) throw new FieldProblems(problems);
    requireSlugsInScope(actor, [...seen]);

    const changes: NewChange[] = [];
    for (const [i, change] of inputs.entries()) {
      if (change.action === 'create') {
        if (await this.pages.findVisible(change.slug, actor))
          throw new ConflictProblem(
            'slug_taken',
            `A page with the slug "${change.slug}" already exists.`,
            {
              slug: change.slug,
            },
          );
        changes.push({
          ...change,
          pageId: null,
          baseRevision: null,
          baseContent: null,
          baseTitle: null,
        });
        continue;
      }
      const page = await this.pages.findVisible(change.slug, actor);
      if (!page) throw new NotFoundProblem('page');
      const base = change.baseRevision ?? page.revision;
      const text =
        base === page.revision
          ? { title: page.title, content: page.content }
          : base < page.revision
            ? await this.revisions.revisionText(page, base)
            : null;
      if (!text)
        throw new FieldProblems([
          {
            field: `changes[${i}].baseRevision`,
            code: 'unknown_revision',
            message: `The page has no revision ${base}.`,
          },
        ]);
      if (change.action === 'move' && (await this.pages.findVisible(change.to!, actor)))
        throw new ConflictProblem(
          'slug_taken',
          `A page with the slug "${change.to}" already exists.`,
          {
            slug: change.to,
          },
        );
      changes.push({
        ...change,
        pageId: page.id,
        baseRevision: base,
        baseContent: text.content,
        baseTitle: text.title,
      });
    }
    return { changes, reviewerIds: await this.reviewers(body.reviewers ?? [], changes) };
  }

  /** Reviewers by username: each must exist and see every page (else 422, nothing leaks). */
  private async reviewers(usernames: string[], changes: NewChange[]): Promise<string[]> {
    const ids: string[] = [];
    for (const [i, username] of [...new Set(usernames)].entries()) {
      const user = await this.users.findActiveByUsername(username);
      const viewer = user && { role: user.role, groups: (user.groups ?? []).map((g) => g.name) };
      let sees = viewer !== null;
      for (const change of changes)
        if (sees && viewer && change.pageId)
          sees = await this.pages.wouldSee(change.pageId, viewer);
      if (!user || !sees)
        throw new FieldProblems([
          {
            field: `reviewers[${i}]`,
            code: 'unknown_reviewer',
            message: `No user "${username}" who may see these pages.`,
          },
        ]);
      ids.push(user.id);
    }
    return ids;
  }

  /** Two requests created at once may take the same number: the loser tries again. */
  private async retryOnNumberClash<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= 5 || !isUniqueViolation(error)) throw error;
      }
    }
  }
}

/** Every slug a request touches, `to` of moves included. */
export function slugsOf(changes: Pick<ChangeRow, 'slug' | 'to'>[]): string[] {
  return [...new Set(changes.flatMap((c) => (c.to ? [c.slug, c.to] : [c.slug])))];
}

/** One change, checked member by member for its action (422 problems collected). */
function normalised(
  change: ProposedChangeDto,
  i: number,
  problems: FieldProblem[],
): Pick<NewChange, 'slug' | 'action' | 'to' | 'title' | 'content'> & { baseRevision?: number } {
  const field = (name: string) => `changes[${i}].${name}`;
  const slug = normaliseSlugField(change.slug);
  problems.push(...slugProblems(slug, field('slug'), change.action === 'create'));
  let to: string | null = null;
  const refuse = (name: string, code: string, message: string) =>
    problems.push({ field: field(name), code, message });
  if (change.action === 'move') {
    if (change.to === undefined) refuse('to', 'required', 'A move names its new slug in `to`.');
    else {
      const target = normaliseSlugField(change.to);
      to = target;
      problems.push(...slugProblems(target, field('to'), true));
      if (target === slug) refuse('to', 'same_slug', 'The page already has this slug.');
    }
    if (change.content !== undefined || change.title !== undefined)
      refuse('content', 'not_allowed', 'A move changes no content; propose an update beside it.');
  } else if (change.to !== undefined) refuse('to', 'not_allowed', 'Only a move has `to`.');
  if (change.action === 'bin' && (change.content !== undefined || change.title !== undefined))
    refuse('content', 'not_allowed', 'Binning a page takes no content.');
  if (change.action === 'update' && change.content === undefined && change.title === undefined)
    refuse('content', 'required', 'An update proposes `content`, `title` or both.');
  if (change.action === 'create' && change.content === undefined)
    refuse('content', 'required', 'A new page needs its `content`.');
  if (change.action === 'create' && change.baseRevision !== undefined)
    refuse('baseRevision', 'not_allowed', 'A new page has no base revision.');
  if (change.title !== undefined && change.title.trim() === '')
    refuse('title', 'required', 'A title may not be empty.');
  return {
    slug,
    action: change.action,
    to,
    title: change.title?.trim() ?? null,
    content: change.content ?? null,
    ...(change.baseRevision !== undefined ? { baseRevision: change.baseRevision } : {}),
  };
}
