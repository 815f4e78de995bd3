import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/route-policy';
import { Page, parsePageRequest } from '../../common/http/pagination';
import { PageTreeNodeResponse, PageTreePageResponse, PageTreeQueryDto } from './page-tree.dto';
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
  @ApiOkResponse({ type: PageTreePageResponse })
  listTree(
    @Query() query: PageTreeQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Page<PageTreeNodeResponse>> {
    return this.tree.children(user, query.parent, parsePageRequest(query));
  }
}
