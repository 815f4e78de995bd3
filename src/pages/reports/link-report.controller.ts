import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/route-policy';
import type { Paged } from '../../common/http/pagination';
import { ApiResult } from '../../common/openapi/api-result.decorator';
import type { BrokenLink } from '../store/link-report';
import { BrokenLinkList, LinkReportQueryDto } from './link-report.dto';
import { LinkReportService } from './link-report.service';

@ApiTags('reports')
@Controller('api/reports')
export class LinkReportController {
  constructor(private readonly reports: LinkReportService) {}

  @Get('links')
  @ApiOperation({
    summary: 'Broken internal links and missing media in the pages you can see',
    description:
      'By page slug, then line. A link to a page you cannot see is reported like a missing one (anything else would reveal that it exists): use an administrator token for the whole truth. ' +
      'A page of the report may hold fewer than `limit` items and still name a `nextCursor`: follow it until null. See docs/integrations.md.',
  })
  @ApiResult(BrokenLinkList)
  listBrokenLinks(
    @Query() query: LinkReportQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<BrokenLink>> {
    return this.reports.brokenLinks(user, query);
  }
}
