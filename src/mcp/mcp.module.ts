import {
  DynamicModule,
  MiddlewareConsumer,
  Module,
  NestModule,
  RequestMethod,
} from '@nestjs/common';
import { InjectConfig } from '../common/config/app-config';
import type { McpConfig } from '../common/config/mcp-config';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { PagesModule, PageSearchModule } from '../pages/public-api';
import { McpMethodNotAllowed } from './mcp-method-not-allowed';
import { McpPagesService } from './mcp-pages.service';
import { McpController } from './mcp.controller';
import { McpService } from './mcp.service';

/**
 * The Model Context Protocol server for AI assistants (docs/integrations.md). The SDK speaks
 * the protocol; this module adapts its tools to the pages services the REST API uses. With
 * MCP_ENABLED=false nothing is mounted, so /mcp answers 404 like any unknown path.
 */
@Module({})
export class McpModule implements NestModule {
  constructor(@InjectConfig('mcp') private readonly mcpConfig: McpConfig) {}

  static register(config: McpConfig): DynamicModule {
    return {
      module: McpModule,
      imports: [PagesModule, PageSearchModule, RateLimitModule],
      controllers: config.enabled ? [McpController] : [],
      providers: [McpPagesService, McpService],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    if (!this.mcpConfig.enabled) return;
    consumer
      .apply(McpMethodNotAllowed)
      .forRoutes(
        { path: 'mcp', method: RequestMethod.GET },
        { path: 'mcp', method: RequestMethod.DELETE },
      );
  }
}
