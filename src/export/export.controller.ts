import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Readable } from 'node:stream';
import { AuthUser } from '../common/auth/auth-user';
import { JsonBodyBudget } from '../common/http/json-budget';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { ApiFileResult } from '../common/openapi/api-result.decorator';
import { ArchiveExportService } from './archive/archive-export.service';
import { contentDisposition, NO_STORE } from './http/download';
import { joinSlugParam } from '../common/http/slug-param';
import { MarkdownExportService } from './markdown/markdown-export.service';
import { ArchiveRequestDto } from './dto/archive-request.dto';
import { PageExportQueryDto } from './dto/page-export-query.dto';

/** Markdown exports under /api: session or bearer (CI backups), visibility as for page reads. */
@ApiTags('export')
@Controller('api/export')
export class ExportController {
  constructor(
    private readonly markdown: MarkdownExportService,
    private readonly archives: ArchiveExportService,
  ) {}

  @Get('pages/*slug')
  @ApiOperation({
    summary:
      'One page as Markdown (`# Title` first, `{{variables}}` kept), or a ZIP with images/ when it shows stored images (`format` chooses)',
  })
  @ApiFileResult(
    { 'text/markdown': 'text', 'application/zip': 'binary' },
    { headers: ['Content-Disposition'] },
  )
  async exportPage(
    @CurrentUser() user: AuthUser,
    @Param('slug') slug: string | string[],
    @Query() query: PageExportQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const file = await this.markdown.exportPage(joinSlugParam(slug), user, query.format);
    res.setHeader('Cache-Control', NO_STORE);
    if (file.kind === 'markdown') {
      return new StreamableFile(file.body, {
        type: 'text/markdown; charset=utf-8',
        length: file.body.length,
        disposition: contentDisposition('attachment', file.filename),
      });
    }
    return streamZip(res, file.stream, file.filename, file.abort);
  }

  @Post('archive')
  // Up to MAX_SELECTED_SLUGS (10,000) slugs.
  @JsonBodyBudget({ maxMembers: 10_100 })
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({
    summary:
      'Archive of the named pages, or of all pages, as a streamed ZIP with manifest.json (admin)',
  })
  @ApiBody({
    required: false,
    schema: {
      type: 'object',
      properties: {
        slugs: {
          type: 'array',
          items: { type: 'string' },
          description: 'The pages to export; absent: every page.',
        },
      },
    },
  })
  @ApiFileResult({ 'application/zip': 'binary' }, { headers: ['Content-Disposition'] })
  async exportArchive(
    @CurrentUser() user: AuthUser,
    @Body() body: ArchiveRequestDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const request = await this.archives.select(body, user);
    const archive = this.archives.start(request, user);
    res.setHeader('Cache-Control', NO_STORE);
    return streamZip(res, archive.stream, archive.filename, archive.abort);
  }
}

/** Streams a ZIP as it is written; a client that goes away stops the producer. */
function streamZip(
  res: Response,
  stream: Readable,
  filename: string,
  abort: () => void,
): StreamableFile {
  res.once('close', () => {
    if (!res.writableFinished) abort();
  });
  return new StreamableFile(stream, {
    type: 'application/zip',
    disposition: contentDisposition('attachment', filename),
  }).setErrorHandler(() => {
    // Headers and part of the body are out: cut the connection so the download is visibly broken.
    res.destroy();
  });
}
