import { Body, Controller, Get, Patch, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, SessionOnly } from '../common/auth/route-policy';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { AccountsService } from './accounts.service';
import { UpdateMeDto } from './dto/account.dto';
import { MeResponse } from './dto/auth-response.dto';

@ApiTags('users')
@Controller('api/me')
export class MeController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @ApiOperation({
    summary: 'The caller: id, username, role (narrowed by a token scope) and groups',
  })
  @ApiResult(MeResponse)
  getMe(@CurrentUser() user: AuthUser): MeResponse {
    return this.accounts.me(user);
  }

  /** A token cannot change its owner's account: a browser session (or curl's cookie jar) can. */
  @SessionOnly()
  @Patch()
  @ApiOperation({
    summary:
      'Change your display name or password (with currentPassword; ends your other sessions), or revoke all your tokens',
  })
  @ApiResult(MeResponse)
  @ApiProblems(429)
  updateMe(
    @CurrentUser() user: AuthUser,
    @Body() body: UpdateMeDto,
    @Req() req: Request,
  ): Promise<MeResponse> {
    return this.accounts.updateOwn(user, body, req.ip ?? 'unknown');
  }
}
