import { Entity, PrimaryColumn } from 'typeorm';

/** A stored image or attachment a page's Markdown references, extracted on save. */
@Entity('page_media_refs')
export class PageMediaRefEntity {
  @PrimaryColumn({ type: 'varchar', length: 36, name: 'page_id' })
  pageId: string;

  @PrimaryColumn({ type: 'varchar', length: 36, name: 'media_id' })
  mediaId: string;
}
