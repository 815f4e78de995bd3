import { Body, Controller, Delete, Get, HttpCode, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/route-policy';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { Paged, parseListRequest } from '../../common/http/pagination';
import { ApiResult } from '../../common/openapi/api-result.decorator';
import { WatchDto, WatchList, WatchResponse } from './watch.dto';
import { WatchesService } from './watches.service';

/** The caller's own watches: any signed-in user, by session or token. */
@ApiTags('notifications')
@Controller('api/watches')
export class WatchesController {
  constructor(private readonly watches: WatchesService) {}

  @Get()
  @ApiOperation({ summary: 'What you watch, by slug' })
  @ApiResult(WatchList)
  listWatches(
    @CurrentUser() user: AuthUser,
    @Query() query: ListQueryDto,
  ): Promise<Paged<WatchResponse>> {
    return this.watches.list(user, parseListRequest(query));
  }

  @Put()
  @ApiOperation({
    summary: 'Watch a page, or a folder with `subtree` (idempotent)',
    description:
      'Edits, moves to the bin and restores of the page (or of any page under the folder) by others then reach your inbox, ' +
      'for as long as you may see the page. 404 `page_not_found` when you may see no page there.',
  })
  @ApiResult(WatchResponse)
  watchPage(@CurrentUser() user: AuthUser, @Body() body: WatchDto): Promise<WatchResponse> {
    return this.watches.watch(user, body);
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ summary: 'Stop watching (idempotent)' })
  async unwatchPage(@CurrentUser() user: AuthUser, @Body() body: WatchDto): Promise<void> {
    await this.watches.unwatch(user, body);
  }
}
