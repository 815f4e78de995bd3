import { Module } from '@nestjs/common';
import { PagesModule } from '../pages/public-api';
import { EventLogRepository } from './event-log.repository';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { EventStreamService } from './event-stream.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookFanOut } from './webhook-fan-out';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * The event feed (GET /api/events) and webhooks: joins the outbox (a delivery per subscribed
 * webhook, written with each event) and sends the deliveries after the commit.
 */
@Module({
  imports: [PagesModule],
  controllers: [WebhooksController, EventsController],
  providers: [
    EventLogRepository,
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhookDispatcher,
    WebhookFanOut,
    WebhooksService,
    EventsService,
    EventStreamService,
  ],
  exports: [EventStreamService],
})
export class WebhooksModule {}
