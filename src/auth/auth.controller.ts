import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, Public, SessionOnly } from '../common/auth/route-policy';
import { JsonBodyBudget } from '../common/http/json-budget';
import { isSameOriginRequest } from '../common/http/origin';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { InjectConfig } from '../common/config/app-config';
import type { HttpConfig } from '../common/config/http-config';
import { MeResponse } from './dto/auth-response.dto';
import { AuthService } from './auth.service';
import { LoginDto } from './dto/user.dto';
import { clearSessionCookie, setPendingCookie, setSessionCookie } from './session-cookie';
import { secondStepProblem } from './two-factor/two-factor.problems';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @InjectConfig('http') private readonly httpConfig: HttpConfig,
  ) {}

  @Public()
  @Post('login')
  // A username and a password: a few hundred bytes; anonymous, so nothing more is read.
  @JsonBodyBudget({ maxBytes: 8 * 1024, maxDepth: 4, maxMembers: 16 })
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in; sets the HttpOnly session cookie', security: [] })
  @ApiResult(MeResponse, {
    description:
      'The signed-in user; a 401 `second_factor_required` or `two_factor_enrolment_required` sets the pending cookie for the next step (/auth/2fa/*, /auth/passkey/*)',
    headers: ['Set-Cookie'],
  })
  @ApiProblems(401, 403, 429)
  async login(
    @Body() body: LoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MeResponse> {
    const signedIn = await this.auth.login(body, {
      ip: req.ip ?? 'unknown',
      userAgent: req.get('user-agent'),
      sameOrigin: isSameOriginRequest(req, this.httpConfig.allowedOrigins),
    });
    if ('pending' in signedIn) {
      setPendingCookie(req, res, signedIn);
      throw secondStepProblem(signedIn);
    }
    setSessionCookie(req, res, signedIn);
    return signedIn.me;
  }

  @SessionOnly()
  @Post('logout')
  @HttpCode(204)
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'End the current browser session' })
  async logout(
    @CurrentUser() user: AuthUser,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    await this.auth.logout(user);
    clearSessionCookie(req, res);
  }
}
