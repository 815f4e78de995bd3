import { Entity, PrimaryColumn } from 'typeorm';

@Entity('page_tags')
export class PageTagEntity {
  @PrimaryColumn({ type: 'varchar', length: 36, name: 'page_id' })
  pageId: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  tag: string;
}
