import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { assertMayDeleteComment } from '../comments/public-api';
import { AuthUser } from '../common/auth/auth-user';
import { Database } from '../common/database/database';
import { Created } from '../common/http/created';
import { cursorPosition, Paged, parseListRequest, toPaged } from '../common/http/pagination';
import type { ListQueryDto } from '../common/http/list-query.dto';
import {
  ConflictProblem,
  fieldProblem,
  ForbiddenProblem,
  NotFoundProblem,
} from '../common/problems/problem';
import { RenderPool } from '../pages/public-api';
import { ChangeRequestsService } from './change-requests.service';
import {
  CreateReviewCommentDto,
  MAX_REVIEW_COMMENT_LENGTH,
  MAX_REVIEW_COMMENTS,
  ReviewCommentResponse,
} from './dto/change-request-comment.dto';
import type { ChangeRow, DiffSide } from './store/change-request-columns';
import {
  ChangeRequestCommentsRepository,
  RequestCommentWithAuthor,
} from './store/change-request-comments.repository';

/**
 * The text of one side of a change's diff, as the console shows it: the base is nothing for a
 * new page; the proposed text is nothing for a page to bin, the base for a move, else the
 * proposed Markdown (or the base when only the title changes).
 */
export function sideText(change: ChangeRow, side: DiffSide): string {
  const base = change.action === 'create' ? '' : (change.baseContent ?? '');
  if (side === 'base') return base;
  if (change.action === 'bin') return '';
  if (change.action === 'move') return base;
  return change.content ?? base;
}

/** Lines as the console's diff numbers them (a final newline ends the last line). */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
}

/**
 * Review comments on lines of a change request's diff (docs/review.md): whoever may see the
 * request reads and writes them; a comment is edited by its author and deleted by its author
 * or an administrator. A comment names the page change, the side and the line, and keeps that
 * line's text: when an update of the request changes the line, the thread is outdated (kept).
 */
@Injectable()
export class ChangeRequestCommentsService {
  constructor(
    private readonly db: Database,
    private readonly comments: ChangeRequestCommentsRepository,
    private readonly requests: ChangeRequestsService,
    private readonly renders: RenderPool,
  ) {}

  async list(
    id: number,
    query: ListQueryDto,
    actor: AuthUser,
  ): Promise<Paged<ReviewCommentResponse>> {
    const { changes } = await this.requests.load(id, actor);
    const { limit, cursor } = parseListRequest(query);
    const rows = await this.comments.list(id, cursorPosition(cursor), limit + 1);
    return toPaged(
      rows,
      limit,
      (row) => toResponse(row, changes),
      (row) => ({ at: row.createdAt.toISOString(), id: row.id }),
    );
  }

  async create(
    id: number,
    input: CreateReviewCommentDto,
    actor: AuthUser,
  ): Promise<Created<ReviewCommentResponse>> {
    const body = checkedBody(input.body);
    const { request, changes } = await this.requests.load(id, actor);
    let anchor: { threadId: string; slug: string; side: DiffSide; line: number; text: string };
    const commentId = randomUUID();
    if (input.parentId !== undefined) {
      const parent = await this.comments.find(id, input.parentId);
      if (!parent) throw fieldProblem('parentId', 'not_found', 'No such comment on this request.');
      anchor = {
        threadId: parent.threadId,
        slug: parent.slug,
        side: parent.side,
        line: parent.line,
        text: parent.lineText,
      };
    } else {
      const side = input.side ?? 'proposed';
      if (input.slug === undefined)
        throw fieldProblem('slug', 'required', 'Name the page change the comment is on.');
      if (input.line === undefined)
        throw fieldProblem('line', 'required', 'Name the line of the diff the comment is on.');
      const change = changes.find((c) => c.slug === input.slug);
      if (!change)
        throw fieldProblem(
          'slug',
          'not_in_request',
          `The request changes no page "${input.slug}".`,
        );
      const lines = linesOf(sideText(change, side));
      if (input.line > lines.length)
        throw fieldProblem(
          'line',
          'line_out_of_range',
          `The ${side} text of ${change.slug} has ${lines.length} line${lines.length === 1 ? '' : 's'}.`,
        );
      anchor = {
        threadId: commentId,
        slug: change.slug,
        side,
        line: input.line,
        text: lines[input.line - 1],
      };
    }
    const html = await this.renders.render(body, {}, anchor.slug);
    const now = new Date();
    await this.db.transaction(async (tx) => {
      if ((await this.comments.count(id, tx)) >= MAX_REVIEW_COMMENTS)
        throw new ConflictProblem(
          'too_many_comments',
          `A change request holds at most ${MAX_REVIEW_COMMENTS} comments.`,
        );
      const participants =
        anchor.threadId === commentId ? [] : await this.comments.participants(anchor.threadId, tx);
      await this.comments.insert(
        {
          id: commentId,
          requestId: id,
          threadId: anchor.threadId,
          parentId: input.parentId ?? null,
          authorId: actor.id,
          slug: anchor.slug,
          side: anchor.side,
          line: anchor.line,
          lineText: anchor.text,
          version: request.version,
          body,
          html,
          createdAt: now,
          updatedAt: now,
          editedAt: null,
        },
        tx,
      );
      await this.requests.record(tx, 'change_request.commented', id, actor, participants);
    });
    const made = (await this.comments.find(id, commentId))!;
    return new Created(toResponse(made, changes), `/api/change-requests/${id}/comments`);
  }

  /** Edits the body: its author only. */
  async update(
    id: number,
    commentId: string,
    input: { body: string },
    actor: AuthUser,
  ): Promise<ReviewCommentResponse> {
    const body = checkedBody(input.body);
    const { changes } = await this.requests.load(id, actor);
    const comment = await this.found(id, commentId);
    if (comment.authorId !== actor.id)
      throw new ForbiddenProblem('not_comment_author', 'Only its author may edit a comment.');
    const html = await this.renders.render(body, {}, comment.slug);
    await this.db.transaction((tx) =>
      this.comments.updateBody(commentId, body, html, new Date(), tx),
    );
    return toResponse((await this.comments.find(id, commentId))!, changes);
  }

  /**
   * Deletes a comment: its author or an administrator. A thread's first comment takes the
   * thread with it, which only an administrator may do once others replied.
   */
  async delete(id: number, commentId: string, actor: AuthUser): Promise<void> {
    await this.requests.load(id, actor);
    const comment = await this.found(id, commentId);
    await this.db.transaction(async (tx) => {
      await assertMayDeleteComment(comment, actor, () =>
        this.comments.hasRepliesByOthers(comment.id, comment.authorId, tx),
      );
      await this.comments.delete(comment, tx);
    });
  }

  private async found(id: number, commentId: string): Promise<RequestCommentWithAuthor> {
    const comment = await this.comments.find(id, commentId);
    if (!comment) throw new NotFoundProblem('comment');
    return comment;
  }
}

function checkedBody(body: string): string {
  const trimmed = body.trim();
  if (trimmed.length === 0) throw fieldProblem('body', 'required', 'Write something.');
  if (body.length > MAX_REVIEW_COMMENT_LENGTH)
    throw fieldProblem(
      'body',
      'too_long',
      `A comment has at most ${MAX_REVIEW_COMMENT_LENGTH} characters (this one has ${body.length}).`,
    );
  return trimmed;
}

/**
 * Where the thread's line is in the request as it is now: the line with the text it was written
 * on nearest its old number (an update that adds lines above moves it); null when the page
 * change is gone or no line has that text any more (the thread is outdated, kept at its old line).
 */
export function currentLine(lines: string[] | null, line: number, text: string): number | null {
  if (!lines) return null;
  if (lines[line - 1] === text) return line;
  for (let distance = 1; distance < lines.length; distance++) {
    if (lines[line - 1 - distance] === text) return line - distance;
    if (lines[line - 1 + distance] === text) return line + distance;
  }
  return null;
}

function toResponse(row: RequestCommentWithAuthor, changes: ChangeRow[]): ReviewCommentResponse {
  const change = changes.find((c) => c.slug === row.slug);
  const now = currentLine(
    change ? linesOf(sideText(change, row.side)) : null,
    row.line,
    row.lineText,
  );
  return {
    id: row.id,
    threadId: row.threadId,
    parentId: row.parentId,
    slug: row.slug,
    side: row.side,
    line: now ?? row.line,
    lineText: row.lineText,
    version: row.version,
    outdated: now === null,
    body: row.body,
    html: row.html,
    author: row.author
      ? { id: row.author.id, username: row.author.username, displayName: row.author.displayName }
      : null,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
  };
}
