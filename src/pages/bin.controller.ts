import { UuidParam } from '../common/http/uuid-param.pipe';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { RestoreFromBinDto } from './dto/page.dto';
import { PageBinService } from './page-bin.service';
import { BinItemList, PageResponse } from './dto/page-response.dto';
import { BinItemResponse } from './pages.mapper';
import { PagesService } from './pages.service';

@ApiTags('pages')
@AdminOnly()
@Controller('api/bin')
export class BinController {
  constructor(
    private readonly bin: PageBinService,
    private readonly pages: PagesService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Pages in the bin, most recently binned first (admin)' })
  @ApiResult(BinItemList)
  listBin(
    @Query() query: ListQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<BinItemResponse>> {
    return this.bin.list(parseListRequest(query), user.paths);
  }

  @Post(':id/restore')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Restore a binned page, under its slug or a new one given as `slug` (409 when that slug is taken) (admin)',
  })
  @ApiBody({ type: RestoreFromBinDto, required: false })
  @ApiResult(PageResponse)
  @ApiProblems(409, 422)
  restoreFromBin(
    @Param('id', new UuidParam('page')) id: string,
    @Body() body: RestoreFromBinDto,
    @CurrentUser() user: AuthUser,
  ): Promise<PageResponse> {
    return this.pages.restoreFromBin(id, user, body.slug);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Purge a binned page for good (admin)' })
  purge(
    @Param('id', new UuidParam('page')) id: string,
    @CurrentUser() user: AuthUser,
  ): Promise<void> {
    return this.bin.purge(id, user);
  }
}
