import {
  applyDecorators,
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { ApiBody, ApiBodyOptions, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, SessionOnly } from '../common/auth/route-policy';
import { ApiFileResult, ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { PrintPreviewResponse } from './dto/print-response.dto';
import { contentDisposition, NO_STORE, slugFileStem } from './http/download';
import { joinSlugParam } from '../common/http/slug-param';
import { PrintOverridesDto } from './dto/print-overrides.dto';
import { PdfFile, PrintRequest, PrintService } from './print/print.service';

const PDF = { 'application/pdf': 'binary' } as const;

const OVERRIDES_BODY: ApiBodyOptions = {
  schema: {
    type: 'object',
    properties: {
      variables: { type: 'object', additionalProperties: { type: 'string', maxLength: 10_000 } },
    },
    example: { variables: { customer_name: 'ACME Ltd.' } },
  },
  required: false,
};

/**
 * Browser export routes: a signed-in browser session only (a bearer token gets 401), any role
 * that can see the page. Answers are private and never cached.
 */
@ApiTags('export')
@SessionOnly()
@Controller('export')
export class PrintController {
  constructor(private readonly print: PrintService) {}

  @Post('preview/*slug')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'The print document (self-contained HTML) with optional request-local variable overrides',
  })
  @ApiBody(OVERRIDES_BODY)
  @ApiResult(PrintPreviewResponse)
  previewPage(
    @CurrentUser() user: AuthUser,
    @Param('slug') slug: string | string[],
    @Body() body: PrintOverridesDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ document: string }> {
    res.setHeader('Cache-Control', NO_STORE);
    return this.print.preview(joinSlugParam(slug), user, body.variables ?? {}, {
      origin: requestOrigin(req),
    });
  }

  @Post('pdf/*slug')
  @HttpCode(200)
  @ApiOperation({ summary: 'The page as PDF with optional request-local variable overrides' })
  @ApiBody(OVERRIDES_BODY)
  @ApiPdf()
  postPdf(
    @CurrentUser() user: AuthUser,
    @Param('slug') slug: string | string[],
    @Body() body: PrintOverridesDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    return sendPdf(this.print, joinSlugParam(slug), user, body.variables ?? {}, req, res);
  }

  @Get('pdf/*slug')
  @ApiOperation({
    summary: 'The page as PDF with its saved variable values (query parameters are ignored)',
  })
  @ApiPdf()
  getPdf(
    @CurrentUser() user: AuthUser,
    @Param('slug') slug: string | string[],
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    return sendPdf(this.print, joinSlugParam(slug), user, {}, req, res);
  }
}

/** Both PDF routes answer a PDF, or a problem when the PDF service fails. */
function ApiPdf(): MethodDecorator {
  return applyDecorators(
    ApiFileResult(PDF, { headers: ['Content-Disposition'] }),
    ApiProblems(502, 503, 504),
  );
}

/** `<protocol>://<host>` as the browser reached kb (X-Forwarded-* only behind TRUST_PROXY). */
function requestOrigin(req: Request): string {
  return `${req.protocol}://${req.host}`;
}

/** Stops the PDF conversion when the browser goes away; the request id joins both logs. */
function pdfRequest(req: Request, res: Response): PrintRequest {
  const controller = new AbortController();
  // The response closes before it finished only when the connection went away.
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return {
    origin: requestOrigin(req),
    signal: controller.signal,
    trace: (req as Request & { id?: string }).id,
  };
}

/** Renders the PDF (stopped when the browser goes away) and answers it inline, never cached. */
async function sendPdf(
  print: PrintService,
  slug: string,
  user: AuthUser,
  overrides: Record<string, unknown>,
  req: Request,
  res: Response,
): Promise<StreamableFile> {
  const file: PdfFile = await print.pdf(slug, user, overrides, pdfRequest(req, res));
  res.setHeader('Cache-Control', NO_STORE);
  return new StreamableFile(file.pdf, {
    type: 'application/pdf',
    length: file.pdf.length,
    disposition: contentDisposition('inline', `${slugFileStem(file.slug)}.pdf`),
  });
}
