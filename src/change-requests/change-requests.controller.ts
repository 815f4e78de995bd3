import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser, Editors } from '../common/auth/route-policy';
import { answerWrite, Created } from '../common/http/created';
import type { Paged } from '../common/http/pagination';
import { ApiProblems, ApiResult, ApiSentResult } from '../common/openapi/api-result.decorator';
import { Problem } from '../common/problems/problem';
import { ChangeRequestLinks, linksJUnit } from './change-request-links';
import { ChangeRequestMergeService } from './change-request-merge.service';
import { ChangeRequestsService } from './change-requests.service';
import {
  ChangeRequestDto,
  ChangeRequestLinksResponse,
  ChangeRequestList,
  ChangeRequestListQueryDto,
  ChangeRequestResponse,
  ChangeRequestSummaryResponse,
} from './dto/change-request.dto';

/** A path id: a positive integer, anything else is no request (404 like a missing one). */
export function idOf(raw: string): number {
  return /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : -1;
}

/** Change requests (docs/review.md): anyone signed in proposes; editors review and merge. */
@ApiTags('change-requests')
@Controller('api/change-requests')
export class ChangeRequestsController {
  constructor(
    private readonly requests: ChangeRequestsService,
    private readonly merges: ChangeRequestMergeService,
    private readonly links: ChangeRequestLinks,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Change requests you may see, newest first (`state`: open by default, or all)',
  })
  @ApiResult(ChangeRequestList)
  listChangeRequests(
    @CurrentUser() user: AuthUser,
    @Query() query: ChangeRequestListQueryDto,
  ): Promise<Paged<ChangeRequestSummaryResponse>> {
    return this.requests.list(query, user);
  }

  @Post()
  @ApiOperation({
    summary: 'Propose changes to pages (with the `label` of an open request of yours: update it)',
    description:
      '404 `page_not_found` for a page you may not see; 409 `slug_taken`; 422 for bad slugs, actions or members. ' +
      'A new request answers 201 with Location; an update by label 200.',
  })
  @ApiResult(ChangeRequestResponse)
  @ApiProblems(409)
  async createChangeRequest(
    @CurrentUser() user: AuthUser,
    @Body() body: ChangeRequestDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ChangeRequestResponse> {
    const made = await this.requests.create(body, user);
    // A new request is at version 1; one updated by its label has moved past it.
    if (made.version > 1) {
      res.status(200);
      return made;
    }
    return answerWrite(res, new Created(made, `/api/change-requests/${made.id}`));
  }

  @Get(':id')
  @ApiOperation({ summary: 'A change request with its changes, reviews and conflicts' })
  @ApiResult(ChangeRequestResponse)
  getChangeRequest(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
  ): Promise<ChangeRequestResponse> {
    return this.requests.get(idOf(id), user);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'A new set of changes for an open request (its author); earlier approvals lapse',
  })
  @ApiResult(ChangeRequestResponse)
  @ApiProblems(409)
  updateChangeRequest(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: ChangeRequestDto,
  ): Promise<ChangeRequestResponse> {
    return this.requests.update(idOf(id), body, user);
  }

  @Get(':id/links')
  @ApiOperation({
    summary: 'The links that would break if it were merged, as JSON or JUnit XML (`Accept`)',
  })
  @ApiSentResult(ChangeRequestLinksResponse, {
    content: { 'application/xml': 'text' },
    headers: ['Vary'],
  })
  @ApiProblems(406)
  async getChangeRequestLinks(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ChangeRequestLinksResponse | string> {
    const type = req.accepts(['application/json', 'application/xml', 'text/xml']);
    if (type === false)
      throw new Problem(
        406,
        'not_acceptable',
        'The report is available as application/json or application/xml (JUnit).',
      );
    res.vary('Accept');
    const loaded = await this.requests.load(idOf(id), user);
    const items = await this.links.report(loaded, user);
    if (type === 'application/json') return { items };
    res.type(`${type}; charset=utf-8`);
    const pages = [
      ...new Set([
        ...loaded.changes
          .filter((c) => c.action !== 'bin' && c.action !== 'move')
          .map((c) => c.slug),
        ...items.map((i) => i.page),
      ]),
    ].sort();
    return linksJUnit(loaded.request.id, loaded.request.title, pages, items);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Editors()
  @ApiOperation({
    summary: 'Approve its current version (an editor other than its author)',
    description:
      '403 `own_change_request` for its author; 403 `not_a_reviewer` when its protected paths count other groups or people only.',
  })
  @ApiResult(ChangeRequestResponse)
  @ApiProblems(409)
  approveChangeRequest(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
  ): Promise<ChangeRequestResponse> {
    return this.requests.review(idOf(id), 'approved', user);
  }

  @Post(':id/request-changes')
  @HttpCode(200)
  @Editors()
  @ApiOperation({ summary: 'Ask its author for changes (an editor other than its author)' })
  @ApiResult(ChangeRequestResponse)
  @ApiProblems(409)
  requestChanges(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
  ): Promise<ChangeRequestResponse> {
    return this.requests.review(idOf(id), 'changes_requested', user);
  }

  @Post(':id/merge')
  @HttpCode(200)
  @Editors()
  @ApiOperation({
    summary: 'Apply every change in one transaction (an editor)',
    description:
      '409 `approvals_required`, `merge_conflicts` (with `conflicts`), `change_request_not_open` (also for the loser of two merges at once).',
  })
  @ApiResult(ChangeRequestResponse)
  @ApiProblems(409)
  mergeChangeRequest(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
  ): Promise<ChangeRequestResponse> {
    return this.merges.merge(idOf(id), user);
  }

  @Post(':id/close')
  @HttpCode(200)
  @ApiOperation({ summary: 'Close without merging (its author, or an editor)' })
  @ApiResult(ChangeRequestResponse)
  @ApiProblems(409)
  closeChangeRequest(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
  ): Promise<ChangeRequestResponse> {
    return this.requests.close(idOf(id), user);
  }
}
