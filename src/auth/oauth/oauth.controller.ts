import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser, SessionOnly } from '../../common/auth/route-policy';
import { Paged } from '../../common/http/pagination';
import { ApiProblems, ApiResult } from '../../common/openapi/api-result.decorator';
import { OAuthAppsService } from './oauth-apps.service';
import {
  OAuthClientList,
  OAuthClientResponse,
  OAuthDecisionDto,
  OAuthDecisionResponse,
  OAuthGrantList,
  OAuthGrantResponse,
  OAuthRequestResponse,
} from './oauth.dto';

/**
 * The console's side of OAuth (docs/oauth.md): the consent screen, the apps a person
 * authorised, and the administrators' list of clients. A browser session only: an app's token
 * can neither approve itself nor see or revoke grants.
 */
@ApiTags('oauth')
@SessionOnly()
@Controller('api/oauth')
export class OAuthController {
  constructor(private readonly apps: OAuthAppsService) {}

  @Get('requests/:uid')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'The authorization request the consent screen shows: the app and the scopes',
    description:
      'Only in the browser that started the authorization (the interaction cookie); otherwise 404 `oauth_request_not_found`.',
  })
  @ApiResult(OAuthRequestResponse)
  getOAuthRequest(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @CurrentUser() user: AuthUser,
    @Param('uid') uid: string,
  ): Promise<OAuthRequestResponse> {
    return this.apps.request(req, res, user, uid);
  }

  @Post('requests/:uid')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Approve or deny an authorization request as the signed-in person',
    description:
      'Answers where the browser goes next: through kb back to the app, with a code or `access_denied`.',
  })
  @ApiResult(OAuthDecisionResponse)
  decideOAuthRequest(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @CurrentUser() user: AuthUser,
    @Param('uid') uid: string,
    @Body() body: OAuthDecisionDto,
  ): Promise<OAuthDecisionResponse> {
    return this.apps.decide(req, res, user, uid, body.decision, body.paths);
  }

  @Get('grants')
  @ApiOperation({ summary: 'The apps the caller authorised' })
  @ApiResult(OAuthGrantList)
  listOAuthGrants(@CurrentUser() user: AuthUser): Promise<Paged<OAuthGrantResponse>> {
    return this.apps.grants(user.id);
  }

  @Delete('grants/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: "Revoke an app's access: the grant and every token issued under it end at once",
    description: "Administrators may revoke anyone's grant; another person's is 404 otherwise.",
  })
  @ApiProblems(404)
  async revokeOAuthGrant(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.apps.revoke(user, id);
  }

  @Get('clients')
  @SessionOnly(['admin'])
  @ApiOperation({ summary: 'Every registered app with who authorised it (admin)' })
  @ApiResult(OAuthClientList)
  listOAuthClients(): Promise<Paged<OAuthClientResponse>> {
    return this.apps.clients();
  }

  @Post('clients/:id/ban')
  @SessionOnly(['admin'])
  @HttpCode(204)
  @ApiOperation({
    summary: 'Ban an app (admin): it can no longer authorise, and its grants and tokens end now',
  })
  @ApiProblems(404)
  async banOAuthClient(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.apps.ban(user, id);
  }
}
