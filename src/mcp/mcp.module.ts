import { DynamicModule, Module } from '@nestjs/common';
import { CommentsModule } from '../comments/public-api';
import { ChangeRequestsModule } from '../change-requests/public-api';
import type { McpConfig } from '../common/config/mcp-config';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { PagesModule, PageSearchModule } from '../pages/public-api';
import { McpPagesService } from './mcp-pages.service';
import { McpController } from './mcp.controller';
import { McpSessions } from './mcp-sessions';
import { McpSettingsController } from './mcp-settings.controller';
import { McpSettingsService } from './mcp-settings';
import { WebhooksModule } from '../webhooks/public-api';
import { McpService } from './mcp.service';

/**
 * The Model Context Protocol server for AI assistants (docs/integrations.md). The SDK speaks
 * the protocol; this module adapts its tools to the pages services the REST API uses. With
 * MCP_ENABLED=false /mcp is not mounted, so it answers 404 like any unknown path; the
 * administrators' settings (GET/PUT /api/mcp/settings) turn it off and choose its tools at run
 * time.
 */
@Module({})
export class McpModule {
  static register(config: McpConfig): DynamicModule {
    return {
      module: McpModule,
      imports: [
        PagesModule,
        PageSearchModule,
        RateLimitModule,
        CommentsModule,
        ChangeRequestsModule,
        WebhooksModule,
      ],
      controllers: config.enabled
        ? [McpController, McpSettingsController]
        : [McpSettingsController],
      providers: [McpPagesService, McpService, McpSessions, McpSettingsService],
    };
  }
}
