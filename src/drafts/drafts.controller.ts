import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, Editors } from '../common/auth/route-policy';
import { JsonBodyBudget } from '../common/http/json-budget';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ListQueryDto } from '../common/http/list-query.dto';
import { joinSlugParam } from '../common/http/slug-param';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { DraftResponse, DraftSummaryList } from './dto/draft-response.dto';
import { DraftSummary, toDraftResponse } from './drafts.mapper';
import { DraftsService } from './drafts.service';

/** Private server drafts of the signed-in editor, addressed by a client-chosen key. */
@ApiTags('drafts')
@Editors()
@Controller('api/drafts')
export class DraftsController {
  constructor(private readonly drafts: DraftsService) {}

  @Get()
  @ApiOperation({
    summary: "List the caller's drafts (keys, titles, sizes, times; no content), newest first",
  })
  @ApiResult(DraftSummaryList)
  listDrafts(
    @CurrentUser() user: AuthUser,
    @Query() query: ListQueryDto,
  ): Promise<Paged<DraftSummary>> {
    return this.drafts.list(user, parseListRequest(query));
  }

  @Get('*key')
  @ApiOperation({ summary: "Read one of the caller's drafts; another user's key is 404" })
  @ApiResult(DraftResponse)
  async getDraft(
    @CurrentUser() user: AuthUser,
    @Param('key') key: string | string[],
  ): Promise<DraftResponse> {
    return toDraftResponse(await this.drafts.get(user, joinSlugParam(key)));
  }

  @Put('*key')
  // Editors keep their own state beside the content: any shape, within DRAFT_MAX_BYTES.
  @JsonBodyBudget({ maxDepth: 64, maxMembers: 100_000 })
  @ApiOperation({
    summary:
      'Create (201) or replace (200) a draft: {content: string, title?: string, ...any other members}',
  })
  @ApiResult(DraftResponse, { alsoStatus: [201], headers: ['Location'] })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['content'],
      properties: {
        content: { type: 'string' },
        title: { type: 'string', nullable: true, maxLength: 500 },
      },
      additionalProperties: true,
    },
  })
  async putDraft(
    @CurrentUser() user: AuthUser,
    @Param('key') key: string | string[],
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DraftResponse> {
    const { draft, created } = await this.drafts.put(user, joinSlugParam(key), body);
    if (created) res.status(201).location(`/api/drafts/${draft.key}`);
    return toDraftResponse(draft);
  }

  @Delete('*key')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a draft' })
  async deleteDraft(
    @CurrentUser() user: AuthUser,
    @Param('key') key: string | string[],
  ): Promise<void> {
    await this.drafts.remove(user, joinSlugParam(key));
  }
}
