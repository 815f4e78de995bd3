import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../../common/auth/auth-user';
import { AdminOnly, CurrentUser, Public } from '../../common/auth/route-policy';
import { answerWrite } from '../../common/http/created';
import { JsonBodyBudget } from '../../common/http/json-budget';
import { UuidParam } from '../../common/http/uuid-param.pipe';
import { ApiProblems, ApiResult } from '../../common/openapi/api-result.decorator';
import { InvitationsService } from './invitations.service';
import {
  AcceptInvitationDto,
  AccountReadyResponse,
  CreatedInvitationResponse,
  CreateInvitationDto,
  InvitationDetails,
  InvitationList,
  LinkTokenDto,
} from './mail.dto';

@ApiTags('users')
@AdminOnly()
@Controller('api/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post()
  @ApiOperation({
    summary:
      'Invite someone by email with a role and groups (admin); without SMTP the answer holds the link to pass on',
  })
  @ApiResult(CreatedInvitationResponse, { headers: ['Location'] })
  async createInvitation(
    @Body() body: CreateInvitationDto,
    @CurrentUser() admin: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreatedInvitationResponse> {
    return answerWrite(res, await this.invitations.invite(body, admin));
  }

  @Get()
  @ApiOperation({ summary: 'Invitations neither accepted nor revoked, newest first (admin)' })
  @ApiResult(InvitationList)
  listInvitations(): Promise<InvitationList> {
    return this.invitations.list();
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a pending invitation: its link stops working (admin)' })
  async revokeInvitation(
    @Param('id', new UuidParam('invitation')) id: string,
    @CurrentUser() admin: AuthUser,
  ): Promise<void> {
    await this.invitations.revoke(id, admin);
  }
}

/** The invitation link's page: what it invites to, and accepting it. */
@ApiTags('auth')
@Controller('auth/invitations')
export class InvitationLinksController {
  constructor(private readonly invitations: InvitationsService) {}

  @Public()
  @Post('lookup')
  @HttpCode(200)
  @JsonBodyBudget({ maxBytes: 4 * 1024, maxDepth: 2, maxMembers: 4 })
  @ApiOperation({
    summary: "An invitation link's address, role and a suggested username",
    security: [],
  })
  @ApiResult(InvitationDetails)
  @ApiProblems(404, 410)
  lookupInvitation(@Body() body: LinkTokenDto): Promise<InvitationDetails> {
    return this.invitations.details(body.token);
  }

  @Public()
  @Post('accept')
  @HttpCode(201)
  @JsonBodyBudget({ maxBytes: 8 * 1024, maxDepth: 2, maxMembers: 8 })
  @ApiOperation({
    summary: 'Accept an invitation: creates the account with a username and password (single use)',
    security: [],
  })
  @ApiResult(AccountReadyResponse)
  @ApiProblems(404, 409, 410)
  acceptInvitation(@Body() body: AcceptInvitationDto): Promise<AccountReadyResponse> {
    return this.invitations.accept(body);
  }
}
