import { UuidParam } from '../../common/http/uuid-param.pipe';
import { TokenVerb } from '../../common/auth/token-scope';
import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AdminOnly } from '../../common/auth/route-policy';
import { Paged, parseListRequest } from '../../common/http/pagination';
import { ListQueryDto } from '../../common/http/list-query.dto';
import {
  ApiFileResult,
  ApiProblems,
  ApiResult,
  ApiSentResult,
} from '../../common/openapi/api-result.decorator';
import { Problem } from '../../common/problems/problem';
import { ImportReportResponse } from '../dto/import-report.dto';
import type { ImportReport } from '../import.types';
import { ImportJobList, ImportJobResponse } from '../dto/import-job.dto';
import type { ImportJobResource } from './import-job.types';
import { ImportJobsService } from './import-jobs.service';
import { openEventStream } from '../../common/http/event-stream';

/** The media type of the report the client accepts (JSON when it says nothing); else 406. */
function acceptedReportType(req: Request): 'application/json' | 'application/xml' | 'text/xml' {
  const type = req.accepts(['application/json', 'application/xml', 'text/xml']);
  if (type === false)
    throw new Problem(
      406,
      'not_acceptable',
      'The report is available as application/json or application/xml (JUnit).',
    );
  return type as 'application/json' | 'application/xml' | 'text/xml';
}

/** Import jobs (POST /api/import with async=true): status, list, live progress, cancel. */
@ApiTags('import')
@AdminOnly()
@TokenVerb('import')
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

  @Get(':id/report')
  @ApiOperation({
    summary: "A finished import job's report, as JSON or JUnit XML (admin)",
    description:
      '`Accept: application/xml` (or `text/xml`) answers the report as JUnit XML for CI: one `<testsuite>`, one `<testcase>` per file of the upload ' +
      '(a page fails with its unresolved links and images, a referenced file the media rules refused fails, skipped and ignored files are `<skipped>` with the reason, ' +
      "stored media pass) and one per page a mirror import moved to the bin. `application/json` or no Accept: the report as JSON (the job's `report`). " +
      'A failed job whose problem names files (`errors[].field` `files[<path>]`, e.g. a strict import refused for invalid files) answers JUnit with a suite named `… (failed)` holding those files as failures. ' +
      '409 `job_not_finished` while the job is queued or running; 409 `job_has_no_report` for a cancelled job, a failed one without per-file errors, or JSON of any failed job; 406 for other media types.',
  })
  @ApiSentResult(ImportReportResponse, {
    content: { 'application/xml': 'text' },
    headers: ['Vary'],
  })
  @ApiProblems(406, 409)
  async getImportJobReport(
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ImportReport | string> {
    const type = acceptedReportType(req);
    res.vary('Accept');
    const body = await this.jobs.report(id, type === 'application/json' ? 'json' : 'junit');
    if (typeof body === 'string') res.type(`${type}; charset=utf-8`);
    return body;
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
