import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuthUser } from '../../common/auth/auth-user';
import { AdminOnly, CurrentUser, SessionOnly } from '../../common/auth/route-policy';
import { UuidParam } from '../../common/http/uuid-param.pipe';
import { ApiProblems, ApiResult } from '../../common/openapi/api-result.decorator';
import {
  DisableTotpDto,
  PasskeyAnswerDto,
  PasskeyResponse,
  RecoveryCodesResponse,
  TotpSetupResponse,
  TwoFactorCodeDto,
  TwoFactorStatusResponse,
  WebAuthnOptionsResponse,
} from './two-factor.dto';
import { TwoFactorAccountService } from './two-factor-account.service';

/** Your own second factors: a browser session only (a token cannot change how you sign in). */
@ApiTags('users')
@SessionOnly()
@Controller('api/me')
export class TwoFactorAccountController {
  constructor(private readonly account: TwoFactorAccountService) {}

  @Get('two-factor')
  @ApiOperation({ summary: 'Your second factors: TOTP, recovery codes left, passkeys' })
  @ApiResult(TwoFactorStatusResponse)
  getTwoFactor(@CurrentUser() user: AuthUser): Promise<TwoFactorStatusResponse> {
    return this.account.status(user);
  }

  @Post('two-factor/totp')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start setting up TOTP: the secret and its QR code, answered this once',
  })
  @ApiResult(TotpSetupResponse)
  @ApiProblems(409)
  startTotp(@CurrentUser() user: AuthUser): Promise<TotpSetupResponse> {
    return this.account.startTotp(user);
  }

  @Post('two-factor/totp/enable')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm TOTP with a first code: it is on, and ten recovery codes are answered once',
  })
  @ApiResult(RecoveryCodesResponse)
  @ApiProblems(409)
  async enableTotp(
    @CurrentUser() user: AuthUser,
    @Body() body: TwoFactorCodeDto,
    @Req() req: Request,
  ): Promise<RecoveryCodesResponse> {
    return { recoveryCodes: await this.account.enableTotp(user, body.code, req.ip ?? 'unknown') };
  }

  @Post('two-factor/totp/disable')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Turn TOTP off (and drop the recovery codes): needs your password or a code',
  })
  @ApiProblems(429)
  async disableTotp(
    @CurrentUser() user: AuthUser,
    @Body() body: DisableTotpDto,
    @Req() req: Request,
  ): Promise<void> {
    await this.account.disableTotp(user, body, req.ip ?? 'unknown');
  }

  @Post('passkeys/options')
  @HttpCode(200)
  @ApiOperation({ summary: 'WebAuthn options to register a passkey (KB_PUBLIC_URL is the RP)' })
  @ApiResult(WebAuthnOptionsResponse)
  @ApiProblems(409)
  passkeyRegistrationOptions(@CurrentUser() user: AuthUser): Promise<WebAuthnOptionsResponse> {
    return this.account.passkeyOptions(user);
  }

  @Post('passkeys')
  @ApiOperation({ summary: 'Register a passkey from the browser’s answer to the options' })
  @ApiResult(PasskeyResponse)
  @ApiProblems(401, 409)
  addPasskey(
    @CurrentUser() user: AuthUser,
    @Body() body: PasskeyAnswerDto,
    @Req() req: Request,
  ): Promise<PasskeyResponse> {
    return this.account.addPasskey(user, body, req.ip ?? 'unknown');
  }

  @Delete('passkeys/:passkeyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove one of your passkeys' })
  async removePasskey(
    @CurrentUser() user: AuthUser,
    @Param('passkeyId') id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.account.removePasskey(user, id, req.ip ?? 'unknown');
  }
}

/** An administrator's reset of someone's factors (they sign in with the password alone again). */
@ApiTags('users')
@AdminOnly()
@Controller('api/users/:id/two-factor')
export class UserTwoFactorController {
  constructor(private readonly account: TwoFactorAccountService) {}

  @Post('reset')
  @HttpCode(204)
  @ApiOperation({ summary: "Reset a user's two-factor: TOTP, recovery codes, passkeys (admin)" })
  async resetTwoFactor(
    @Param('id', new UuidParam('user')) id: string,
    @CurrentUser() admin: AuthUser,
  ): Promise<void> {
    await this.account.reset(id, admin);
  }
}
