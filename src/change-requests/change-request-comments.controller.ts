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
import { ListQueryDto } from '../common/http/list-query.dto';
import type { Paged } from '../common/http/pagination';
import { UuidParam } from '../common/http/uuid-param.pipe';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { ChangeRequestCommentsService } from './change-request-comments.service';
import { idOf } from './change-requests.controller';
import {
  CreateReviewCommentDto,
  ReviewCommentList,
  ReviewCommentResponse,
  UpdateReviewCommentDto,
} from './dto/change-request-comment.dto';

/** Review comments on lines of a change request's diff (docs/review.md). */
@ApiTags('change-requests')
@Controller('api/change-requests/:id/comments')
export class ChangeRequestCommentsController {
  constructor(private readonly comments: ChangeRequestCommentsService) {}

  @Get()
  @ApiOperation({
    summary: "The comments on lines of a change request's diff, oldest first (cursor paged)",
    description:
      '`line` is where the line a thread was written on is now; `outdated` when an update of the request removed it.',
  })
  @ApiResult(ReviewCommentList)
  @ApiProblems(404)
  listChangeRequestComments(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query() query: ListQueryDto,
  ): Promise<Paged<ReviewCommentResponse>> {
    return this.comments.list(idOf(id), query, user);
  }

  @Post()
  @ApiOperation({
    summary: 'Comment on a line of a change (`slug`, `line`, `side`), or reply (`parentId`)',
    description:
      'Whoever may see the request. Markdown up to 10,000 characters, rendered and sanitised as pages are. ' +
      "422 `not_in_request` for a slug the request does not change, `line_out_of_range` past that side's last line; " +
      "409 `too_many_comments` past 1,000. Tells the request's author and the thread's earlier writers.",
  })
  @ApiResult(ReviewCommentResponse, { headers: ['Location'] })
  @ApiProblems(404, 409)
  async createChangeRequestComment(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: CreateReviewCommentDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReviewCommentResponse> {
    return answerWrite(res, await this.comments.create(idOf(id), body, user));
  }

  @Patch(':commentId')
  @ApiOperation({ summary: 'Edit your review comment' })
  @ApiResult(ReviewCommentResponse)
  @ApiProblems(403, 404)
  updateChangeRequestComment(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('commentId', new UuidParam('comment')) commentId: string,
    @Body() body: UpdateReviewCommentDto,
  ): Promise<ReviewCommentResponse> {
    return this.comments.update(idOf(id), commentId, body, user);
  }

  @Delete(':commentId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a review comment (its author, or an administrator)',
    description:
      "A thread's first comment takes the thread with it; once others replied only an administrator may (409 `comment_has_replies`).",
  })
  @ApiProblems(403, 404, 409)
  async deleteChangeRequestComment(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('commentId', new UuidParam('comment')) commentId: string,
  ): Promise<void> {
    await this.comments.delete(idOf(id), commentId, user);
  }
}
