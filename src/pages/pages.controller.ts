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
import { etagMatches } from '../common/http/etag';
import { ApiAlias } from '../common/openapi/api-alias.decorator';
import { ApiProblems, ApiResult, ApiSentResult } from '../common/openapi/api-result.decorator';
import { Paged, parseListRequest } from '../common/http/pagination';
import { joinSlugParam } from '../common/http/slug-param';
import { Idempotent } from '../common/idempotency/idempotency.module';
import { CreatePageBody, UpdatePageBody } from './dto/page-body.dto';
import { PageListQueryDto } from './dto/page-query.dto';
import { PageBinService } from './page-bin.service';
import { PageBrowseService } from './page-browse.service';
import { PageWriterService } from './page-writer.service';
import { PageResponse, PageSummaryList } from './dto/page-response.dto';
import { PageSummaryResponse } from './pages.mapper';
import { PagesService } from './pages.service';
import { RESERVED_LAST_SEGMENT } from './slug';

/** Sends a read with its ETag, or 304 when If-None-Match already names it. */
function sendCacheable(
  res: Response,
  etag: string,
  contentType: string | null,
  body: unknown,
): void {
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  if (body === undefined) {
    res.status(304).end();
    return;
  }
  if (contentType) res.type(contentType).status(200).send(body);
  else res.status(200).json(body);
}

@ApiTags('pages')
@Controller('api/pages')
export class PagesController {
  constructor(
    private readonly pages: PagesService,
    private readonly writer: PageWriterService,
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
    const created = await this.pages.readById((await this.writer.create(body, user)).id, user);
    res
      .status(201)
      .setHeader(
        'Location',
        `/api/pages/${created.body.slug.split('/').map(encodeURIComponent).join('/')}`,
      );
    res.setHeader('ETag', created.etag);
    return created.body;
  }

  @Get('*slug')
  @ApiOperation({
    summary: 'Read a page (ETag; If-None-Match → 304); `/raw` appended answers the Markdown',
  })
  @ApiSentResult(PageResponse, { headers: ['ETag'], notModified: true })
  @ApiAlias({
    path: '/api/pages/{slug}/raw',
    operationId: 'getPageMarkdown',
    summary: "A page's Markdown as stored (`{{variables}}` unresolved); ETag, If-None-Match → 304",
    result: { content: { 'text/markdown': 'text' }, headers: ['ETag'], notModified: true },
  })
  async getPage(
    @Param('slug') segments: string | string[],
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @CurrentUser() user: AuthUser,
    @Res() res: Response,
  ): Promise<void> {
    const parts = ([] as string[]).concat(segments);
    if (parts.length > 1 && parts[parts.length - 1] === RESERVED_LAST_SEGMENT) {
      const raw = await this.pages.raw(parts.slice(0, -1).join('/'), user);
      const hit = etagMatches(ifNoneMatch, raw.etag);
      return sendCacheable(
        res,
        raw.etag,
        'text/markdown; charset=utf-8',
        hit ? undefined : raw.markdown,
      );
    }
    const read = await this.pages.read(parts.join('/'), user, ifNoneMatch);
    sendCacheable(res, read.etag, null, 'notModified' in read ? undefined : read.body);
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
    const pageId = await this.writer.update(joinSlugParam(segments), body, user, {
      ifMatch,
      baseRevision: body.baseRevision,
    });
    const read = await this.pages.readById(pageId, user);
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
