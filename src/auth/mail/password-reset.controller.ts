import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../common/auth/route-policy';
import { JsonBodyBudget } from '../../common/http/json-budget';
import { ApiProblems, ApiResult } from '../../common/openapi/api-result.decorator';
import {
  PasswordResetDone,
  PasswordResetRequested,
  PasswordResetStatus,
  RequestPasswordResetDto,
  ResetPasswordDto,
} from './mail.dto';
import { PasswordResetService } from './password-reset.service';

@ApiTags('auth')
@Controller('auth/password-reset')
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  @Public()
  @Get()
  @ApiOperation({
    summary: 'Whether "Forgot password?" works here (SMTP configured)',
    security: [],
  })
  @ApiResult(PasswordResetStatus)
  status(): PasswordResetStatus {
    return { enabled: this.resets.enabled };
  }

  @Public()
  @Post()
  @HttpCode(202)
  @JsonBodyBudget({ maxBytes: 4 * 1024, maxDepth: 2, maxMembers: 4 })
  @ApiOperation({
    summary:
      'Mail a single-use reset link (30 minutes) to the accounts with this address; the same answer whether or not one has it',
    security: [],
  })
  @ApiResult(PasswordResetRequested)
  @ApiProblems(403, 429)
  requestPasswordReset(
    @Body() body: RequestPasswordResetDto,
    @Req() req: Request,
  ): Promise<PasswordResetRequested> {
    return this.resets.request(body.email, req.ip ?? 'unknown');
  }

  @Public()
  @Post('confirm')
  @HttpCode(200)
  @JsonBodyBudget({ maxBytes: 4 * 1024, maxDepth: 2, maxMembers: 4 })
  @ApiOperation({
    summary: "Set a new password with a reset link's token; ends every session of the account",
    security: [],
  })
  @ApiResult(PasswordResetDone)
  @ApiProblems(403, 404, 410)
  resetPassword(@Body() body: ResetPasswordDto): Promise<PasswordResetDone> {
    return this.resets.reset(body.token, body.password);
  }
}
