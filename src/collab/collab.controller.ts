import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/route-policy';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { PagesService } from '../pages/public-api';
import { CollabGateway } from './collab.gateway';

export class CollabSessionQuery {
  @ApiProperty({ description: 'the page' })
  @IsString()
  @MaxLength(255)
  slug: string;
}

export class CollabSessionResponse {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'People editing the page in a live session now (the page view\'s "N editing").',
  })
  editing: number;
}

@ApiTags('pages')
@Controller('api/collab')
export class CollabController {
  constructor(
    private readonly gateway: CollabGateway,
    private readonly pages: PagesService,
  ) {}

  @Get()
  @ApiOperation({ summary: "A page's live editing session: how many are editing: ?slug=<slug>" })
  @ApiResult(CollabSessionResponse)
  @ApiProblems(404)
  async editingSession(
    @Query() query: CollabSessionQuery,
    @CurrentUser() user: AuthUser,
  ): Promise<CollabSessionResponse> {
    const page = await this.pages.getVisible(query.slug, user);
    return { editing: this.gateway.editing(page.id) };
  }
}
