import { Controller, Get, Header, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/route-policy';
import { InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import { ApiFileResult, ApiProblems } from '../../common/openapi/api-result.decorator';
import { PayloadTooLargeProblem, UnsupportedMediaTypeProblem } from '../../common/problems/problem';
import { SsoLoginQuery } from '../oidc/sso.dto';
import { browserAware } from '../oidc/sso-flow';
import { setSessionCookie } from '../session-cookie';
import { SamlPost, SamlService } from './saml.service';

/** A SAML Response is a few kilobytes; a signed, encrypted one with many groups stays far below. */
const MAX_FORM_BYTES = 512 * 1024;

@ApiTags('auth')
@Controller('auth/saml')
export class SamlController {
  constructor(
    private readonly saml: SamlService,
    @InjectConfig('http') private readonly httpConfig: HttpConfig,
  ) {}

  @Public()
  @Get(':id/metadata')
  @Header('Content-Type', 'application/samlmetadata+xml; charset=utf-8')
  @ApiOperation({
    summary: "kb's SAML service provider metadata for the identity provider to import",
    security: [],
  })
  @ApiFileResult({ 'application/samlmetadata+xml': 'text' })
  @ApiProblems(404)
  samlMetadata(@Param('id') id: string): string {
    return this.saml.metadata(id);
  }

  @Public()
  @Get(':id/login')
  @HttpCode(302)
  @ApiOperation({
    summary: 'Start signing in with a SAML identity provider (a browser navigation)',
    security: [],
  })
  @ApiResponse({ status: 302, description: "To the identity provider's sign-on page." })
  @ApiProblems(404)
  async startSaml(
    @Param('id') id: string,
    @Query() query: SsoLoginQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await browserAware(this.httpConfig.publicUrl, req, res, async () => {
      res.redirect(302, await this.saml.start(id, query.returnTo));
    });
  }

  @Public()
  @Post(':id/acs')
  @HttpCode(303)
  @ApiOperation({
    summary:
      "The assertion consumer: the identity provider's HTTP-POST of SAMLResponse (and RelayState); signs in and redirects",
    security: [],
  })
  @ApiResponse({
    status: 303,
    description: 'Signed in: the session cookie is set; on to the page the sign-in started from.',
  })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415)
  async consumeSaml(
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await browserAware(this.httpConfig.publicUrl, req, res, async () => {
      const post = await readForm(req);
      const signedIn = await this.saml.consume(id, post, {
        ip: req.ip ?? 'unknown',
        userAgent: req.get('user-agent'),
      });
      setSessionCookie(req, res, signedIn);
      res.redirect(303, signedIn.returnTo);
    });
  }
}

/** The HTTP-POST binding's form (application/x-www-form-urlencoded), read within a size limit. */
async function readForm(req: Request): Promise<SamlPost> {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw new UnsupportedMediaTypeProblem(
      'unsupported_media_type',
      'The assertion consumer reads an HTML form post (application/x-www-form-urlencoded).',
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) {
      throw new PayloadTooLargeProblem(
        'payload_too_large',
        `A SAML post is at most ${MAX_FORM_BYTES / 1024} KiB.`,
      );
    }
    chunks.push(chunk);
  }
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  return {
    SAMLResponse: form.get('SAMLResponse') ?? undefined,
    RelayState: form.get('RelayState') ?? undefined,
  };
}
