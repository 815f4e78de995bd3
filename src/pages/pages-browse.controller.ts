import { Body, Controller, Get, HttpCode, Put, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser, Editors } from '../common/auth/route-policy';
import { ListQueryDto } from '../common/http/list-query.dto';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { Paged, parseListRequest } from '../common/http/pagination';
import { PreviewDto, SiteVariablesDto } from './dto/page.dto';
import { PageBrowseService } from './page-browse.service';
import { PagePreviewService } from './page-preview.service';
import {
  GraphResponse,
  PageSummaryList,
  PreviewResponse,
  ReviewDueItemResponse,
  ReviewDueList,
  SiteVariablesResponse,
  TagList,
} from './dto/page-response.dto';
import { PageSummaryResponse, TagResponse } from './pages.mapper';
import { SiteVariablesService } from './site-variables.service';

@ApiTags('pages')
@Controller('api')
export class PagesBrowseController {
  constructor(
    private readonly browse: PageBrowseService,
    private readonly previews: PagePreviewService,
    private readonly siteVariables: SiteVariablesService,
  ) {}

  @Get('recent')
  @ApiOperation({ summary: 'Recently updated visible pages' })
  @ApiResult(PageSummaryList)
  listRecent(
    @Query() query: ListQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<PageSummaryResponse>> {
    return this.browse.listRecent(user, parseListRequest(query));
  }

  @Get('tags')
  @ApiOperation({ summary: 'Tags with the number of visible pages, by name' })
  @ApiResult(TagList)
  listTags(
    @Query() query: ListQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<TagResponse>> {
    return this.browse.listTags(user, parseListRequest(query));
  }

  @Get('graph')
  @ApiOperation({ summary: 'Knowledge graph of visible pages and the links between them' })
  @ApiResult(GraphResponse)
  getGraph(@CurrentUser() user: AuthUser): Promise<GraphResponse> {
    return this.browse.graph(user);
  }

  @Get('review-due')
  @AdminOnly()
  @ApiOperation({
    summary: 'Live pages past their next review date, oldest first, with their owners (admin)',
  })
  @ApiResult(ReviewDueList)
  listReviewDue(
    @Query() query: ListQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<ReviewDueItemResponse>> {
    return this.browse.listReviewDue(parseListRequest(query), undefined, user.paths);
  }

  @Post('preview')
  @Editors()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Render unsaved Markdown (site-wide variables, overridden by `variables`)',
  })
  @ApiResult(PreviewResponse)
  preview(@Body() body: PreviewDto, @CurrentUser() user: AuthUser): Promise<{ html: string }> {
    return this.previews.preview(body, user);
  }

  @Get('variables')
  @ApiOperation({ summary: 'Site-wide variables every page inherits' })
  @ApiResult(SiteVariablesResponse)
  async getVariables(): Promise<{ variables: Record<string, string> }> {
    return { variables: (await this.siteVariables.get()).values };
  }

  @Put('variables')
  @AdminOnly()
  @ApiOperation({ summary: 'Replace the site-wide variables (admin)' })
  @ApiResult(SiteVariablesResponse)
  async putVariables(
    @Body() body: SiteVariablesDto,
  ): Promise<{ variables: Record<string, string> }> {
    return { variables: (await this.siteVariables.replace(body.variables)).values };
  }
}
