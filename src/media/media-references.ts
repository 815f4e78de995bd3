import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import type { MediaReferences } from '../pages/public-api';
import { PageBrowseService } from '../pages/public-api';

export type { MediaReferences };

/**
 * The references pages record on save (live and binned pages), asked of the pages module and
 * split by its visibility rule, so a refused delete never names a page the caller may not see.
 * Admins see every live page and the bin, so they get every slug.
 */
@Injectable()
export class MediaReferenceLookup {
  constructor(private readonly browse: PageBrowseService) {}

  referencesFor(mediaId: string, viewer: AuthUser): Promise<MediaReferences> {
    return this.browse.mediaReferences(mediaId, viewer);
  }
}
