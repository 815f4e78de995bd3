import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser, Editors } from '../common/auth/route-policy';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import {
  MovePagesDto,
  MoveResultResponse,
  RedirectList,
  RedirectQueryDto,
  RedirectResponse,
} from './dto/page-move.dto';
import { PageMoveService } from './page-move.service';
import { PageRedirectsService } from './page-redirects.service';

@ApiTags('pages')
@Controller('api/pages')
export class PageMovesController {
  constructor(private readonly moves: PageMoveService) {}

  @Post('move')
  @Editors()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Move a page, or a folder with `subtree`, to a new slug in one transaction; old slugs become redirects (409 naming every taken slug)',
  })
  @ApiResult(MoveResultResponse)
  @ApiProblems(409, 422)
  movePages(
    @Body() body: MovePagesDto,
    @CurrentUser() user: AuthUser,
  ): Promise<MoveResultResponse> {
    return this.moves.move(body, user);
  }
}

@ApiTags('pages')
@AdminOnly()
@Controller('api/redirects')
export class RedirectsController {
  constructor(private readonly redirects: PageRedirectsService) {}

  @Get()
  @ApiOperation({ summary: 'Redirects from old slugs of moved pages, by old slug (admin)' })
  @ApiResult(RedirectList)
  listRedirects(
    @Query() query: ListQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<RedirectResponse>> {
    return this.redirects.list(parseListRequest(query), user.paths);
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete the redirect from `from`; the old slug answers 404 (admin)' })
  deleteRedirect(@Query() query: RedirectQueryDto, @CurrentUser() user: AuthUser): Promise<void> {
    return this.redirects.delete(query.from, user);
  }
}
