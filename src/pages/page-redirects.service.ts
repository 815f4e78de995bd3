import { Injectable } from '@nestjs/common';
import { requireSlugsInScope } from '../common/auth/token-scope';
import { AuthUser } from '../common/auth/auth-user';
import { Database, Tx } from '../common/database/database';
import { REDIRECT_DELETED } from '../common/events/domain-events';
import { Outbox } from '../common/events/outbox';
import { cursorString, ListRequest, Paged, toPaged } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import { NotFoundProblem } from '../common/problems/problem';
import { RedirectResponse } from './dto/page-move.dto';
import { isValidSlug, normaliseSlug } from './model/slug';
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
    private readonly outbox: Outbox,
  ) {}

  async list(page: ListRequest, paths?: string[]): Promise<Paged<RedirectResponse>> {
    const after = page.cursor ? cursorString(page.cursor, 'f') : undefined;
    const rows = await this.pages.listRedirects(after, page.limit + 1, paths);
    return toPaged(rows, page.limit, toRedirectResponse, (r) => ({ f: r.from }));
  }

  /** Deletes the redirect from `from`: the old slug answers 404 from then on. */
  async delete(from: string, actor: AuthUser): Promise<void> {
    const slug = normaliseSlug(from);
    const removed = await this.db.transaction(async (tx) => {
      const found = await this.pages.findRedirect(slug, tx);
      if (!found) throw new NotFoundProblem('redirect', 'No redirect from this slug.');
      requireSlugsInScope(actor, [slug, found.to]);
      await this.pages.deleteRedirectsFrom([slug], tx);
      const page = await this.pages.findById(found.pageId, tx);
      await this.outbox.record(tx, REDIRECT_DELETED, {
        pageId: found.pageId,
        slug: found.to,
        title: page?.title ?? '',
        from: found.from,
        actorId: actor.id,
      });
      return found;
    });
    audit('redirect.deleted', {
      actorId: actor.id,
      target: `page:${removed.pageId}`,
      from: removed.from,
      to: removed.to,
    });
  }

  /**
   * CONTRACTS: restores an archive's redirects inside the caller's transaction (an import):
   * each old slug that no live page uses is pointed at the live page at `to`; the others, and
   * invalid slugs, are left out. Answers how many were restored.
   */
  async restoreRedirectsWithin(
    tx: Tx,
    redirects: { from: string; to: string }[],
    actor: AuthUser,
  ): Promise<number> {
    const pairs = redirects
      .map((r) => ({ from: normaliseSlug(r.from), to: normaliseSlug(r.to) }))
      .filter((r) => r.from !== r.to && isValidSlug(r.from) && isValidSlug(r.to));
    const targets = new Map(
      (await this.pages.findLiveBySlugs([...new Set(pairs.map((r) => r.to))], tx)).map((p) => [
        p.slug,
        p.id,
      ]),
    );
    const taken = await this.pages.liveSlugsAmong(
      pairs.map((r) => r.from),
      tx,
    );
    const now = new Date();
    const rows = pairs.flatMap((r) => {
      const pageId = targets.get(r.to);
      return pageId && !taken.has(r.from)
        ? [{ fromSlug: r.from, pageId, createdAt: now, createdBy: actor.id }]
        : [];
    });
    await this.pages.putRedirects([...new Map(rows.map((r) => [r.fromSlug, r])).values()], tx);
    return rows.length;
  }

  /** CONTRACTS: redirects to the live pages among `slugs`, `{from, to}` by old slug (archives). */
  redirectsTo(slugs: string[]): Promise<{ from: string; to: string }[]> {
    return this.pages.redirectsToSlugs(slugs);
  }
}
