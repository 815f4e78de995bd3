import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser, SessionOnly } from '../common/auth/route-policy';
import { UuidParam } from '../common/http/uuid-param.pipe';
import { ListQueryDto } from '../common/http/list-query.dto';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { AccountsService } from './accounts.service';
import { TokenResponse } from './auth.mapper';
import { TokenList } from './dto/auth-response.dto';

/**
 * An administrator's hold on someone's credentials: their tokens (token management needs a
 * browser session, as for one's own), their sessions and their sign-in throttle.
 */
@ApiTags('users')
@AdminOnly()
@Controller('api/users/:id')
export class UserCredentialsController {
  constructor(private readonly accounts: AccountsService) {}

  @SessionOnly(['admin'])
  @Get('tokens')
  @ApiOperation({ summary: "A user's personal access tokens, newest first (admin)" })
  @ApiResult(TokenList)
  listUserTokens(
    @Param('id', new UuidParam('user')) id: string,
    @Query() query: ListQueryDto,
  ): Promise<Paged<TokenResponse>> {
    return this.accounts.listTokens(id, parseListRequest(query));
  }

  @SessionOnly(['admin'])
  @Delete('tokens/:tokenId')
  @HttpCode(204)
  @ApiOperation({ summary: "Revoke one of a user's tokens at once (admin)" })
  async revokeUserToken(
    @Param('id', new UuidParam('user')) id: string,
    @Param('tokenId', new UuidParam('token')) tokenId: string,
    @CurrentUser() admin: AuthUser,
  ): Promise<void> {
    await this.accounts.revokeToken(id, tokenId, admin);
  }

  @Delete('sessions')
  @HttpCode(204)
  @ApiOperation({ summary: 'End every browser session of a user (admin)' })
  async endUserSessions(
    @Param('id', new UuidParam('user')) id: string,
    @CurrentUser() admin: AuthUser,
  ): Promise<void> {
    await this.accounts.endSessions(id, admin);
  }

  @Post('unlock')
  @HttpCode(204)
  @ApiOperation({
    summary: "Clear a user's failed sign-in counter, so they may sign in again at once (admin)",
  })
  async unlockUser(
    @Param('id', new UuidParam('user')) id: string,
    @CurrentUser() admin: AuthUser,
  ): Promise<void> {
    await this.accounts.unlockById(id, admin);
  }
}
