import { TokenVerb } from '../common/auth/token-scope';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/route-policy';
import { answerWrite } from '../common/http/created';
import { parseListRequest } from '../common/http/pagination';
import { UuidParam } from '../common/http/uuid-param.pipe';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { CommentsService } from './comments.service';
import {
  CommentList,
  CommentListQueryDto,
  CommentResponse,
  CreateCommentDto,
  MentionCandidateList,
  MentionQueryDto,
  UpdateCommentDto,
} from './dto/comment.dto';

/**
 * Comments live at /api/comments?slug= (not under /api/pages/{slug...}, where a slug may end in
 * any segment), as revisions do. Anyone who may read the page may read and write them
 * (COMMENTS=editors: write only editors and administrators).
 */
@ApiTags('comments')
@TokenVerb('comment')
@Controller('api/comments')
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Get()
  @ApiOperation({
    summary: "A page's comments: ?slug=<slug>&state=open|resolved|all",
    description:
      'Threads in the order they were started, each followed by its replies (`parentId`). ' +
      'Inline threads carry their `anchor`, matched against the current revision; `outdated` ' +
      'when the passage is gone (the quote is kept). `threads` counts open and resolved ' +
      'threads. 404 `page_not_found` for a page you may not see.',
  })
  @ApiResult(CommentList)
  @ApiProblems(404)
  listComments(
    @Query() query: CommentListQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<CommentList> {
    return this.comments.list(user, query.slug, query.state ?? 'open', parseListRequest(query));
  }

  @Get('mentionable')
  @ApiOperation({
    summary: 'People who may be mentioned on a page (autocomplete): ?slug=&q=',
    description:
      'At most ten active users who may read the page, whose username or a word of whose display ' +
      'name starts with `q`; only usernames and display names.',
  })
  @ApiResult(MentionCandidateList)
  @ApiProblems(404)
  async listMentionable(
    @Query() query: MentionQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<MentionCandidateList> {
    return { items: await this.comments.mentionable(user, query.slug, query.q) };
  }

  @Post()
  @ApiOperation({
    summary: 'Comment on a page, start an inline thread (`anchor`) or reply (`parentId`)',
    description:
      'Markdown up to 10,000 characters, rendered and sanitised as pages are. `@username` puts a ' +
      "notice in that person's inbox; a mention of someone who cannot read the page (or of no " +
      'one) refuses the comment: 422 `mention_not_allowed` with `mentions`. An anchor names a ' +
      "passage of the page's text: 422 `anchor_not_found` when it is not there, " +
      "`anchor_out_of_range` when `start` is past the end. A reply tells the thread's author " +
      'and earlier repliers. 404 for a page you may not see (or one in the bin); 403 ' +
      '`comments_editors_only` for readers when COMMENTS=editors.',
  })
  @ApiResult(CommentResponse, { headers: ['Location'] })
  @ApiProblems(403, 404)
  async createComment(
    @Body() body: CreateCommentDto,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CommentResponse> {
    return answerWrite(res, await this.comments.create(user, body));
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Edit your comment',
    description: 'Only its author. People mentioned for the first time are told.',
  })
  @ApiResult(CommentResponse)
  @ApiProblems(403, 404)
  updateComment(
    @Param('id', new UuidParam('comment')) id: string,
    @Body() body: UpdateCommentDto,
    @CurrentUser() user: AuthUser,
  ): Promise<CommentResponse> {
    return this.comments.update(user, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a comment (its author, or an administrator)',
    description:
      "A thread's first comment takes the thread with it; once others replied only an " +
      'administrator may (409 `comment_has_replies`).',
  })
  @ApiProblems(403, 404, 409)
  async deleteComment(
    @Param('id', new UuidParam('comment')) id: string,
    @CurrentUser() user: AuthUser,
  ): Promise<void> {
    await this.comments.delete(user, id);
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @ApiOperation({
    summary: "Resolve the comment's thread (its author, editors, administrators; idempotent)",
  })
  @ApiResult(CommentResponse)
  @ApiProblems(403, 404)
  resolveComment(
    @Param('id', new UuidParam('comment')) id: string,
    @CurrentUser() user: AuthUser,
  ): Promise<CommentResponse> {
    return this.comments.setResolved(user, id, true);
  }

  @Post(':id/reopen')
  @HttpCode(200)
  @ApiOperation({
    summary: "Reopen the comment's thread (its author, editors, administrators; idempotent)",
  })
  @ApiResult(CommentResponse)
  @ApiProblems(403, 404)
  reopenComment(
    @Param('id', new UuidParam('comment')) id: string,
    @CurrentUser() user: AuthUser,
  ): Promise<CommentResponse> {
    return this.comments.setResolved(user, id, false);
  }
}
