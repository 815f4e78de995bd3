import { Injectable } from '@nestjs/common';
import { AuthUser } from '../common/auth/auth-user';
import { Paged, ListRequest, toPaged } from '../common/http/pagination';
import { BadRequestProblem, NotFoundProblem } from '../common/problems/problem';
import { visibleDeprecatedTarget } from './deprecated-target';
import { PageAccessService } from './page-access.service';
import {
  RevisionResponse,
  RevisionSummaryResponse,
  toRevisionResponse,
  toRevisionSummary,
} from './pages.mapper';
import type { PageRecord } from './model/page-columns';
import { normaliseSlug } from './model/slug';
import { PagesRepository } from './store/pages.repository';

/** Revisions of visible live pages: list newest first, read one. Restore is a write (PageWriterService). */
@Injectable()
export class PageRevisionsService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly access: PageAccessService,
  ) {}

  async list(
    slug: string | undefined,
    user: AuthUser,
    page: ListRequest,
  ): Promise<Paged<RevisionSummaryResponse>> {
    if (slug === undefined || slug.trim() === '')
      throw new BadRequestProblem('slug_required', 'Name the page: /api/revisions?slug=<slug>.');
    const target = await this.pages.findLive(normaliseSlug(slug));
    if (!target || !this.access.canSee(target, user)) throw new NotFoundProblem('page');
    let before: number | undefined;
    if (page.cursor) {
      before = page.cursor.before as number;
      if (typeof before !== 'number')
        throw new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
    }
    const rows = await this.pages.listRevisions(target.id, before, page.limit + 1);
    return toPaged(
      rows,
      page.limit,
      (r) => toRevisionSummary(r.revision, r.author),
      (r) => ({ before: r.revision.revision }),
    );
  }

  async get(id: string, user: AuthUser): Promise<RevisionResponse> {
    const found = await this.pages.findRevision(id);
    const page = found ? await this.pages.findById(found.revision.pageId) : null;
    if (!found || !page || !this.access.canSee(page, user)) throw new NotFoundProblem('revision');
    const [owner, deprecatedTarget] = await Promise.all([
      this.pages.usernameOf(found.revision.metadata.ownerId),
      visibleDeprecatedTarget(this.pages, found.revision.metadata.deprecatedTarget, user),
    ]);
    const response = toRevisionResponse(found.revision, found.author, owner);
    return { ...response, metadata: { ...response.metadata, deprecatedTarget } };
  }

  /**
   * CONTRACTS: a visible live page's title and Markdown at revision `revision` (a change
   * request's base), or null when it has no such revision.
   */
  async revisionText(
    page: Pick<PageRecord, 'id'>,
    revision: number,
  ): Promise<{ title: string; content: string } | null> {
    return this.pages.revisionText(page.id, revision);
  }
}
