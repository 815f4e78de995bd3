import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser, Public, SessionOnly } from '../../common/auth/route-policy';
import { InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import { ApiProblems, ApiResult } from '../../common/openapi/api-result.decorator';
import { AuthService } from '../auth.service';
import { clearSessionCookie, setSessionCookie } from '../session-cookie';
import { SamlService } from '../saml/saml.service';
import { OidcService } from './oidc.service';
import { browserAware } from './sso-flow';
import { SsoLoginQuery, SsoLogoutResponse, SsoProviderList } from './sso.dto';

/** The cookie binding a started sign-in to the browser that started it (login CSRF guard). */
const BINDING_COOKIE = 'kb_sso';
const BINDING_PATH = '/auth/oidc';

@ApiTags('auth')
@Controller('auth')
export class OidcController {
  constructor(
    private readonly oidc: OidcService,
    private readonly saml: SamlService,
    private readonly auth: AuthService,
    @InjectConfig('http') private readonly httpConfig: HttpConfig,
  ) {}

  @Public()
  @Get('providers')
  @ApiOperation({ summary: 'The single sign-on providers the sign-in screen offers', security: [] })
  @ApiResult(SsoProviderList)
  listProviders(): SsoProviderList {
    return { items: [...this.oidc.providers(), ...this.saml.providers()] };
  }

  @Public()
  @Get('oidc/:id/login')
  @HttpCode(302)
  @ApiOperation({
    summary: 'Start signing in with an OpenID Connect provider (a browser navigation)',
    security: [],
  })
  @ApiResponse({ status: 302, description: "To the provider's sign-in page." })
  @ApiProblems(404, 502)
  async startOidc(
    @Param('id') id: string,
    @Query() query: SsoLoginQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.browserAware(req, res, async () => {
      // One binding per browser, so sign-ins started in two tabs both finish.
      const existing = req.cookies?.[BINDING_COOKIE] as string | undefined;
      const binding = existing && existing.length <= 100 ? existing : this.oidc.newBinding();
      const url = await this.oidc.start(id, query.returnTo, binding);
      res.cookie(BINDING_COOKIE, binding, {
        httpOnly: true,
        // Lax: the provider's redirect back is a top-level navigation, which carries it.
        sameSite: 'lax',
        secure: req.secure,
        path: BINDING_PATH,
        maxAge: 10 * 60_000,
      });
      res.redirect(302, url);
    });
  }

  @Public()
  @Get('oidc/:id/callback')
  @HttpCode(303)
  @ApiOperation({
    summary: "The provider's redirect back (the registered redirect URI); signs in and redirects",
    security: [],
  })
  @ApiResponse({
    status: 303,
    description: 'Signed in: the session cookie is set; on to the page the sign-in started from.',
  })
  @ApiProblems(400, 401, 403, 404, 409, 502)
  async finishOidc(
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.browserAware(req, res, async () => {
      const at = req.originalUrl.indexOf('?');
      const query = at < 0 ? '' : req.originalUrl.slice(at + 1);
      const signedIn = await this.oidc.finish(id, query, {
        ip: req.ip ?? 'unknown',
        userAgent: req.get('user-agent'),
        binding: req.cookies?.[BINDING_COOKIE] as string | undefined,
      });
      setSessionCookie(req, res, signedIn);
      res.redirect(303, signedIn.returnTo);
    });
  }

  @SessionOnly()
  @Post('oidc/logout')
  @HttpCode(200)
  @ApiCookieAuth('session')
  @ApiOperation({
    summary: 'End the current browser session, and say where to end the provider’s session too',
  })
  @ApiResult(SsoLogoutResponse)
  async logoutOidc(
    @CurrentUser() user: AuthUser,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SsoLogoutResponse> {
    // Read before the session (and its provider row) is gone.
    const redirectTo = user.sessionId ? await this.oidc.endSessionUrl(user.sessionId) : null;
    await this.auth.logout(user);
    clearSessionCookie(req, res);
    return { redirectTo };
  }

  private browserAware(req: Request, res: Response, work: () => Promise<void>): Promise<void> {
    return browserAware(this.httpConfig.publicUrl, req, res, work);
  }
}
