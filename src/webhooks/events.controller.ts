import { Controller, Get, Headers, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { openEventStream } from '../common/http/event-stream';
import { ApiFileResult } from '../common/openapi/api-result.decorator';
import { EventStreamService } from './event-stream.service';
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
  constructor(
    private readonly events: EventsService,
    private readonly streams: EventStreamService,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Events oldest first after a cursor (`after=latest`: none, and the cursor of the newest event)',
  })
  @ApiResult(EventFeed)
  listEvents(@CurrentUser() user: AuthUser, @Query() query: EventQueryDto): Promise<EventFeed> {
    return this.events.feed(user, query.after, parseListRequest({ limit: query.limit }).limit);
  }

  @Get('stream')
  @ApiOperation({
    summary: 'The event feed as Server-Sent Events, live (resume with `Last-Event-ID`)',
    description:
      "Each event is `event: <type>` (the feed's types), `id: <seq>` and `data` shaped as a feed item, filtered by visibility as the feed is; " +
      '`import.finished` reaches every caller, its report only administrators. First, after a `Last-Event-ID`, the events missed since (at most 500; ' +
      'further behind, one `event: reset`: reload everything); then `event: ready` with the current id; then each event within about a second of its commit, ' +
      'from any instance. A comment line every 15 s keeps proxies from closing an idle stream. 400 `invalid_last_event_id` for an id this stream did not send.',
  })
  @ApiFileResult({ 'text/event-stream': 'text' })
  async streamEvents(
    @CurrentUser() user: AuthUser,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await openEventStream(req, res, (stream) => this.streams.subscribe(user, lastEventId, stream));
  }
}
