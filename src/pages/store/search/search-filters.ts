import { userSql } from '../../../auth/public-sql';
import type { SearchFilters } from '../../model/search/search-terms';
import type { SqlCondition } from '../../../common/database/sql';
import { Viewer, visibleSql } from '../visibility-sql';

/**
 * The search filters (`tag:`, `under:`, …) as one SQL condition over pages aliased `p`: plain
 * parameters, never text spliced into the statement. `is:missing-links` counts a link target
 * as present only when the viewer may see it (a page they cannot see looks missing, as in the
 * link report, so the filter reveals nothing).
 */
export function filterSql(filters: SearchFilters, viewer: Viewer): SqlCondition {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const tag of filters.tags) {
    parts.push('EXISTS (SELECT 1 FROM page_tags ft WHERE ft.page_id = p.id AND ft.tag = ?)');
    params.push(tag);
  }
  if (filters.owner !== undefined) {
    parts.push(`${userSql.username('p.owner_id')} = ?`);
    params.push(filters.owner);
  }
  if (filters.under !== undefined && filters.under !== '') {
    // The page itself, and the range of slugs under it (the live-slug index, no LIKE escaping).
    parts.push('(p.live_slug = ? OR (p.live_slug >= ? AND p.live_slug < ?))');
    params.push(filters.under, `${filters.under}/`, `${filters.under}/\u{10FFFF}`);
  }
  if (filters.lifecycle !== undefined) {
    parts.push('p.lifecycle = ?');
    params.push(filters.lifecycle);
  }
  if (filters.verified !== undefined) {
    parts.push('p.verified = ?');
    params.push(filters.verified ? 1 : 0);
  }
  if (filters.lang !== undefined) {
    parts.push('(LOWER(p.language) = ? OR LOWER(p.language) LIKE ?)');
    params.push(filters.lang, `${filters.lang}-%`);
  }
  if (filters.updatedAfter !== undefined) {
    parts.push('p.updated_at >= ?');
    params.push(new Date(`${filters.updatedAfter}T00:00:00Z`));
  }
  if (filters.updatedBefore !== undefined) {
    parts.push('p.updated_at < ?');
    params.push(new Date(`${filters.updatedBefore}T00:00:00Z`));
  }
  if (filters.missingLinks) {
    const target = visibleSql(viewer, 'lt');
    parts.push(
      'EXISTS (SELECT 1 FROM page_links fl WHERE fl.source_page_id = p.id ' +
        `AND NOT EXISTS (SELECT 1 FROM pages lt WHERE lt.live_slug = fl.target_slug AND ${target.sql}) ` +
        'AND NOT EXISTS (SELECT 1 FROM page_redirects fr WHERE fr.from_slug = fl.target_slug))',
    );
    params.push(...target.params);
  }
  return { sql: parts.length === 0 ? '1 = 1' : parts.join(' AND '), params };
}
