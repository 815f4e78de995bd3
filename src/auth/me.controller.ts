import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, SessionOnly } from '../common/auth/route-policy';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { AccountsService } from './accounts.service';
import { ChangePasswordDto, UpdateMeDto } from './dto/account.dto';
import {
  AccountResponse,
  MeResponse,
  PasswordChangedResponse,
  SessionList,
  SessionResponse,
} from './dto/auth-response.dto';

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

  @Get('account')
  @ApiOperation({
    summary: "The caller's account as stored: display name, email, last sign-in",
  })
  @ApiResult(AccountResponse)
  getAccount(@CurrentUser() user: AuthUser): Promise<AccountResponse> {
    return this.accounts.account(user);
  }

  /** A token cannot change its owner's account: a browser session (or curl's cookie jar) can. */
  @SessionOnly()
  @Patch()
  @ApiOperation({
    summary:
      'Change your display name, email or password (with currentPassword; ends your other sessions), or revoke all your tokens',
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

  @SessionOnly()
  @Post('password')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Change your password: the current one is checked like a sign-in (throttled); every other session of yours ends',
  })
  @ApiResult(PasswordChangedResponse)
  @ApiProblems(429)
  changePassword(
    @CurrentUser() user: AuthUser,
    @Body() body: ChangePasswordDto,
    @Req() req: Request,
  ): Promise<PasswordChangedResponse> {
    return this.accounts.changePassword(user, body, req.ip ?? 'unknown');
  }

  @SessionOnly()
  @Get('sessions')
  @ApiOperation({
    summary: 'Your browser sessions (browser, address, last seen), most recently seen first',
  })
  @ApiResult(SessionList)
  listSessions(
    @CurrentUser() user: AuthUser,
    @Query() query: ListQueryDto,
  ): Promise<Paged<SessionResponse>> {
    return this.accounts.listSessions(user, parseListRequest(query));
  }

  @SessionOnly()
  @Delete('sessions')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out everywhere else: end every session of yours but this one' })
  async endOtherSessions(@CurrentUser() user: AuthUser): Promise<void> {
    await this.accounts.endOtherSessions(user);
  }

  @SessionOnly()
  @Delete('sessions/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: "Sign one of your sessions out; another person's (or no) session is 404",
  })
  async endSession(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.accounts.endOwnSession(user, id);
  }
}
