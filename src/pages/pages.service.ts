import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, LessThanOrEqual, Not, Repository } from 'typeorm';
import { UsersService } from '../auth/users.service';
import { PageMediaRefEntity } from './entities/page-media-ref.entity';
import { PageEntity } from './entities/page.entity';
import { PageAccessService } from './page-access.service';
import { ReviewDuePage } from './pages.types';

@Injectable()
export class PagesService {
  constructor(
    @InjectRepository(PageEntity) private readonly pages: Repository<PageEntity>,
    @InjectRepository(PageMediaRefEntity)
    private readonly mediaRefs: Repository<PageMediaRefEntity>,
    private readonly access: PageAccessService,
    private readonly users: UsersService,
  ) {}

  /** Live pages with these slugs (normalised), for import link rewriting. */
  findLiveBySlugs(slugs: string[]): Promise<PageEntity[]> {
    if (slugs.length === 0) return Promise.resolve([]);
    return this.pages.findBy({ liveSlug: In(slugs) });
  }

  /** Slugs of pages (live or in the bin) whose Markdown references the image or attachment. */
  async slugsReferencingMedia(mediaId: string): Promise<string[]> {
    const rows: { slug: string }[] = await this.mediaRefs
      .createQueryBuilder('r')
      .innerJoin(PageEntity, 'p', 'p.id = r.page_id')
      .select('p.slug', 'slug')
      .where('r.media_id = :mediaId', { mediaId: mediaId.toLowerCase() })
      .getRawMany();
    return [...new Set(rows.map((r) => r.slug))].sort();
  }

  /** Live pages whose next review date has passed, oldest first. */
  async listReviewDue(now: Date, limit: number): Promise<ReviewDuePage[]> {
    const rows = await this.pages.find({
      where: { liveSlug: Not(IsNull()), nextReviewAt: LessThanOrEqual(now) },
      order: { nextReviewAt: 'ASC', id: 'ASC' },
      take: limit,
    });
    return rows.map((p) => ({
      id: p.id,
      slug: p.slug,
      title: p.title,
      ownerId: p.ownerId,
      nextReviewAt: p.nextReviewAt!,
    }));
  }

  /** Whether an (active) user may see a live page: the same rule as every read. */
  async canUserSeePage(pageId: string, userId: string): Promise<boolean> {
    const [page, user] = await Promise.all([
      this.pages.findOneBy({ id: pageId }),
      this.users.findActiveById(userId),
    ]);
    if (!page || !user) return false;
    return this.access.canSee(page, {
      role: user.role,
      groups: (user.groups ?? []).map((g) => g.name),
    });
  }
}
