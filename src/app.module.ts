import { DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ScheduleModule } from '@nestjs/schedule';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './common/config/app-config';
import { ConfigModule } from './common/config/config.module';
import { DatabaseModule } from './common/database/database.module';
import { HealthController } from './common/health/health.controller';
import { DraftsModule } from './drafts/drafts.module';
import { ExportModule } from './export/export.module';
import { ImportModule } from './import/import.module';
import { MediaModule } from './media/media.module';
import { NotificationsModule } from './notifications/notifications.module';
import { PagesModule } from './pages/pages.module';

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config),
        EventEmitterModule.forRoot(),
        ScheduleModule.forRoot(),
        AuthModule,
        PagesModule,
        DraftsModule,
        MediaModule,
        NotificationsModule,
        ImportModule,
        ExportModule,
      ],
      controllers: [HealthController],
    };
  }
}
