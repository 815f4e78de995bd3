import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { ImportReport } from './import.types';
import { ImportService } from './import.service';

@ApiTags('import')
@Controller('api/import')
export class ImportController {
  constructor(private readonly imports: ImportService) {}

  @Post()
  @AdminOnly()
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiOperation({
    summary: 'Import Markdown, Wiki.js or Confluence files and ZIPs (admin; session or bearer)',
    description:
      'Multipart fields: `format` (markdown | wikijs | confluence, required), `files` (one or more), `prefix`, `dryRun`, `skipInvalid`, ' +
      '`cleanConfluence` (default true for confluence), `includeBlogPosts` and `jiraBaseUrl` (Confluence XML space export). ' +
      'One transaction; strict by default (422 lists every invalid file). Request and uncompressed contents limited (413). See docs/import.md.',
  })
  importPages(@Req() req: Request, @CurrentUser() user: AuthUser): Promise<ImportReport> {
    return this.imports.importRequest(req, user);
  }
}
