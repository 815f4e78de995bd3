import { Entity, PrimaryColumn } from 'typeorm';

/** An internal link from a page to a slug (which may not exist yet), extracted on save. */
@Entity('page_links')
export class PageLinkEntity {
  @PrimaryColumn({ type: 'varchar', length: 36, name: 'source_page_id' })
  sourcePageId: string;

  @PrimaryColumn({ type: 'varchar', length: 255, name: 'target_slug' })
  targetSlug: string;
}
