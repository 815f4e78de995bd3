import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { Page, PageRequest, toPage } from '../common/http/pagination';
import { BadRequestProblem, NotFoundProblem } from '../common/problems/problem';
import { PageRevisionEntity } from './entities/page-revision.entity';
import { PageEntity } from './entities/page.entity';
import { PageAccessService } from './page-access.service';
import {
  RevisionResponse,
  RevisionSummaryResponse,
  toRevisionResponse,
  toRevisionSummary,
} from './pages.mapper';
import { normaliseSlug } from './slug';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Revisions of visible live pages: list newest first, read one. Restore is a write (PageWriterService). */
@Injectable()
export class PageRevisionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: PageAccessService,
  ) {}

  async list(
    slug: string | undefined,
    user: AuthUser,
    page: PageRequest,
  ): Promise<Page<RevisionSummaryResponse>> {
    if (slug === undefined || slug.trim() === '')
      throw new BadRequestProblem('slug_required', 'Name the page: /api/revisions?slug=<slug>.');
    const target = await this.dataSource.manager.findOneBy(PageEntity, {
      liveSlug: normaliseSlug(slug),
    });
    if (!target || !this.access.canSee(target, user)) throw new NotFoundProblem('page');
    const query = this.dataSource.manager
      .createQueryBuilder(PageRevisionEntity, 'r')
      .select([
        'r.id',
        'r.pageId',
        'r.revision',
        'r.title',
        'r.action',
        'r.authorId',
        'r.createdAt',
      ])
      .where('r.page_id = :pageId', { pageId: target.id })
      .orderBy('r.revision', 'DESC')
      .limit(page.limit + 1);
    if (page.cursor) {
      const before = page.cursor.before;
      if (typeof before !== 'number')
        throw new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
      query.andWhere('r.revision < :before', { before });
    }
    const rows = await query.getMany();
    const names = await this.usernames(rows.map((r) => r.authorId));
    return toPage(
      rows,
      page.limit,
      (r) => toRevisionSummary(r, r.authorId ? (names.get(r.authorId) ?? null) : null),
      (r) => ({ before: r.revision }),
    );
  }

  async get(id: string, user: AuthUser): Promise<RevisionResponse> {
    if (!UUID.test(id)) throw new NotFoundProblem('revision');
    const revision = await this.dataSource.manager.findOneBy(PageRevisionEntity, { id });
    const page = revision
      ? await this.dataSource.manager.findOneBy(PageEntity, { id: revision.pageId })
      : null;
    if (!revision || !page || !this.access.canSee(page, user))
      throw new NotFoundProblem('revision');
    const names = await this.usernames([revision.authorId, revision.metadata.ownerId]);
    const name = (userId: string | null) => (userId ? (names.get(userId) ?? null) : null);
    return toRevisionResponse(revision, name(revision.authorId), name(revision.metadata.ownerId));
  }

  private async usernames(ids: (string | null)[]): Promise<Map<string, string>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows: { id: string; username: string }[] = await this.dataSource.manager
      .createQueryBuilder()
      .select('u.id', 'id')
      .addSelect('u.username', 'username')
      .from('users', 'u')
      .where('u.id IN (:...ids)', { ids: wanted })
      .getRawMany();
    return new Map(rows.map((r) => [r.id, r.username]));
  }
}
