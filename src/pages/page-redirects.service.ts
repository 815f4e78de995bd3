import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AuthUser } from '../common/auth/auth-user';
import { Database } from '../common/database/database';
import { REDIRECT_DELETED, RedirectDeletedEvent } from '../common/events/domain-events';
import { cursorString, ListRequest, Paged, toPaged } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import { NotFoundProblem } from '../common/problems/problem';
import { RedirectResponse } from './dto/page-move.dto';
import { normaliseSlug } from './slug';
import type { RedirectItem } from './store/redirects';
import { PagesRepository } from './store/pages.repository';

function toRedirectResponse(item: RedirectItem): RedirectResponse {
  return {
    from: item.from,
    to: item.to,
    binned: item.binned,
    createdAt: item.createdAt.toISOString(),
    createdBy: item.createdBy,
  };
}

/** GET and DELETE /api/redirects (administrators): the old slugs moves left behind. */
@Injectable()
export class PageRedirectsService {
  constructor(
    private readonly db: Database,
    private readonly pages: PagesRepository,
    private readonly events: EventEmitter2,
  ) {}

  async list(page: ListRequest): Promise<Paged<RedirectResponse>> {
    const after = page.cursor ? cursorString(page.cursor, 'f') : undefined;
    const rows = await this.pages.listRedirects(after, page.limit + 1);
    return toPaged(rows, page.limit, toRedirectResponse, (r) => ({ f: r.from }));
  }

  /** Deletes the redirect from `from`: the old slug answers 404 from then on. */
  async delete(from: string, actor: AuthUser): Promise<void> {
    const slug = normaliseSlug(from);
    const removed = await this.db.transaction(async (tx) => {
      const found = await this.pages.findRedirect(slug, tx);
      if (!found) throw new NotFoundProblem('redirect', 'No redirect from this slug.');
      await this.pages.deleteRedirectsFrom([slug], tx);
      return found;
    });
    audit('redirect.deleted', {
      actorId: actor.id,
      target: `page:${removed.pageId}`,
      from: removed.from,
      to: removed.to,
    });
    const page = await this.pages.findById(removed.pageId);
    this.events.emit(REDIRECT_DELETED, {
      pageId: removed.pageId,
      slug: removed.to,
      title: page?.title ?? '',
      from: removed.from,
      actorId: actor.id,
    } satisfies RedirectDeletedEvent);
  }
}
