import { Controller, HttpCode, Post, Res } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import { requireSubtreeInScope, TokenVerb } from '../common/auth/token-scope';
import type { Response } from 'express';
import { ApiBody, ApiBodyOptions, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { answerWrite } from '../common/http/created';
import { ApiProblems, ApiSentResult } from '../common/openapi/api-result.decorator';
import { ImportJobResponse } from './dto/import-job.dto';
import type { ImportJobResource } from './jobs/import-job.types';
import { ImportJobsService } from './jobs/import-jobs.service';
import { ImportReportResponse } from './dto/import-report.dto';
import { IMPORT_FORMATS, IMPORT_MODES, ImportReport } from './import.types';

const BOOLEAN_FIELD = { type: 'string', enum: ['true', 'false'] };

const IMPORT_BODY: ApiBodyOptions = {
  schema: {
    type: 'object',
    required: ['format', 'files'],
    properties: {
      format: { type: 'string', enum: [...IMPORT_FORMATS], description: 'What the files are.' },
      files: {
        type: 'array',
        minItems: 1,
        items: { type: 'string', format: 'binary' },
        description: 'One or more files or ZIPs (one part each, all named `files`).',
      },
      prefix: {
        type: 'string',
        description: 'Slug prefix for every imported page, such as `handbook`.',
      },
      mode: {
        type: 'string',
        enum: [...IMPORT_MODES],
        description:
          '`merge` (default): create and replace pages. `mirror`: the upload is the source of truth for `prefix` (required: 422 `prefix_required` without it): ' +
          'live pages under the prefix (`docs/…`; neither `docs` itself nor `docs-old/…`) that the upload does not hold go to the bin in the same transaction, listed under `binned` ' +
          '(restorable through /api/bin). A dry run lists them without writing; a refused import bins nothing.',
      },
      dryRun: { ...BOOLEAN_FIELD, description: 'true: report without writing (default false).' },
      skipInvalid: {
        ...BOOLEAN_FIELD,
        description:
          'true: import the valid documents and list the others under `skipped` (default false).',
      },
      cleanConfluence: {
        ...BOOLEAN_FIELD,
        description:
          'Remove Confluence page chrome from Confluence-converted Markdown (default true for `confluence`, false otherwise).',
      },
      includeBlogPosts: {
        ...BOOLEAN_FIELD,
        description: 'Confluence XML space export: import the blog posts too (default false).',
      },
      async: {
        ...BOOLEAN_FIELD,
        description:
          'true: answer 202 with an import job (`Location: /api/import/jobs/{id}`) once the upload is received and checked, and run it in the background (default false).',
      },
      jiraBaseUrl: {
        type: 'string',
        format: 'uri',
        description:
          'Confluence XML space export: the Jira that Jira macros point at; issue keys become links to it.',
      },
    },
  },
};
import { ImportService } from './import.service';
import { Idempotent } from '../common/idempotency/idempotency.module';
import { ReceivedUpload, ReceivesUpload } from '../common/http/upload';
import { ImportUploadReceiver } from './intake/import-upload';
import type { ImportUpload } from './run/run-types';

@ApiTags('import')
@TokenVerb('import')
@Controller('api/import')
export class ImportController {
  constructor(
    private readonly imports: ImportService,
    private readonly jobs: ImportJobsService,
  ) {}

  @Post()
  @AdminOnly()
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody(IMPORT_BODY)
  @ApiSentResult(ImportReportResponse, {
    other: {
      status: 202,
      type: ImportJobResponse,
      headers: ['Location'],
      description:
        'async=true: the upload is received and checked; the job runs (follow Location).',
    },
  })
  @ApiProblems(409)
  @ApiOperation({
    summary: 'Import Markdown, Wiki.js or Confluence files and ZIPs (admin; session or bearer)',
    description:
      'Multipart fields: `format` (markdown | wikijs | confluence, required), `files` (one or more), `prefix`, `mode` (merge | mirror), `dryRun`, `skipInvalid`, ' +
      '`cleanConfluence`, `includeBlogPosts`, `jiraBaseUrl`, `async`. ' +
      'One transaction; strict by default (422 lists every invalid file). Request and uncompressed contents limited (413). See docs/import.md.',
  })
  @Idempotent()
  @ReceivesUpload(ImportUploadReceiver)
  async importPages(
    @ReceivedUpload() upload: ImportUpload,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ImportReport | ImportJobResource> {
    try {
      requireSubtreeInScope(user, upload.options.prefix || null);
    } catch (refused) {
      await rm(upload.tempDir, { recursive: true, force: true });
      throw refused;
    }
    if (!upload.async) return this.imports.importNow(upload, user);
    return answerWrite(res, await this.jobs.create(upload, user));
  }
}
