import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { UsersService } from '../auth/public-api';
import { AuthUser } from '../common/auth/auth-user';
import { roleAtLeast } from '../common/auth/roles';
import { InjectConfig } from '../common/config/app-config';
import type { CommentsConfig } from '../common/config/comments-config';
import { Database } from '../common/database/database';
import {
  COMMENT_CREATED,
  COMMENT_DELETED,
  COMMENT_REOPENED,
  COMMENT_RESOLVED,
  COMMENT_UPDATED,
  CommentEvent,
} from '../common/events/domain-events';
import { Outbox } from '../common/events/outbox';
import { Created, locationOf } from '../common/http/created';
import { cursorDate, cursorString, ListRequest, toPaged } from '../common/http/pagination';
import {
  BadRequestProblem,
  fieldProblem,
  ForbiddenProblem,
  NotFoundProblem,
  Problem,
} from '../common/problems/problem';
import { PageAccessService } from '../pages/public-api';
import { PagesService } from '../pages/public-api';
import type { PageRecord } from '../pages/public-api';
import { RenderPool } from '../pages/public-api';
import {
  collapseSpaces,
  CONTEXT_LENGTH,
  contextAt,
  locate,
  MAX_QUOTE_LENGTH,
  normaliseText,
} from './anchoring';
import type { CommentRecord, StoredAnchor } from './comment-columns';
import { CommentAnchorsService } from './comment-anchors.service';
import { toCommentResponse } from './comments.mapper';
import { assertMayDeleteComment } from './comment-deletion';
import { CommentCursor, CommentRow, CommentsRepository, CommentState } from './comments.repository';
import {
  CommentAnchorDto,
  CommentList,
  CommentResponse,
  CreateCommentDto,
  MAX_COMMENT_LENGTH,
  MentionCandidate,
} from './dto/comment.dto';
import { mentionsIn } from './mentions';

/**
 * Comments on pages (docs/comments.md): who may see, write, edit, delete, resolve; mentions;
 * anchors of inline threads. Every rule about the page goes through the pages module's
 * visibility (a comment of a page the caller may not see is 404 like a missing one).
 */
@Injectable()
export class CommentsService {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly anchors: CommentAnchorsService,
    private readonly db: Database,
    private readonly outbox: Outbox,
    private readonly pages: PagesService,
    private readonly access: PageAccessService,
    private readonly renders: RenderPool,
    private readonly users: UsersService,
    @InjectConfig('comments') private readonly config: CommentsConfig,
  ) {}

  async list(
    user: AuthUser,
    slug: string | undefined,
    state: CommentState,
    request: ListRequest,
  ): Promise<CommentList> {
    if (slug === undefined || slug.trim() === '')
      throw new BadRequestProblem('slug_required', 'Name the page: /api/comments?slug=<slug>.');
    const page = await this.pages.getVisible(slug, user);
    await this.anchors.refresh(page);
    const [rows, threads] = await Promise.all([
      this.comments.listOfPage(page.id, state, cursorOf(request.cursor), request.limit + 1),
      this.comments.countThreads(page.id),
    ]);
    const paged = toPaged(rows, request.limit, toCommentResponse, (c) => ({
      ta: c.threadCreatedAt.toISOString(),
      t: c.threadId,
      at: c.createdAt.toISOString(),
      id: c.id,
    }));
    return { ...paged, threads };
  }

  async create(user: AuthUser, input: CreateCommentDto): Promise<Created<CommentResponse>> {
    this.mayComment(user);
    const body = checkedBody(input.body);
    const page = await this.pages.getVisible(input.slug, user);
    let threadId: string | null = null;
    if (input.parentId !== undefined) {
      if (input.anchor !== undefined)
        throw fieldProblem(
          'anchor',
          'reply_anchored',
          'A reply belongs to its thread; it has no anchor of its own.',
        );
      const parent = await this.comments.findById(input.parentId);
      if (!parent || parent.pageId !== page.id)
        throw fieldProblem('parentId', 'not_found', 'No such comment on this page.');
      threadId = parent.threadId;
    }
    const anchor = input.anchor ? await this.anchorFor(page, input.anchor) : null;
    const mentioned = await this.checkMentions(page, mentionsIn(body));
    const html = await this.renders.render(body, {}, page.slug);
    const now = new Date();
    const id = randomUUID();
    const comment: CommentRecord = {
      id,
      pageId: page.id,
      threadId: threadId ?? id,
      parentId: input.parentId ?? null,
      authorId: user.id,
      body,
      html,
      anchor,
      outdated: false,
      anchorRevision: anchor ? page.revision : null,
      resolvedAt: null,
      resolvedBy: null,
      createdAt: now,
      updatedAt: now,
      editedAt: null,
    };
    await this.db.transaction(async (tx) => {
      await this.comments.insert(comment, tx);
      const participants = threadId ? await this.comments.participantsOf(threadId, tx) : [];
      await this.outbox.record(tx, COMMENT_CREATED, {
        ...this.event(comment, page, user),
        body,
        mentionedIds: mentioned.filter((m) => m !== user.id),
        participantIds: participants.filter((p) => p !== user.id),
      });
    });
    const saved = await this.respond(id);
    return new Created(saved, locationOf('comments', id));
  }

  /** Only the author edits a comment; people mentioned for the first time are told. */
  async update(user: AuthUser, id: string, input: { body: string }): Promise<CommentResponse> {
    const { comment, page } = await this.visible(user, id);
    if (comment.authorId !== user.id)
      throw new ForbiddenProblem('not_comment_author', 'Only its author may edit a comment.');
    const body = checkedBody(input.body);
    const before = new Set(mentionsIn(comment.body).map((name) => name.toLowerCase()));
    const added = mentionsIn(body).filter((name) => !before.has(name.toLowerCase()));
    const mentioned = await this.checkMentions(page, added);
    const html = await this.renders.render(body, {}, page.slug);
    await this.db.transaction(async (tx) => {
      await this.comments.updateBody(id, body, html, new Date(), tx);
      await this.outbox.record(tx, COMMENT_UPDATED, {
        ...this.event(comment, page, user),
        body,
        mentionedIds: mentioned.filter((m) => m !== user.id),
      });
    });
    return this.respond(id);
  }

  /**
   * Its author or an administrator deletes a comment; the first comment of a thread takes the
   * thread with it, which only an administrator may do once others replied.
   */
  async delete(user: AuthUser, id: string): Promise<void> {
    const { comment, page } = await this.visible(user, id);
    await this.db.transaction(async (tx) => {
      await assertMayDeleteComment(
        comment,
        user,
        () => this.comments.hasRepliesByOthers(comment.id, comment.authorId, tx),
        'resolve it instead, or ask an administrator to delete it.',
      );
      await this.comments.delete(comment, tx);
      await this.outbox.record(tx, COMMENT_DELETED, this.event(comment, page, user));
    });
  }

  /** Resolves or reopens the comment's thread: its author, editors and administrators. */
  async setResolved(user: AuthUser, id: string, resolved: boolean): Promise<CommentResponse> {
    const { comment, page } = await this.visible(user, id);
    const thread =
      comment.id === comment.threadId ? comment : await this.comments.findById(comment.threadId);
    if (!thread) throw new NotFoundProblem('comment');
    if (thread.authorId !== user.id && !roleAtLeast(user.role, 'editor'))
      throw new ForbiddenProblem(
        'not_allowed_to_resolve',
        "Only the thread's author, editors and administrators may resolve or reopen it.",
      );
    await this.db.transaction(async (tx) => {
      const changed = await this.comments.setResolved(
        thread.id,
        resolved ? new Date() : null,
        resolved ? user.id : null,
        tx,
      );
      // Already in that state: nothing happened, nothing is recorded.
      if (changed)
        await this.outbox.record(
          tx,
          resolved ? COMMENT_RESOLVED : COMMENT_REOPENED,
          this.event(thread, page, user),
        );
    });
    return this.respond(id);
  }

  /**
   * People the caller may mention on the page: active users who may see it, whose username or
   * display name starts with `q` (username and display name only).
   */
  async mentionable(
    user: AuthUser,
    slug: string,
    q: string | undefined,
  ): Promise<MentionCandidate[]> {
    const page = await this.pages.getVisible(slug, user);
    const needle = (q ?? '').trim().toLowerCase();
    const found = await this.users.list({ limit: 100, cursor: null }, needle || undefined);
    return found.items
      .filter(
        (u) =>
          !u.disabled &&
          (u.username.toLowerCase().startsWith(needle) ||
            u.displayName
              .toLowerCase()
              .split(/\s+/)
              .some((word) => word.startsWith(needle))) &&
          this.access.canSee(page, { role: u.role, groups: u.groups }),
      )
      .slice(0, 10)
      .map((u) => ({ username: u.username, displayName: u.displayName }));
  }

  /** The comment and its page, if the caller may see the page; else 404 like a missing one. */
  private async visible(
    user: AuthUser,
    id: string,
  ): Promise<{ comment: CommentRow; page: PageRecord }> {
    const comment = await this.comments.findById(id);
    const page = comment ? await this.pages.findLiveById(comment.pageId) : null;
    if (!comment || !page || !this.access.canSee(page, user)) throw new NotFoundProblem('comment');
    return { comment, page };
  }

  private async respond(id: string): Promise<CommentResponse> {
    const row = await this.comments.findById(id);
    if (!row) throw new NotFoundProblem('comment');
    return toCommentResponse(row);
  }

  private mayComment(user: AuthUser): void {
    if (this.config.who === 'editors' && !roleAtLeast(user.role, 'editor'))
      throw new ForbiddenProblem(
        'comments_editors_only',
        'On this site only editors and administrators comment.',
      );
  }

  /** The anchor of a new inline thread: the quote must be in the page, where `start` says if given. */
  private async anchorFor(page: PageRecord, input: CommentAnchorDto): Promise<StoredAnchor> {
    const quote = normaliseText(input.quote);
    if (quote.length === 0 || quote.length > MAX_QUOTE_LENGTH)
      throw fieldProblem(
        'anchor.quote',
        'out_of_range',
        `The quote must be 1-${MAX_QUOTE_LENGTH} characters.`,
      );
    const text = await this.anchors.textOf(page);
    if (input.start !== undefined && input.start + quote.length > text.length)
      throw new Problem(
        422,
        'anchor_out_of_range',
        `The passage ends past the end of the page's text (${text.length} characters).`,
        {
          errors: [
            {
              field: 'anchor.start',
              code: 'anchor_out_of_range',
              message: 'Past the end of the page.',
            },
          ],
        },
      );
    const target = {
      quote,
      prefix: collapseSpaces(input.prefix ?? '').slice(-CONTEXT_LENGTH),
      suffix: collapseSpaces(input.suffix ?? '').slice(0, CONTEXT_LENGTH),
      start: input.start ?? 0,
    };
    const span =
      input.start !== undefined && text.startsWith(quote, input.start)
        ? { start: input.start, end: input.start + quote.length }
        : locate(text, target);
    if (!span || text.slice(span.start, span.end) !== quote)
      throw new Problem(
        422,
        'anchor_not_found',
        'The quoted passage is not in the page as it is now.',
        {
          errors: [
            { field: 'anchor.quote', code: 'anchor_not_found', message: 'Not in the page.' },
          ],
        },
      );
    const context = contextAt(text, span);
    return {
      quote,
      prefix: target.prefix || context.prefix,
      suffix: target.suffix || context.suffix,
      ...span,
    };
  }

  /**
   * The ids of the people mentioned; every one must be an active user who may see the page, or
   * the comment is refused naming the mentions that cannot be notified, the same for unknown
   * and unauthorised names (so nothing says who exists or who may see what).
   */
  private async checkMentions(page: PageRecord, names: string[]): Promise<string[]> {
    const ids: string[] = [];
    const refused: string[] = [];
    for (const name of names.slice(0, 50)) {
      const user = await this.users.findActiveByUsername(name);
      const viewer = user && { role: user.role, groups: (user.groups ?? []).map((g) => g.name) };
      if (user && viewer && this.access.canSee(page, viewer)) ids.push(user.id);
      else refused.push(name);
    }
    if (names.length > 50) refused.push(...names.slice(50));
    if (refused.length > 0)
      throw new Problem(
        422,
        'mention_not_allowed',
        `These mentions cannot be notified: ${refused.map((n) => `@${n}`).join(', ')}. Mention only people who can read this page.`,
        { mentions: refused },
      );
    return ids;
  }

  private event(comment: CommentRecord, page: PageRecord, actor: AuthUser): CommentEvent {
    return {
      commentId: comment.id,
      threadId: comment.threadId,
      parentId: comment.parentId,
      pageId: page.id,
      slug: page.slug,
      title: page.title,
      actorId: actor.id,
    };
  }
}

function checkedBody(body: string): string {
  const trimmed = body.trim();
  if (trimmed.length === 0) throw fieldProblem('body', 'required', 'Write something.');
  if (body.length > MAX_COMMENT_LENGTH)
    throw fieldProblem(
      'body',
      'too_long',
      `A comment has at most ${MAX_COMMENT_LENGTH} characters (this one has ${body.length}).`,
    );
  return trimmed;
}

function cursorOf(cursor: Record<string, unknown> | null): CommentCursor | undefined {
  if (!cursor) return undefined;
  return {
    threadAt: cursorDate(cursor, 'ta'),
    threadId: cursorString(cursor, 't'),
    at: cursorDate(cursor, 'at'),
    id: cursorString(cursor, 'id'),
  };
}
