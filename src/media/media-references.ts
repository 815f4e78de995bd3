import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import { PageAccessService } from '../pages/page-access.service';

/** The pages that reference a media item, as far as one caller may know them. */
export interface MediaReferences {
  /** Slugs the caller can see: live pages visible to them; for admins also binned pages. */
  slugs: string[];
  /** How many other pages (invisible to the caller, or in the bin) reference it, unnamed. */
  hiddenReferences: number;
}

/**
 * Reads the references pages record on save (`page_media_refs`, live and binned pages) and
 * splits them by PageAccessService's rule, so a refused delete never names a page the caller
 * may not see. Admins see every live page and the bin, so they get every slug.
 */
@Injectable()
export class MediaReferenceLookup {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: PageAccessService,
  ) {}

  async referencesFor(mediaId: string, viewer: AuthUser): Promise<MediaReferences> {
    const visible = this.access.visibleSql(viewer, 'p');
    const listed = isAdmin(viewer) ? '1 = 1' : visible.sql;
    const rows: { slug: string; listed: number | string }[] = await this.dataSource.query(
      `SELECT p.slug AS slug, CASE WHEN (${listed}) THEN 1 ELSE 0 END AS listed
         FROM page_media_refs r JOIN pages p ON p.id = r.page_id
        WHERE r.media_id = ?`,
      [...(isAdmin(viewer) ? [] : visible.params), mediaId.toLowerCase()],
    );
    const shown = rows.filter((r) => Number(r.listed) === 1);
    return {
      slugs: [...new Set(shown.map((r) => r.slug))].sort(),
      hiddenReferences: rows.length - shown.length,
    };
  }
}
