import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PagesModule } from '../pages/pages.module';
import { NotificationsController } from './notifications.controller';
import { NotificationsListener } from './notifications.listener';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { ReviewDueChecker } from './review-due.checker';

/** Listens to domain events; nothing calls into it except through its routes. */
@Module({
  imports: [AuthModule, PagesModule],
  controllers: [NotificationsController],
  providers: [
    NotificationsRepository,
    NotificationsService,
    NotificationsListener,
    ReviewDueChecker,
  ],
  exports: [ReviewDueChecker],
})
export class NotificationsModule {}
