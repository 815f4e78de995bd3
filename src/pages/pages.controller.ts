import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser, Editors } from '../common/auth/route-policy';
import { answerWrite, locationOf } from '../common/http/created';
import { ApiAlias } from '../common/openapi/api-alias.decorator';
import { ApiProblems, ApiResult, ApiSentResult } from '../common/openapi/api-result.decorator';
import { Paged, parseListRequest } from '../common/http/pagination';
import { joinSlugParam } from '../common/http/slug-param';
import { Idempotent } from '../common/idempotency/idempotency.module';
import { CreatePageBody, UpdatePageBody } from './dto/page-body.dto';
import { PageListQueryDto } from './dto/page-query.dto';
import { PageBinService } from './page-bin.service';
import { PageBrowseService } from './page-browse.service';
import { PageResponse, PageSummaryList } from './dto/page-response.dto';
import { PageSummaryResponse } from './pages.mapper';
import { PageMoved, PagesService } from './pages.service';
import type { ConditionalRead } from './read-path/page-read-path';
import { RESERVED_LAST_SEGMENT } from './model/slug';

/**
 * Sends a conditional read with its ETag: 304 without a body when the client's copy is current;
 * 308 to the page's slug now when `slug` is an old slug of a moved page.
 */
function sendCacheable(
  res: Response,
  read: ConditionalRead<unknown> | PageMoved,
  contentType: string,
  suffix = '',
): void {
  if ('movedTo' in read) {
    res.setHeader('Cache-Control', 'private, no-cache');
    res.redirect(308, locationOf('pages', read.movedTo) + suffix);
    return;
  }
  res.setHeader('ETag', read.etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  if ('notModified' in read) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', contentType);
  // Sent as is: whether the client's copy is current was decided above (a page that includes
  // others is answered whole even when its revision is the client's), not by Express's `fresh`.
  const body = read.body as string | Buffer;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.setHeader('Content-Length', bytes.length);
  res.status(200).end(bytes);
}

@ApiTags('pages')
@Controller('api/pages')
export class PagesController {
  constructor(
    private readonly pages: PagesService,
    private readonly bin: PageBinService,
    private readonly browse: PageBrowseService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Visible pages, most recently updated first (optional ?tag=)' })
  @ApiResult(PageSummaryList)
  listPages(
    @Query() query: PageListQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<PageSummaryResponse>> {
    return this.browse.listRecent(user, parseListRequest(query), { tag: query.tag });
  }

  @Post()
  @Editors()
  @ApiOperation({ summary: 'Create a page (201, Location, ETag)' })
  @ApiResult(PageResponse, { headers: ['Location', 'ETag'] })
  @ApiProblems(409)
  @Idempotent()
  async createPage(
    @Body() body: CreatePageBody,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PageResponse> {
    return answerWrite(res, await this.pages.create(body, user));
  }

  @Get('*slug')
  @ApiOperation({
    summary: 'Read a page (ETag; If-None-Match → 304); `/raw` appended answers the Markdown',
  })
  @ApiSentResult(PageResponse, { headers: ['ETag'], notModified: true, moved: true })
  @ApiAlias({
    path: '/api/pages/{slug}/raw',
    operationId: 'getPageMarkdown',
    summary: "A page's Markdown as stored (`{{variables}}` unresolved); ETag, If-None-Match → 304",
    result: {
      content: { 'text/markdown': 'text' },
      headers: ['ETag'],
      notModified: true,
      moved: true,
    },
  })
  async getPage(
    @Param('slug') segments: string | string[],
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @CurrentUser() user: AuthUser,
    @Res() res: Response,
  ): Promise<void> {
    const parts = ([] as string[]).concat(segments);
    if (parts.length > 1 && parts[parts.length - 1] === RESERVED_LAST_SEGMENT) {
      const raw = await this.pages.raw(parts.slice(0, -1).join('/'), user, ifNoneMatch);
      return sendCacheable(res, raw, 'text/markdown; charset=utf-8', '/raw');
    }
    const read = await this.pages.read(parts.join('/'), user, ifNoneMatch);
    sendCacheable(res, read, 'application/json; charset=utf-8');
  }

  @Put('*slug')
  @Editors()
  @ApiOperation({
    summary: 'Update a page: needs If-Match or baseRevision (428 without; 412 / 409 when stale)',
  })
  @ApiResult(PageResponse, { headers: ['ETag'] })
  @ApiProblems(409, 428)
  async updatePage(
    @Param('slug') segments: string | string[],
    @Body() body: UpdatePageBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PageResponse> {
    const read = await this.pages.update(joinSlugParam(segments), body, user, {
      ifMatch,
      baseRevision: body.baseRevision,
    });
    res.setHeader('ETag', read.etag);
    return read.body;
  }

  @Delete('*slug')
  @AdminOnly()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Move a page to the bin (admin); frees the slug; optional If-Match (412 when stale)',
  })
  @ApiProblems(409)
  deletePage(
    @Param('slug') segments: string | string[],
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentUser() user: AuthUser,
  ): Promise<void> {
    return this.bin.moveToBin(joinSlugParam(segments), user, ifMatch);
  }
}
