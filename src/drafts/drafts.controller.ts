import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Put,
  Query,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, Editors } from '../common/auth/route-policy';
import { JsonBodyBudget } from '../common/http/json-budget';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ListQueryDto } from '../common/http/list-query.dto';
import { answerWrite } from '../common/http/created';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { DraftResponse, DraftSummaryList } from './dto/draft-response.dto';
import { DraftKey, DraftKeyInBody } from './draft-rules';
import { DraftSummary } from './drafts.mapper';
import { PutDraftBody } from './dto/put-draft.dto';
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
  getDraft(@CurrentUser() user: AuthUser, @DraftKey() key: string): Promise<DraftResponse> {
    return this.drafts.get(user, key);
  }

  @Put('*key')
  @UseInterceptors(DraftKeyInBody)
  // Editors keep their own state beside the content, within DRAFT_MAX_BYTES and the member
  // budget of a page's own routes: 100,000 members took ~1 s of the event loop to read.
  @JsonBodyBudget({ maxDepth: 64 })
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
    @Body() body: PutDraftBody,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DraftResponse> {
    return answerWrite(res, await this.drafts.put(user, body));
  }

  @Delete('*key')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a draft' })
  deleteDraft(@CurrentUser() user: AuthUser, @DraftKey() key: string): Promise<void> {
    return this.drafts.remove(user, key);
  }
}
