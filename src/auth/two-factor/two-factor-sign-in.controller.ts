import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/route-policy';
import { InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import { JsonBodyBudget } from '../../common/http/json-budget';
import { isSameOriginRequest } from '../../common/http/origin';
import { ApiProblems, ApiResult } from '../../common/openapi/api-result.decorator';
import { ForbiddenProblem } from '../../common/problems/problem';
import type { LoginContext, LoginResult } from '../auth.service';
import { MeResponse } from '../dto/auth-response.dto';
import { clearPendingCookie, pendingCookie, setSessionCookie } from '../session-cookie';
import { SignInStepsService } from './sign-in-steps.service';
import {
  EnrolledResponse,
  PasskeyAnswerDto,
  TotpSetupResponse,
  TwoFactorCodeDto,
  WebAuthnOptionsResponse,
} from './two-factor.dto';

/**
 * The steps of a sign-in after the password (the pending cookie names it) and the passkey
 * sign-in. Anonymous routes: no session exists until a step finishes.
 */
@ApiTags('auth')
@Controller('auth')
export class TwoFactorSignInController {
  constructor(
    private readonly steps: SignInStepsService,
    @InjectConfig('http') private readonly http: HttpConfig,
  ) {}

  @Public()
  @Post('2fa/verify')
  @JsonBodyBudget({ maxBytes: 4 * 1024, maxDepth: 2, maxMembers: 4 })
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Second step of a sign-in: a TOTP or recovery code (counted by the login throttle); sets the session cookie',
    security: [],
  })
  @ApiResult(MeResponse, { headers: ['Set-Cookie'] })
  @ApiProblems(401, 403, 429)
  async verifySecondFactor(
    @Body() body: TwoFactorCodeDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MeResponse> {
    const result = await this.steps.verifyCode(pendingCookie(req), body.code, this.context(req));
    return this.signedIn(req, res, result).me;
  }

  @Public()
  @Post('2fa/enrol')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'REQUIRE_2FA: a TOTP secret for the person whose password was just accepted (pending cookie)',
    security: [],
  })
  @ApiResult(TotpSetupResponse)
  @ApiProblems(401, 403, 409)
  startEnrolment(@Req() req: Request): Promise<TotpSetupResponse> {
    this.context(req);
    return this.steps.startEnrolment(pendingCookie(req));
  }

  @Public()
  @Post('2fa/enrol/enable')
  @JsonBodyBudget({ maxBytes: 4 * 1024, maxDepth: 2, maxMembers: 4 })
  @HttpCode(200)
  @ApiOperation({
    summary:
      'REQUIRE_2FA: the first code turns TOTP on, answers the recovery codes once and signs in',
    security: [],
  })
  @ApiResult(EnrolledResponse, { headers: ['Set-Cookie'] })
  @ApiProblems(401, 403, 409, 429)
  async finishEnrolment(
    @Body() body: TwoFactorCodeDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EnrolledResponse> {
    const result = await this.steps.finishEnrolment(
      pendingCookie(req),
      body.code,
      this.context(req),
    );
    return { me: this.signedIn(req, res, result).me, recoveryCodes: result.recoveryCodes };
  }

  @Public()
  @Post('passkey/options')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'WebAuthn options to sign in with a passkey: the pending person’s passkeys after a password, else any discoverable one',
    security: [],
  })
  @ApiResult(WebAuthnOptionsResponse)
  @ApiProblems(403, 409)
  passkeySignInOptions(@Req() req: Request): Promise<WebAuthnOptionsResponse> {
    this.context(req);
    return this.steps.passkeyOptions(pendingCookie(req));
  }

  @Public()
  @Post('passkey/verify')
  @JsonBodyBudget({ maxBytes: 32 * 1024, maxDepth: 4, maxMembers: 64 })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with a passkey (alone, or as the second step); sets the session cookie',
    security: [],
  })
  @ApiResult(MeResponse, { headers: ['Set-Cookie'] })
  @ApiProblems(401, 403, 409)
  async passkeySignIn(
    @Body() body: PasskeyAnswerDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MeResponse> {
    const result = await this.steps.passkeySignIn(
      pendingCookie(req),
      body.response as unknown as AuthenticationResponseJSON,
      this.context(req),
    );
    return this.signedIn(req, res, result).me;
  }

  /** As at POST /auth/login: a cross-site form must not drive anyone's sign-in. */
  private context(req: Request): LoginContext {
    if (!isSameOriginRequest(req, this.http.allowedOrigins)) {
      throw new ForbiddenProblem('cross_origin_refused', 'Sign-in must come from this site.');
    }
    return { ip: req.ip ?? 'unknown', userAgent: req.get('user-agent'), sameOrigin: true };
  }

  private signedIn(req: Request, res: Response, result: LoginResult): LoginResult {
    clearPendingCookie(req, res);
    setSessionCookie(req, res, result);
    return result;
  }
}
