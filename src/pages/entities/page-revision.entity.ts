import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn, LongTextColumn } from '../../common/database/columns';
import type { Lifecycle, PropertyValue } from './page.entity';

/** The metadata a revision records beside title and content. */
export interface RevisionMetadata {
  icon: string | null;
  language: string | null;
  tags: string[];
  lifecycle: Lifecycle;
  ownerId: string | null;
  reviewIntervalDays: number | null;
  nextReviewAt: string | null;
  groups: string[];
  deprecatedTarget: string | null;
  properties: Record<string, PropertyValue>;
  variables: Record<string, string>;
  verified: boolean;
}

/** One stored state of a page: every create, update and restore writes one. */
@Entity('page_revisions')
export class PageRevisionEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 36, name: 'page_id' })
  pageId: string;

  @Column({ type: 'int' })
  revision: number;

  @Column({ type: 'varchar', length: 255 })
  slug: string;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @LongTextColumn()
  content: string;

  @JsonColumn()
  metadata: RevisionMetadata;

  /** created | updated | restored | imported */
  @Column({ type: 'varchar', length: 16 })
  action: string;

  @Column({ type: 'varchar', length: 36, name: 'author_id', nullable: true })
  authorId: string | null;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;
}
