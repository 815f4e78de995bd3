import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiBodyOptions, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { ImportReportResponse } from './dto/import-report.dto';
import { IMPORT_FORMATS, ImportReport } from './import.types';

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

@ApiTags('import')
@Controller('api/import')
export class ImportController {
  constructor(private readonly imports: ImportService) {}

  @Post()
  @AdminOnly()
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody(IMPORT_BODY)
  @ApiResult(ImportReportResponse)
  @ApiProblems(409)
  @ApiOperation({
    summary: 'Import Markdown, Wiki.js or Confluence files and ZIPs (admin; session or bearer)',
    description:
      'Multipart fields: `format` (markdown | wikijs | confluence, required), `files` (one or more), `prefix`, `dryRun`, `skipInvalid`, ' +
      '`cleanConfluence`, `includeBlogPosts`, `jiraBaseUrl`. ' +
      'One transaction; strict by default (422 lists every invalid file). Request and uncompressed contents limited (413). See docs/import.md.',
  })
  importPages(@Req() req: Request, @CurrentUser() user: AuthUser): Promise<ImportReport> {
    return this.imports.importRequest(req, user);
  }
}
