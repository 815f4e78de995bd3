import { UuidParam } from '../common/http/uuid-param.pipe';
import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
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
  listBin(@Query() query: ListQueryDto): Promise<Paged<BinItemResponse>> {
    return this.bin.list(parseListRequest(query));
  }

  @Post(':id/restore')
  @HttpCode(200)
  @ApiOperation({ summary: 'Restore a binned page (409 when its slug is taken) (admin)' })
  @ApiResult(PageResponse)
  @ApiProblems(409)
  async restoreFromBin(
    @Param('id', new UuidParam('page')) id: string,
    @CurrentUser() user: AuthUser,
  ): Promise<PageResponse> {
    return (await this.pages.readById((await this.bin.restore(id, user)).id, user)).body;
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
