import { UuidParam } from '../common/http/uuid-param.pipe';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, Editors } from '../common/auth/route-policy';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { RestoreRevisionDto } from './dto/page.dto';
import { RevisionListQueryDto } from './dto/page-query.dto';
import { PageRevisionsService } from './page-revisions.service';
import { PageResponse, RevisionResponse, RevisionSummaryList } from './dto/page-response.dto';
import { RevisionSummaryResponse } from './pages.mapper';
import { PagesService } from './pages.service';

/**
 * Revisions live at /api/revisions (not under /api/pages/{slug...}) because a slug may end in
 * any segment but `raw`, so `/api/pages/a/revisions` would be ambiguous.
 */
@ApiTags('pages')
@Controller('api/revisions')
export class RevisionsController {
  constructor(
    private readonly revisions: PageRevisionsService,
    private readonly pages: PagesService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Revisions of a page, newest first: ?slug=<slug>' })
  @ApiResult(RevisionSummaryList)
  @ApiProblems(404)
  listRevisions(
    @Query() query: RevisionListQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<RevisionSummaryResponse>> {
    return this.revisions.list(query.slug, user, parseListRequest(query));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One revision with its title, content and metadata' })
  @ApiResult(RevisionResponse)
  getRevision(
    @Param('id', new UuidParam('revision')) id: string,
    @CurrentUser() user: AuthUser,
  ): Promise<RevisionResponse> {
    return this.revisions.get(id, user);
  }

  @Post(':id/restore')
  @Editors()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Restore a revision (writes a new revision); optional If-Match / baseRevision',
  })
  @ApiResult(PageResponse)
  @ApiProblems(409)
  restoreRevision(
    @Param('id', new UuidParam('revision')) id: string,
    @Body() body: RestoreRevisionDto,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentUser() user: AuthUser,
  ): Promise<PageResponse> {
    return this.pages.restoreRevision(id, user, { ifMatch, baseRevision: body.baseRevision });
  }
}
