import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/route-policy';
import { parseListRequest } from '../common/http/pagination';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { EventQueryDto } from './dto/webhook.dto';
import { EventFeed } from './dto/webhook-response.dto';
import { EventsService } from './events.service';

/** The replayable event feed: the webhooks' events, for any signed-in caller, filtered by visibility. */
@ApiTags('events')
@Controller('api/events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @ApiOperation({
    summary:
      'Events oldest first after a cursor (`after=latest`: none, and the cursor of the newest event)',
  })
  @ApiResult(EventFeed)
  listEvents(@CurrentUser() user: AuthUser, @Query() query: EventQueryDto): Promise<EventFeed> {
    return this.events.feed(user, query.after, parseListRequest({ limit: query.limit }).limit);
  }
}
