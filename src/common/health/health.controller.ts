import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiProblems, ApiResult } from '../openapi/api-result.decorator';
import { Public } from '../auth/route-policy';
import { Database } from '../database/database';
import { Problem } from '../problems/problem';
import { ShutdownState } from './shutdown-state';

const READY_TIMEOUT_MS = 2000;

export class HealthResponse {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}

export class ReadinessResponse {
  @ApiProperty({ enum: ['ready'] })
  status: 'ready';

  @ApiProperty({ enum: ['up'] })
  database: 'up';
}

@ApiTags('operations')
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly db: Database,
    private readonly shutdown: ShutdownState,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the process answers', security: [] })
  @ApiResult(HealthResponse)
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({
    summary: 'Readiness: the database answers and the instance is not shutting down',
    security: [],
  })
  @ApiResult(ReadinessResponse)
  @ApiProblems(503)
  async ready(): Promise<{ status: 'ready'; database: 'up' }> {
    if (this.shutdown.draining) {
      throw new Problem(
        503,
        'shutting_down',
        'This instance is shutting down; send requests to another one.',
        {},
        { 'Retry-After': '5' },
      );
    }
    try {
      await Promise.race([
        this.db.sql().all('SELECT 1'),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS).unref(),
        ),
      ]);
    } catch {
      throw new Problem(
        503,
        'database_unavailable',
        'The database does not answer.',
        {},
        { 'Retry-After': '5' },
      );
    }
    return { status: 'ready', database: 'up' };
  }
}
