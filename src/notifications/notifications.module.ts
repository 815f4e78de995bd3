import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PagesModule } from '../pages/pages.module';
import { NotificationsController } from './notifications.controller';
import { ChangeRequestNotices } from './change-request-notices';
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
  controllers: [NotificationsController, WatchesController],
  providers: [
    NotificationsRepository,
    NotificationsService,
    NotificationsListener,
    ChangeRequestNotices,
    ReviewDueChecker,
    WatchesRepository,
    WatchesService,
  ],
  exports: [ReviewDueChecker],
})
export class NotificationsModule {}
