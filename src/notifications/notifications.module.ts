import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { PagesModule } from '../pages/pages.module';
import { NotificationEntity } from './entities/notification.entity';
import { NotificationsController } from './notifications.controller';
import { NotificationsListener } from './notifications.listener';
import { NotificationsService } from './notifications.service';
import { ReviewDueChecker } from './review-due.checker';

/** Listens to domain events; nothing calls into it except through its routes. */
@Module({
  imports: [TypeOrmModule.forFeature([NotificationEntity]), AuthModule, PagesModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationsListener, ReviewDueChecker],
  exports: [ReviewDueChecker],
})
export class NotificationsModule {}
