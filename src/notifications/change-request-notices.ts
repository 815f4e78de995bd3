import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Tx } from '../common/database/database';
import {
  CHANGE_REQUEST_EVENTS,
  ChangeRequestEvent,
  ChangeRequestEventType,
} from '../common/events/domain-events';
import { Outbox } from '../common/events/outbox';
import { NotificationsService } from './notifications.service';
import { WatchesService } from './watches/watches.service';

/**
 * Inbox notices of change requests (docs/review.md), written inside the change's transaction:
 * a new request reaches the people asked to review it and the watchers of its pages; an update
 * the reviewers; an approval or a request for changes its author; a merge or close the author
 * and the reviewers; a comment on a line of its diff the author and the thread's earlier writers.
 * Never the person who acted, and only who may see the request's most
 * restricted page.
 */
@Injectable()
export class ChangeRequestNotices implements OnModuleInit {
  constructor(
    private readonly outbox: Outbox,
    private readonly notifications: NotificationsService,
    private readonly watches: WatchesService,
  ) {}

  onModuleInit(): void {
    for (const type of CHANGE_REQUEST_EVENTS)
      this.outbox.within(type, (tx, event) => this.notify(tx, type, event));
  }

  private async notify(
    tx: Tx,
    type: ChangeRequestEventType,
    event: ChangeRequestEvent,
  ): Promise<void> {
    const candidates = new Set<string>();
    const action = type.slice('change_request.'.length);
    if (action === 'approved' || action === 'changes_requested') candidates.add(event.authorId);
    if (action === 'merged' || action === 'closed') candidates.add(event.authorId);
    if (action === 'commented') {
      // A review comment: the request's author and who wrote in the thread before.
      candidates.add(event.authorId);
      for (const id of event.participantIds ?? []) candidates.add(id);
    } else if (action !== 'approved' && action !== 'changes_requested')
      for (const id of event.reviewerIds) candidates.add(id);
    if (action === 'created')
      for (const slug of event.slugs)
        for (const id of await this.watches.watchersOf(slug)) candidates.add(id);
    candidates.delete(event.actorId);
    const now = new Date();
    for (const recipientId of candidates) {
      if (event.pageId && !(await this.notifications.recipientWouldSee(recipientId, event.pageId)))
        continue;
      await this.notifications.create(
        {
          recipientId,
          kind: 'change_request',
          actorId: event.actorId,
          data: { requestId: event.requestId, title: event.title, action },
        },
        now,
        tx,
      );
    }
  }
}
