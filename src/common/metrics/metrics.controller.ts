import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RoutePolicy } from '../auth/route-policy';
import { ApiFileResult } from '../openapi/api-result.decorator';
import { KbMetrics } from './kb-metrics';

@ApiTags('operations')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: KbMetrics) {}

  @Get('metrics')
  @RoutePolicy({ roles: ['admin'], allowLocal: true })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary:
      'Prometheus metrics (text format): event-loop delay, database queues, requests by route. Admins, or anyone on this machine itself (loopback, not through a proxy)',
  })
  @ApiFileResult({ 'text/plain': 'text' })
  async metricsText(@Res({ passthrough: true }) res: Response): Promise<string> {
    res.type(this.metrics.contentType);
    return this.metrics.render();
  }
}
