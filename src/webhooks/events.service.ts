import { Injectable } from '@nestjs/common';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import { SqlCondition } from '../common/database/sql';
import { cursorString, decodeCursor, encodeCursor } from '../common/http/pagination';
import { BadRequestProblem } from '../common/problems/problem';
import { PageAccessService } from '../pages/public-api';
import type { EventFeed } from './dto/webhook-response.dto';
import { EventLogRepository } from './event-log.repository';
import { toEventResponse } from './webhooks.mapper';

/**
 * The replayable event feed: the events webhooks are sent, oldest first, each shown only to
 * callers who may see its page (import events: administrators only; a purged page's events:
 * administrators only, as the page is gone).
 */
@Injectable()
export class EventsService {
  constructor(
    private readonly log: EventLogRepository,
    private readonly access: PageAccessService,
  ) {}

  async feed(viewer: AuthUser, after: string | undefined, limit: number): Promise<EventFeed> {
    // The newest event now: a reader that saw nothing visible up to it continues from there.
    const latest = await this.log.latestSeq();
    if (after === 'latest') return { items: [], nextCursor: cursorOf(latest) };
    const from = after === undefined || after === '' ? 0 : seqOf(after);
    const events = await this.log.listAfter(from, this.visible(viewer, latest), limit);
    const last = events.length === limit ? events[events.length - 1].seq : Math.max(latest, from);
    return { items: events.map(toEventResponse), nextCursor: cursorOf(last) };
  }

  /**
   * What the event stream shows `viewer`: the feed's rule, and to everyone `import.finished`
   * (the stream strips its report for non-administrators: their lists may have changed).
   */
  streamVisibility(viewer: AuthUser, upTo: number): SqlCondition {
    const feed = this.visible(viewer, upTo);
    if (isAdmin(viewer) || viewer.paths) return feed;
    return {
      sql: `(${feed.sql}) OR (e.seq <= ? AND e.type = 'import.finished')`,
      params: [...feed.params, upTo],
    };
  }

  private visible(viewer: AuthUser, upTo: number): SqlCondition {
    const bound = { sql: 'e.seq <= ?', params: [upTo] as unknown[] };
    // A path-scoped credential sees only the events of pages within its paths.
    if (isAdmin(viewer) && !viewer.paths) return bound;
    const page = this.access.pageVisibleSql(viewer, 'e.page_id', { evenIfBinned: true });
    return {
      sql: `${bound.sql} AND e.page_id IS NOT NULL AND (${page.sql})`,
      params: [...bound.params, ...page.params],
    };
  }
}

function cursorOf(seq: number): string {
  return encodeCursor({ s: String(seq) });
}

function seqOf(after: string): number {
  const seq = cursorString(decodeCursor(after), 's');
  if (!/^\d{1,15}$/.test(seq))
    throw new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
  return Number(seq);
}
