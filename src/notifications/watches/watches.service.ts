import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/auth-user';
import { cursorString, ListRequest, Paged, toPaged } from '../../common/http/pagination';
import { BadRequestProblem, FieldProblems, NotFoundProblem } from '../../common/problems/problem';
import { PagesService, normaliseSlug, slugProblems } from '../../pages/public-api';
import type { WatchDto, WatchResponse } from './watch.dto';
import { WatchesRepository, WatchRecord } from './watches.repository';

function toWatchResponse(watch: WatchRecord): WatchResponse {
  return { slug: watch.slug, subtree: watch.subtree, createdAt: watch.createdAt.toISOString() };
}

/**
 * Watches: anyone who can read a page may watch it, or a folder (the page at a slug and every
 * page under it) when they can read a page there. A slug they cannot see answers 404 like a
 * missing one. Watchers are notified by NotificationsListener, which asks `watchersOf`.
 */
@Injectable()
export class WatchesService {
  constructor(
    private readonly watches: WatchesRepository,
    private readonly pages: PagesService,
  ) {}

  async watch(user: AuthUser, body: WatchDto, now = new Date()): Promise<WatchResponse> {
    const { slug, subtree } = this.target(body);
    if (!(await this.pages.visibleAt(slug, user, subtree))) throw new NotFoundProblem('page');
    return toWatchResponse(await this.watches.put(user.id, slug, subtree, now));
  }

  /** Idempotent: a watch the user does not have is gone already. */
  async unwatch(user: AuthUser, body: WatchDto): Promise<void> {
    const { slug, subtree } = this.target(body);
    await this.watches.remove(user.id, slug, subtree);
  }

  async list(user: AuthUser, page: ListRequest): Promise<Paged<WatchResponse>> {
    const after = page.cursor
      ? { slug: cursorString(page.cursor, 'slug'), subtree: cursorFlag(page.cursor) }
      : undefined;
    const rows = await this.watches.listOf(user.id, after, page.limit + 1);
    return toPaged(rows, page.limit, toWatchResponse, (w) => ({ slug: w.slug, t: w.subtree }));
  }

  /** Users watching the page at `slug` (its own watch or a folder's above it). */
  watchersOf(slug: string): Promise<string[]> {
    return this.watches.watchersOf(slug);
  }

  private target(body: WatchDto): { slug: string; subtree: boolean } {
    const slug = normaliseSlug(body.slug);
    const problems = slugProblems(slug, 'slug', false);
    if (problems.length > 0) throw new FieldProblems(problems);
    return { slug, subtree: body.subtree ?? false };
  }
}

function cursorFlag(cursor: Record<string, unknown>): boolean {
  if (typeof cursor.t !== 'boolean')
    throw new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
  return cursor.t;
}
