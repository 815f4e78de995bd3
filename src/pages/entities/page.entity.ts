import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn, JsonColumn, LongTextColumn } from '../../common/database/columns';

export const LIFECYCLES = ['draft', 'published', 'in_review', 'deprecated', 'archived'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

/** Scalar values a page property may hold. */
export type PropertyValue = string | number | boolean | null;

/**
 * A page, live or in the bin. `liveSlug` equals `slug` while the page is live and is NULL in the
 * bin: its unique index makes slugs unique among live pages only, so binning frees the slug.
 * `tags` and `groupNames` are denormalised copies of page_tags / page_groups so a read needs
 * no join; the relation tables serve the list, tag and visibility queries.
 */
@Entity('pages')
export class PageEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  slug: string;

  @Index('uq_pages_live_slug', { unique: true })
  @Column({ type: 'varchar', length: 255, name: 'live_slug', nullable: true })
  liveSlug: string | null;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @LongTextColumn()
  content: string;

  /** Rendered HTML (variables resolved) as of `htmlSiteVersion` of the site-wide variables. */
  @LongTextColumn({ nullable: true })
  html: string | null;

  @Column({ type: 'int', name: 'html_site_version', default: 0 })
  htmlSiteVersion: number;

  @Column({ type: 'varchar', length: 64, nullable: true })
  icon: string | null;

  @Column({ type: 'varchar', length: 35, nullable: true })
  language: string | null;

  @JsonColumn()
  tags: string[];

  @JsonColumn({ name: 'group_names' })
  groupNames: string[];

  @Column({ type: 'varchar', length: 16 })
  lifecycle: Lifecycle;

  @Column({ type: 'varchar', length: 36, name: 'owner_id', nullable: true })
  ownerId: string | null;

  @Column({ type: 'int', name: 'review_interval_days', nullable: true })
  reviewIntervalDays: number | null;

  @DateTimeColumn({ name: 'next_review_at', nullable: true })
  nextReviewAt: Date | null;

  @Column({ type: 'varchar', length: 255, name: 'deprecated_target', nullable: true })
  deprecatedTarget: string | null;

  @JsonColumn()
  properties: Record<string, PropertyValue>;

  @JsonColumn()
  variables: Record<string, string>;

  @Column({ type: 'boolean', default: false })
  verified: boolean;

  @Column({ type: 'int' })
  revision: number;

  @DateTimeColumn({ name: 'created_at' })
  createdAt: Date;

  @Column({ type: 'varchar', length: 36, name: 'created_by', nullable: true })
  createdBy: string | null;

  @DateTimeColumn({ name: 'updated_at' })
  updatedAt: Date;

  @Column({ type: 'varchar', length: 36, name: 'updated_by', nullable: true })
  updatedBy: string | null;

  @DateTimeColumn({ name: 'binned_at', nullable: true })
  binnedAt: Date | null;

  @Column({ type: 'varchar', length: 36, name: 'binned_by', nullable: true })
  binnedBy: string | null;
}
