import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/route-policy';
import { Paged, parseListRequest } from '../../common/http/pagination';
import { ApiResult } from '../../common/openapi/api-result.decorator';
import { PageTreeList, PageTreeNodeResponse, PageTreeQueryDto } from './page-tree.dto';
import { PageTreeService } from './page-tree.service';

@ApiTags('pages')
@Controller('api/tree')
export class PageTreeController {
  constructor(private readonly tree: PageTreeService) {}

  @Get()
  @ApiOperation({
    summary:
      'One level of the page tree: the next slug segments below `parent` (or the top level), by name, paged',
  })
  @ApiResult(PageTreeList)
  listTree(
    @Query() query: PageTreeQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<PageTreeNodeResponse>> {
    return this.tree.children(user, query.parent, parseListRequest(query));
  }
}
