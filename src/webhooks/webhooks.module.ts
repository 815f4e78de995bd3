import { Module } from '@nestjs/common';
import { PagesModule } from '../pages/pages.module';
import { EventLogRepository } from './event-log.repository';
import { EventRecorder } from './event-recorder.listener';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { EventStreamService } from './event-stream.service';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Listens to domain events: records them (GET /api/events) and sends them to webhooks. */
@Module({
  imports: [PagesModule],
  controllers: [WebhooksController, EventsController],
  providers: [
    EventLogRepository,
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhookDispatcher,
    EventRecorder,
    WebhooksService,
    EventsService,
    EventStreamService,
  ],
})
export class WebhooksModule {}
