import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/auth-user';
import { cursorString, Paged, ListRequest, toPaged } from '../../common/http/pagination';
import { fieldProblem } from '../../common/problems/problem';
import { isValidSlug, normaliseSlugField } from '../model/slug';
import { PagesRepository } from '../store/pages.repository';
import { PageTreeNodeResponse } from './page-tree.dto';

/**
 * The page tree built from the slug hierarchy, one level at a time (the console loads a
 * branch when it is opened): the next segments below a slug, each with the page at that slug
 * (if any) and whether deeper pages exist. Only visible live pages count.
 */
@Injectable()
export class PageTreeService {
  constructor(private readonly pages: PagesRepository) {}

  async children(
    user: AuthUser,
    parentInput: string | undefined,
    page: ListRequest,
  ): Promise<Paged<PageTreeNodeResponse>> {
    const parent = parentInput === undefined ? '' : normaliseSlugField(parentInput);
    if (parentInput !== undefined && !isValidSlug(parent)) {
      throw fieldProblem('parent', 'invalid_slug', 'parent must be a page slug.');
    }
    const after = page.cursor ? cursorString(page.cursor, 'after') : undefined;
    const rows = await this.pages.listTreeLevel(user, parent, after, page.limit + 1);
    return toPaged(
      rows,
      page.limit,
      (r) => ({ slug: parent ? `${parent}/${r.name}` : r.name, ...r }),
      (r) => ({ after: r.name }),
    );
  }
}
