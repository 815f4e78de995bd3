import { UuidParam } from '../../common/http/uuid-param.pipe';
import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AdminOnly } from '../../common/auth/route-policy';
import { Paged, parseListRequest } from '../../common/http/pagination';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { ApiFileResult, ApiProblems, ApiResult } from '../../common/openapi/api-result.decorator';
import { ImportJobList, ImportJobResponse } from '../dto/import-job.dto';
import type { ImportJobResource } from './import-job.types';
import { ImportJobsService } from './import-jobs.service';
import { openEventStream } from './event-stream';

/** Import jobs (POST /api/import with async=true): status, list, live progress, cancel. */
@ApiTags('import')
@AdminOnly()
@Controller('api/import/jobs')
export class ImportJobsController {
  constructor(private readonly jobs: ImportJobsService) {}

  @Get()
  @ApiOperation({ summary: 'Recent import jobs, newest first (admin)' })
  @ApiResult(ImportJobList)
  listImportJobs(@Query() query: ListQueryDto): Promise<Paged<ImportJobResource>> {
    return this.jobs.list(parseListRequest(query));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One import job: state, progress, report or problem (admin)' })
  @ApiResult(ImportJobResponse)
  getImportJob(@Param('id', new UuidParam('import_job')) id: string): Promise<ImportJobResource> {
    return this.jobs.get(id);
  }

  @Get(':id/events')
  @ApiOperation({
    summary: 'Server-Sent Events of an import job (admin)',
    description:
      'First `event: state` with the job as it is now; then `event: progress` with `{phase, done, total}` ' +
      '(phases receiving, unpacking, converting, storing media, writing pages; `done` never goes back within a phase) ' +
      'and one `event: state` with the finished job, after which the stream closes. A finished job answers its one state event.',
  })
  @ApiFileResult({ 'text/event-stream': 'text' })
  async followImportJob(
    @Param('id', new UuidParam('import_job')) id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await openEventStream(req, res, (stream) =>
      this.jobs.follow(
        id,
        {
          progress: (progress) => stream.send('progress', progress),
          state: (job) => stream.send('state', job),
        },
        () => stream.end(),
      ),
    );
  }

  @Post(':id/cancel')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Cancel a queued or running import job: nothing of it is written (admin)',
    description: 'A finished job answers 409 `job_finished`.',
  })
  @ApiResult(ImportJobResponse)
  @ApiProblems(409)
  cancelImportJob(
    @Param('id', new UuidParam('import_job')) id: string,
  ): Promise<ImportJobResource> {
    return this.jobs.cancel(id);
  }
}
