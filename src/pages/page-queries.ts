import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { PageEntity } from './entities/page.entity';

/** A page with the usernames its response shows. */
export interface PageRow {
  page: PageEntity;
  ownerName: string | null;
  updatedByName: string | null;
  binnedByName?: string | null;
  /** Current version of the site-wide variables, read in the same query (single-page reads). */
  siteVersion?: number;
}

/** Columns a list item needs (never content or HTML). */
export const SUMMARY_COLUMNS = [
  'p.id',
  'p.slug',
  'p.liveSlug',
  'p.title',
  'p.icon',
  'p.language',
  'p.tags',
  'p.groupNames',
  'p.lifecycle',
  'p.ownerId',
  'p.verified',
  'p.revision',
  'p.createdAt',
  'p.updatedAt',
  'p.updatedBy',
  'p.binnedAt',
  'p.binnedBy',
];

/** Pages aliased `p` with owner and last editor usernames. */
export function selectPages(
  manager: EntityManager,
  columns?: string[],
): SelectQueryBuilder<PageEntity> {
  const query = manager.createQueryBuilder(PageEntity, 'p');
  if (columns) query.select(columns);
  return query
    .leftJoin('users', 'ou', 'ou.id = p.owner_id')
    .addSelect('ou.username', 'owner_username')
    .leftJoin('users', 'ub', 'ub.id = p.updated_by')
    .addSelect('ub.username', 'updated_by_username');
}

/** Also reads the site-wide variables' version in the same round trip. */
export function withSiteVersion(
  query: SelectQueryBuilder<PageEntity>,
): SelectQueryBuilder<PageEntity> {
  return query.addSelect(
    '(SELECT sv.version FROM site_variable_state sv WHERE sv.id = 1)',
    'site_version',
  );
}

export async function fetchPageRows(query: SelectQueryBuilder<PageEntity>): Promise<PageRow[]> {
  const { entities, raw } = await query.getRawAndEntities<Record<string, unknown>>();
  const byId = new Map<string, Record<string, unknown>>();
  for (const row of raw) byId.set(String(row.p_id), row);
  return entities.map((page) => {
    const row = byId.get(page.id) ?? {};
    return {
      page,
      ownerName: (row.owner_username as string | null) ?? null,
      updatedByName: (row.updated_by_username as string | null) ?? null,
      binnedByName: (row.binned_by_username as string | null | undefined) ?? null,
      siteVersion:
        row.site_version === undefined || row.site_version === null ? 0 : Number(row.site_version),
    };
  });
}
