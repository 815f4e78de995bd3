import { Entity, PrimaryColumn } from 'typeorm';

/** Groups a page is restricted to (none: visible to every authenticated user). */
@Entity('page_groups')
export class PageGroupEntity {
  @PrimaryColumn({ type: 'varchar', length: 36, name: 'page_id' })
  pageId: string;

  @PrimaryColumn({ type: 'varchar', length: 36, name: 'group_id' })
  groupId: string;
}
