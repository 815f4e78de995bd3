import { Injectable } from '@nestjs/common';
import { AuthUser } from '../common/auth/auth-user';
import { Database } from '../common/database/database';
import { audit } from '../common/logging/audit';
import { ConflictProblem } from '../common/problems/problem';
import { PageMoveService } from '../pages/public-api';
import { PageWriterService, WriteOptions } from '../pages/public-api';
import { PageBinService } from '../pages/public-api';
import { PagesService } from '../pages/public-api';
import { ProtectedPathsService } from '../pages/public-api';
import { fittedSummary } from '../pages/public-api';
import { approvalStatus } from './change-request-review';
import { ChangeRequestPlanner, PlannedChange } from './change-request-plan';
import { ChangeRequestsService, notOpen, slugsOf } from './change-requests.service';
import { ChangeRequestResponse } from './dto/change-request.dto';
import { ChangeRequestsRepository } from './store/change-requests.repository';

/** The summary every revision a merge writes carries. */
export function mergeSummary(id: number, title: string): string {
  return fittedSummary(`Change request #${id}: ${title}`)!;
}

/**
 * POST /api/change-requests/{id}/merge: every change through the pages' own write, move and
 * bin use cases, in ONE transaction (all pages or none). The request turns `merged` first, by a
 * conditional UPDATE on its state and version: of two merges at once exactly one gets past it;
 * a page changed after the plan makes its conditional page update fail, and everything rolls
 * back (409), so nothing is silently overwritten.
 */
@Injectable()
export class ChangeRequestMergeService {
  constructor(
    private readonly db: Database,
    private readonly requests: ChangeRequestsRepository,
    private readonly service: ChangeRequestsService,
    private readonly planner: ChangeRequestPlanner,
    private readonly protectedPaths: ProtectedPathsService,
    private readonly pages: PagesService,
    private readonly bin: PageBinService,
    private readonly writer: PageWriterService,
    private readonly mover: PageMoveService,
  ) {}

  async merge(id: number, actor: AuthUser): Promise<ChangeRequestResponse> {
    const { request, changes } = await this.service.load(id, actor);
    if (request.state !== 'open') throw notOpen(request.state);
    const [reviews, rules] = await Promise.all([
      this.requests.reviewsOf(id),
      this.protectedPaths.covering(slugsOf(changes)),
    ]);
    const status = approvalStatus(request, reviews, rules);
    if (status.missing > 0)
      throw new ConflictProblem(
        'approvals_required',
        `The change request needs ${status.missing} more approval${status.missing === 1 ? '' : 's'} before it can be merged.`,
        { approvalsMissing: status.missing },
      );
    const { planned, conflicts } = await this.planner.plan(changes, actor);
    if (conflicts.length > 0)
      throw new ConflictProblem(
        'merge_conflicts',
        'Pages changed since the request was made, where it changes them too; update the request first.',
        { conflicts },
      );
    const summary = mergeSummary(id, request.title);
    await this.db.transaction(async (tx) => {
      if (!(await this.requests.finish(id, request.version, 'merged', actor.id, new Date(), tx))) {
        const now = await this.requests.find(id, tx);
        if (now?.state !== 'open') throw notOpen(now?.state ?? 'closed');
        throw new ConflictProblem(
          'change_request_changed',
          'The change request was updated meanwhile; review it again.',
        );
      }
      const options = { tx, changeRequest: true, summary };
      for (const change of planned) await this.apply(change, summary, actor, options);
      await this.service.record(tx, 'change_request.merged', id, actor);
    });
    audit('change_request.merged', {
      actorId: actor.id,
      target: `change_request:${id}`,
      slugs: slugsOf(changes),
    });
    return this.service.get(id, actor);
  }

  private async apply(
    change: PlannedChange,
    summary: string,
    actor: AuthUser,
    options: WriteOptions,
  ): Promise<void> {
    switch (change.action) {
      case 'create':
        await this.writer.create(
          { slug: change.slug, title: change.title, content: change.content, summary },
          actor,
          options,
        );
        return;
      case 'update':
        await this.writer.update(
          change.page.slug,
          { title: change.title, content: change.content, summary },
          actor,
          { baseRevision: change.page.revision },
          options,
        );
        return;
      case 'bin':
        await this.bin.binWithin(options.tx!, change.page, actor);
        return;
      case 'move':
        await this.mover.move({ from: change.page.slug, to: change.to }, actor, options);
        return;
    }
  }
}
