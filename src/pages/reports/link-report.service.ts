import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/auth-user';
import { encodeCursor, Paged, parseListRequest } from '../../common/http/pagination';
import { BadRequestProblem, fieldProblem } from '../../common/problems/problem';
import { isValidSlug, normaliseSlug } from '../model/slug';
import type { BrokenLink, LinkReportPosition } from '../store/link-report';
import { PagesRepository } from '../store/pages.repository';
import type { LinkReportQueryDto } from './link-report.dto';

export const MAX_LINK_REPORT_LIMIT = 1000;

function invalidCursor(): BadRequestProblem {
  return new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
}

/** GET /api/reports/links: what CI gates on. */
@Injectable()
export class LinkReportService {
  constructor(private readonly pages: PagesRepository) {}

  async brokenLinks(user: AuthUser, query: LinkReportQueryDto): Promise<Paged<BrokenLink>> {
    const request = parseListRequest(query, MAX_LINK_REPORT_LIMIT);
    let prefix: string | null = null;
    if (query.prefix !== undefined && normaliseSlug(query.prefix) !== '') {
      prefix = normaliseSlug(query.prefix);
      if (!isValidSlug(prefix))
        throw fieldProblem('prefix', 'invalid_slug', 'prefix must be a slug such as docs/guides.');
    }
    let from: LinkReportPosition | null = null;
    if (request.cursor) {
      const { s, k, a } = request.cursor;
      if (typeof s !== 'string' || typeof k !== 'number' || !Number.isInteger(k) || k < 0)
        throw invalidCursor();
      from = { slug: s, skip: k, after: a === true };
    }
    const { items, next } = await this.pages.brokenLinks(user, prefix, from, request.limit);
    return {
      items,
      nextCursor: next
        ? encodeCursor({ s: next.slug, k: next.skip, ...(next.after ? { a: true } : {}) })
        : null,
    };
  }
}
