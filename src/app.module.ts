import { DynamicModule, Module } from '@nestjs/common';
import { join } from 'node:path';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AuthModule } from './auth/auth.module';
import { ChangeRequestsModule } from './change-requests/change-requests.module';
import { CollabModule } from './collab/collab.module';
import { AppConfig } from './common/config/app-config';
import { ConfigModule } from './common/config/config.module';
import { DatabaseModule } from './common/database/database.module';
import { OutboxModule } from './common/events/outbox.module';
import { MailModule } from './common/mail/mail.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { CommentsModule } from './comments/comments.module';
import { ConsoleModule } from './console/console.module';
import { HealthController } from './common/health/health.controller';
import { ShutdownModule } from './common/health/shutdown-state';
import { MetricsModule } from './common/metrics/metrics.module';
import { DraftsModule } from './drafts/drafts.module';
import { ExportModule } from './export/export.module';
import { ImportModule } from './import/import.module';
import { McpModule } from './mcp/mcp.module';
import { MediaModule } from './media/media.module';
import { NotificationsModule } from './notifications/notifications.module';
import { PagesModule } from './pages/pages.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ShutdownModule,
        DatabaseModule.forRoot(config, [join(__dirname, 'pages', 'store', 'read-queries')]),
        MetricsModule,
        EventEmitterModule.forRoot(),
        OutboxModule,
        MailModule,
        AuthModule,
        RateLimitModule,
        IdempotencyModule,
        PagesModule,
        DraftsModule,
        MediaModule,
        NotificationsModule,
        CommentsModule,
        ImportModule,
        ExportModule,
        WebhooksModule,
        ChangeRequestsModule,
        CollabModule,
        McpModule.register(config.mcp),
        ConsoleModule.register(config.http.consoleDir),
      ],
      controllers: [HealthController],
    };
  }
}
