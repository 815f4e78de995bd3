import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/public-api';
import { PagesModule } from '../pages/public-api';
import { DigestController } from './digest/digest.controller';
import { DigestRepository } from './digest/digest.repository';
import { DigestService } from './digest/digest.service';
import { NotificationsController } from './notifications.controller';
import { NotificationsListener } from './notifications.listener';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { ReviewDueChecker } from './review-due.checker';
import { WatchesController } from './watches/watches.controller';
import { WatchesRepository } from './watches/watches.repository';
import { WatchesService } from './watches/watches.service';

/** Listens to domain events; nothing calls into it except through its routes. */
@Module({
  imports: [AuthModule, PagesModule],
  controllers: [NotificationsController, WatchesController, DigestController],
  providers: [
    NotificationsRepository,
    NotificationsService,
    NotificationsListener,
    ReviewDueChecker,
    WatchesRepository,
    WatchesService,
    DigestRepository,
    DigestService,
  ],
  exports: [ReviewDueChecker],
})
export class NotificationsModule {}
