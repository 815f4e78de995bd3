import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, SessionOnly } from '../common/auth/route-policy';
import { answerWrite } from '../common/http/created';
import { UuidParam } from '../common/http/uuid-param.pipe';
import { Paged, parseListRequest } from '../common/http/pagination';
import { ListQueryDto } from '../common/http/list-query.dto';
import { ApiProblems, ApiResult } from '../common/openapi/api-result.decorator';
import { TokenResponse } from './auth.mapper';
import { CreatedTokenResponse, TokenList } from './dto/auth-response.dto';
import { CreateTokenDto } from './dto/token.dto';
import { TokensService } from './tokens.service';

/** Token management needs a browser session: a token can't mint or list tokens. */
@ApiTags('tokens')
@SessionOnly()
@Controller('api/tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Create a personal access token; the secret is in this answer only',
    description:
      "At most TOKEN_MAX_PER_USER (default 20) live tokens per person: one more is 409 `too_many_tokens` (with `limit`). Tokens spend their owner's rate-limit quotas.",
  })
  @ApiResult(CreatedTokenResponse, { headers: ['Location'] })
  @ApiProblems(409)
  async createToken(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateTokenDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreatedTokenResponse> {
    return answerWrite(res, await this.tokens.create(user, body));
  }

  @Get()
  @ApiOperation({ summary: "List the caller's tokens (never their secrets)" })
  @ApiResult(TokenList)
  listTokens(
    @CurrentUser() user: AuthUser,
    @Query() query: ListQueryDto,
  ): Promise<Paged<TokenResponse>> {
    return this.tokens.list(user.id, parseListRequest(query));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a token at once' })
  async revokeToken(
    @CurrentUser() user: AuthUser,
    @Param('id', new UuidParam('token')) id: string,
  ): Promise<void> {
    await this.tokens.revoke(user.id, id, user.id);
  }
}
